import type { BenchResults } from '../run-bench';
import type { SystemId } from '../systems';
import { SYSTEM_COLORS } from './colors';
import { learningCharts } from './learning-section';
import { barChart, lineChart } from './svg';

export interface Chart {
  /** File name (`quality-ndcg.svg`). */
  readonly file: string;
  /** Alt text. */
  readonly title: string;
  readonly svg: string;
}

const sizeLabel = (size: number): string =>
  size >= 1000 ? `${(size / 1000).toLocaleString('en-US')}k tools` : `${size} tools`;

function systemSeries(results: BenchResults, ids?: readonly SystemId[]) {
  return results.systems
    .filter((system) => !ids || ids.includes(system.id))
    .map((system) => ({ id: system.id, name: system.label, color: SYSTEM_COLORS[system.id] }));
}

function qualityChart(results: BenchResults, key: 'ndcg10' | 'comp5', file: string, title: string): Chart {
  const sets = results.quality.sets.map((set) => set.name);
  const series = systemSeries(results);
  const values = sets.map((set) =>
    series.map(
      (system) =>
        results.quality.reports.find((report) => report.set === set && report.ranker === system.name)?.overall
          .metrics[key] ?? Number.NaN,
    ),
  );
  return {
    file,
    title,
    svg: barChart({
      title,
      subtitle: 'higher is better',
      unit: key === 'ndcg10' ? 'NDCG@10' : 'Comp@5',
      groups: sets,
      series,
      values,
    }),
  };
}

function speedCharts(results: BenchResults): Chart[] {
  if (results.speed.length === 0) return [];
  const sizes = [...new Set(results.speed.map((row) => row.tools))];
  const ids = [...new Set(results.speed.map((row) => row.systemId))];
  const series = systemSeries(results, ids);
  const value = (key: 'medianQueryMs' | 'buildMs' | 'memoryBytesPerTool') =>
    series.map((system) =>
      sizes.map(
        (size) =>
          results.speed.find((row) => row.systemId === system.id && row.tools === size)?.[key] ?? Number.NaN,
      ),
    );
  const x = sizes.map(sizeLabel);
  const memory = value('memoryBytesPerTool');
  const charts: Chart[] = [
    {
      file: 'speed-query.svg',
      title: 'Median search latency by catalog size',
      svg: lineChart({
        title: 'Median search latency by catalog size',
        subtitle: 'one search_tools call (topK 5), log scale, lower is better',
        unit: 'ms per search',
        x,
        series,
        values: value('medianQueryMs'),
        log: true,
      }),
    },
    {
      file: 'speed-build.svg',
      title: 'Index build time by catalog size',
      svg: lineChart({
        title: 'Index build time by catalog size',
        subtitle:
          'from the tool objects to the first search, log scale, lower is better; a missing point was stopped',
        unit: 'ms',
        x,
        series,
        values: value('buildMs'),
        log: true,
      }),
    },
  ];
  if (memory.flat().some(Number.isFinite)) {
    charts.push({
      file: 'memory.svg',
      title: 'Memory held per catalog tool',
      svg: barChart({
        title: 'Memory held per catalog tool',
        subtitle:
          'JS heap + array buffers after a full GC, the tool objects themselves excluded; lower is better',
        unit: 'bytes per tool',
        groups: x,
        series,
        values: sizes.map((_, sizeIndex) =>
          value('memoryBytesPerTool').map((list) => list[sizeIndex] ?? Number.NaN),
        ),
      }),
    });
  }
  return charts;
}

function stepChart(results: BenchResults): Chart[] {
  const rows = results.steps.filter((row) => row.adapter !== 'redis');
  if (rows.length === 0) return [];
  const groupOf = (row: (typeof rows)[number]) =>
    `${row.adapter}\n${row.mode === 'catalog' ? 'catalog' : 'request tools'}`;
  const groups = [...new Set(rows.map(groupOf))];
  const series = [
    { name: 'tool-search', color: SYSTEM_COLORS.ours },
    { name: "Mastra's own processor", color: SYSTEM_COLORS.mastra },
  ];
  const values = groups.map((group) =>
    ['tool-search', 'mastra'].map(
      (system) => rows.find((row) => groupOf(row) === group && row.system === system)?.medianMs ?? Number.NaN,
    ),
  );
  return [
    {
      file: 'steps.svg',
      title: 'Time tool search adds to one agent step',
      svg: barChart({
        title: 'Time tool search adds to one agent step',
        subtitle: `median, ${rows[0]!.tools.toLocaleString('en-US')} tools (catalog, or resolved per request), log scale, lower is better`,
        unit: 'ms per step',
        groups,
        series,
        values,
        log: true,
        markMissing: false,
      }),
    },
  ];
}

function tokenChart(results: BenchResults): Chart[] {
  if (results.tokens.length === 0) return [];
  const loaded = results.tokens[0]!.loadedCount;
  const series = [
    { name: 'all tools', color: '#6b7280' },
    { name: `tool-search, ${loaded} loaded`, color: SYSTEM_COLORS.ours },
    { name: 'tool-search, first step', color: '#93c5fd' },
    { name: 'Mastra, first step', color: SYSTEM_COLORS.mastra },
    { name: 'AI SDK, first step', color: SYSTEM_COLORS['ai-sdk'] },
  ];
  return [
    {
      file: 'tokens.svg',
      title: 'Tokens of tool definitions sent per step',
      svg: barChart({
        title: 'Tokens of tool definitions sent per step',
        subtitle: 'o200k_base, OpenAI function format, log scale; lower is cheaper',
        unit: 'tokens per step',
        groups: results.tokens.map((row) => sizeLabel(row.tools)),
        series,
        values: results.tokens.map((row) => [
          row.allTools,
          row.oursAfterLoad,
          row.oursFirstStep,
          row.mastraFirstStep,
          row.aiSdkFirstStep,
        ]),
        log: true,
      }),
    },
  ];
}

/** Every chart the report shows, for the suites that ran. */
export function buildCharts(results: BenchResults): Chart[] {
  return [
    ...(results.quality.reports.length > 0
      ? [
          qualityChart(results, 'ndcg10', 'quality-ndcg.svg', 'NDCG@10 per eval set'),
          qualityChart(
            results,
            'comp5',
            'quality-comp5.svg',
            'Comp@5 per eval set (every needed tool in the top 5)',
          ),
        ]
      : []),
    ...speedCharts(results),
    ...stepChart(results),
    ...tokenChart(results),
    ...learningCharts(results.learning),
  ];
}
