import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORST_CASE_PIECES } from '@tool-search/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownSource } from './datasets';
import { buildCharts } from './report/charts';
import { renderMarkdown } from './report/markdown';
import { type BenchConfig, type BenchResults, runBench } from './run-bench';
import { writeReport } from './write-report';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), '__fixtures__', 'catalog');
const source = ownSource(path.join(fixture, 'tools.jsonl'), path.join(fixture, 'queries.jsonl'));

/** The quick run's pieces on a 40-tool catalog, in this thread (vitest's transform does not reach workers). */
const tiny: BenchConfig = {
  mode: 'quick',
  sources: [source],
  maxQueries: undefined,
  scanMaxQueries: 10,
  parallel: 1,
  choose: { sets: [source.name], maxQueries: 8 },
  tokenSizes: [10, 30],
  speed: {
    sizes: [150],
    realRequestSizes: [150],
    runs: () => 1,
    queries: () => 10,
    warmup: 3,
    buildBudgetMs: 1_000,
    queryBudgetMs: 1_000,
    jobTimeoutMs: 10_000,
    peerTimeoutMs: 10_000,
    seed: 1,
    isolate: false,
    measureMemory: true,
  },
  steps: { size: 40, iterations: 5, warmup: 1, slowIterations: 2, redis: false },
  worstCase: { size: 2_100, queries: 10, runs: 1, nameLength: 9_000, seed: 1 },
  native: {
    requests: [
      'book a table for two in Rome tomorrow at 8pm',
      "what's the weather forecast in Lisbon this weekend",
    ],
  },
  learning: { curve: [2], kinds: ['keyword'], maxQueries: undefined, timedSearches: 5, heldApart: null },
};

describe('pnpm bench, every suite on tiny data', () => {
  let results: BenchResults;
  let labels: string[];
  beforeAll(async () => {
    results = await runBench(tiny);
    labels = results.systems.map((system) => system.label);
  }, 120_000);

  it('ranks the queries with every system and scores them per set and split', () => {
    expect(labels).toEqual(
      expect.arrayContaining([
        'tool-search (keyword)',
        'Mastra ToolSearchProcessor',
        'AI SDK toolSearch()',
        'plain BM25 (baseline)',
      ]),
    );
    expect(results.quality.sets).toEqual([
      { name: 'tools', tools: 40, queries: 16, queriesRun: 16, queriesCompared: 10 },
    ]);
    // The comparison: every system on the same 10 queries (the peers that scan rank only those).
    expect(results.quality.reports.map((report) => report.ranker)).toEqual(labels);
    // The systems with an index (ours, the hybrid when exported, the baseline) also on all 16.
    const indexed = results.systems.filter((system) => !system.scansCatalog).map((system) => system.label);
    expect(indexed).toEqual(expect.arrayContaining(['tool-search (keyword)', 'plain BM25 (baseline)']));
    expect(results.quality.fullReports.map((report) => [report.ranker, report.overall.queries])).toEqual(
      indexed.map((label) => [label, 16]),
    );
    const comparedIds = results.quality.reports[0]!.perQuery.map((row) => row.id);
    for (const report of results.quality.reports) {
      expect(report.overall.queries).toBe(10);
      expect(report.perQuery.map((row) => row.id)).toEqual(comparedIds);
      expect(report.splits.map((split) => [split.label, split.queries]).sort()).toEqual([
        ['multi', 1],
        ['single', 9],
      ]);
      for (const value of Object.values(report.overall.metrics)) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
      expect(report.perQuery.every((row) => row.ranked.length <= 10)).toBe(true);
    }
    // The generated requests name their tool's words: every system finds some of them.
    const ours = results.quality.fullReports.find((report) => report.ranker === 'tool-search (keyword)')!;
    expect(ours.overall.metrics.r10).toBeGreaterThan(0.5);
    // The compared figures of ours are cut from its full run, query by query.
    const cut = results.quality.reports.find((report) => report.ranker === 'tool-search (keyword)')!;
    expect(cut.perQuery).toEqual(ours.perQuery.filter((row) => comparedIds.includes(row.id)));
  });

  it('fills the topK × minScore grid: more results, more recall and more tokens as topK grows', () => {
    const rows = results.choose[0]!.rows;
    expect(rows).toHaveLength(20);
    const atZero = rows.filter((row) => row.minScore === 0).sort((left, right) => left.topK - right.topK);
    expect(atZero.map((row) => row.topK)).toEqual([1, 3, 5, 10]);
    for (let index = 1; index < atZero.length; index++) {
      expect(atZero[index]!.returned).toBeGreaterThanOrEqual(atZero[index - 1]!.returned);
      expect(atZero[index]!.recall).toBeGreaterThanOrEqual(atZero[index - 1]!.recall);
      expect(atZero[index]!.definitionTokens).toBeGreaterThan(atZero[index - 1]!.definitionTokens);
    }
    const strict = rows.find((row) => row.minScore === 0.3 && row.topK === 5)!;
    expect(strict.returned).toBeLessThanOrEqual(atZero[2]!.returned);
  });

  it('counts the tokens each system sends per step, from real framework calls', () => {
    expect(results.tokens.map((row) => row.tools)).toEqual([10, 30]);
    const [small, large] = results.tokens;
    expect(large!.allTools).toBeGreaterThan(small!.allTools);
    expect(small!.oursFirstStep).toBe(large!.oursFirstStep);
    expect(small!.oursAfterLoad).toBeGreaterThan(small!.oursFirstStep);
    for (const value of [small!.mastraFirstStep, small!.aiSdkFirstStep, small!.oursInstructions]) {
      expect(value).toBeGreaterThan(10);
    }
  });

  it('times builds and searches of every system, and the adapters’ steps', () => {
    expect(results.speed.map((row) => row.systemId)).toEqual(results.systems.map((system) => system.id));
    for (const row of results.speed) {
      expect(row.buildMs).toBeGreaterThan(0);
      expect(row.queriesTimed).toBeGreaterThan(0);
      expect(row.medianQueryMs).toBeGreaterThan(0);
      expect(row.p99QueryMs).toBeGreaterThanOrEqual(row.medianQueryMs);
    }
    // Again on the fixture's real tools (topped up to 150) and its real requests.
    expect(results.realRequestSpeed.map((row) => row.systemId)).toEqual(
      results.systems.map((system) => system.id),
    );
    for (const row of results.realRequestSpeed) {
      expect(row).toMatchObject({ tools: 150, requests: 'real' });
      expect(row.queriesTimed).toBeGreaterThan(0);
      expect(row.medianQueryMs).toBeGreaterThan(0);
    }
    expect(results.speed.every((row) => row.requests === 'generated')).toBe(true);
    const adapters = new Set(results.steps.map((row) => `${row.adapter}/${row.system}/${row.mode}`));
    for (const mode of ['catalog', 'request-tools']) {
      for (const entry of [
        'mastra/tool-search',
        'mastra/mastra',
        'ai-sdk/tool-search',
        'langchain/tool-search',
      ]) {
        expect(adapters).toContain(`${entry}/${mode}`);
      }
    }
  });

  it('times the worst-case inputs next to typical requests, per entry point', () => {
    expect(results.worstCase.map((row) => row.entry)).toEqual([
      'tokenize',
      'splitClauses',
      'createToolIndex().search',
      'search_tools',
      'load_tool',
    ]);
    for (const row of results.worstCase) {
      expect(row).toMatchObject({ tools: 2_100, inputs: WORST_CASE_PIECES.length });
      expect(row.typicalMs).toBeGreaterThan(0);
      expect(row.worstMs).toBeGreaterThan(0);
      expect(row.worstInput).toMatch(/ × /);
    }
    expect(results.worstCase.at(-1)!.inputLength).toBe(9_000);
  });

  it('runs each request natively and in the default mode, for Anthropic and OpenAI, from the recorded bodies', () => {
    expect(results.native.map((row) => [row.provider, row.threads, row.mode])).toEqual(
      ['anthropic', 'openai'].flatMap((provider) =>
        ['per-request', 'one'].flatMap((threads) => [
          [provider, threads, 'default'],
          [provider, threads, 'native'],
        ]),
      ),
    );
    const row = (provider: string, threads: string, mode: string) =>
      results.native.find(
        (entry) => entry.provider === provider && entry.threads === threads && entry.mode === mode,
      )!;
    for (const provider of ['anthropic', 'openai']) {
      for (const threads of ['per-request', 'one']) {
        const fallback = row(provider, threads, 'default');
        const native = row(provider, threads, 'native');
        // search, load, call, answer against search, call, answer.
        expect(fallback.modelCallsPerRequest).toEqual([4, 4]);
        expect(native.modelCallsPerRequest).toEqual([3, 3]);
        // The default mode changes the list on each load (in one thread, the second request
        // starts with the first one's tool: no change there); the native mode never does.
        expect(fallback.toolListChanges).toBe(2);
        expect(native.toolListChanges).toBe(0);
        expect(native.laterCalls).toBe(threads === 'one' ? 5 : 4);
        expect(native.sameToolsAsDefault).toBe(2);
        expect(fallback.toolDefinitionTokens).toBeGreaterThan(0);
        expect(native.toolDefinitionTokens).toBeGreaterThan(0);
      }
      // In one thread, the tools loaded before come back: more definitions in context.
      expect(row(provider, 'one', 'native').toolDefinitionTokens).toBeGreaterThan(
        row(provider, 'per-request', 'native').toolDefinitionTokens,
      );
    }
  });

  it('writes the report with every section and a chart per figure', async () => {
    const charts = buildCharts(results);
    expect(charts.map((chart) => chart.file)).toEqual([
      'quality-ndcg.svg',
      'quality-comp5.svg',
      'speed-query.svg',
      'speed-build.svg',
      'memory.svg',
      'steps.svg',
      'tokens.svg',
      'learning-curve.svg',
    ]);
    for (const chart of charts) {
      expect(chart.svg.startsWith('<svg ')).toBe(true);
      expect(chart.svg.trimEnd().endsWith('</svg>')).toBe(true);
      expect(chart.svg).not.toMatch(/NaN|undefined|Infinity/);
    }
    const markdown = renderMarkdown(results, charts, 'charts');
    for (const heading of [
      '## Systems',
      '## Headlines',
      '## Quality',
      '## Choosing `topK` and `minScore`',
      '## Speed and memory',
      '## Time one agent step adds',
      '## Worst-case input',
      '## Tokens per step',
      '## Provider-native deferred loading',
      '## Learning from use',
      '## Where a peer wins',
      '## Reproduce',
    ]) {
      expect(markdown).toContain(heading);
    }
    expect(markdown).toContain('### Real requests');
    expect(markdown).toMatch(
      /^- Anthropic, a thread per request: one model call fewer than the default mode on 2 of 2 requests; the tools array never changed in the native mode \(default: 2 changes\)\.$/m,
    );
    expect(markdown).toContain('- **Provider-native deferred loading** (the demo');
    expect(markdown).toContain('**On real requests at 150 tools**');
    expect(markdown).toContain('![NDCG@10 per eval set](charts/quality-ndcg.svg)');
    expect(markdown).toContain('| @mastra/core | 1.71.0 |');
    expect(markdown).toContain(
      '![NDCG@10 of the test half against the uses recorded from the traffic half](charts/learning-curve.svg)',
    );
    expect(results.learning!.comparisons.map((row) => [row.set, row.kind])).toEqual([
      [source.name, 'keyword'],
    ]);

    const folder = await mkdtemp(path.join(os.tmpdir(), 'bench-report-'));
    try {
      const written = await writeReport(results, {
        markdown: path.join(folder, 'report.md'),
        json: path.join(folder, 'report.json'),
      });
      expect(written).toHaveLength(1 + charts.length + 1);
      expect(await readFile(path.join(folder, 'report', 'tokens.svg'), 'utf8')).toBe(
        charts.find((chart) => chart.file === 'tokens.svg')!.svg,
      );
      expect(JSON.parse(await readFile(path.join(folder, 'report.json'), 'utf8')).mode).toBe('quick');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
