import { METRIC_LABELS, METRIC_NAMES } from '../quality/metrics';
import type { BenchResults } from '../run-bench';
import type { SpeedRow } from '../suites/speed-job';
import { bytes, integer, metric, ms, percent, ratio } from './format';

const OURS = 'ours';
/** A split this small says more about its few queries than about the systems: not listed. */
const MIN_SPLIT_QUERIES = 30;

function label(results: BenchResults, id: string): string {
  return results.systems.find((system) => system.id === id)?.label ?? id;
}

function speedRow(rows: readonly SpeedRow[], id: string, size: number): SpeedRow | undefined {
  return rows.find((row) => row.systemId === id && row.tools === size);
}

/** "ours 0.2 ms (hybrid 0.4 ms…); peer 30 ms (150×), …" at `size`, or undefined without ours. */
function latencyComparison(
  results: BenchResults,
  rows: readonly SpeedRow[],
  size: number,
  withBuild: boolean,
): { text: string; mine: SpeedRow } | undefined {
  const mine = speedRow(rows, OURS, size);
  if (!mine) return undefined;
  const others = results.systems
    .filter((system) => system.id !== OURS && system.id !== 'ours-hybrid')
    .map((system) => ({ system, row: speedRow(rows, system.id, size) }))
    .filter((entry) => entry.row !== undefined && Number.isFinite(entry.row.medianQueryMs))
    .map(
      (entry) =>
        `${entry.system.label} ${ms(entry.row!.medianQueryMs)} (${ratio(entry.row!.medianQueryMs / mine.medianQueryMs)})`,
    );
  const hybrid = speedRow(rows, 'ours-hybrid', size);
  const hybridText =
    hybrid && Number.isFinite(hybrid.medianQueryMs)
      ? ` (hybrid ${ms(hybrid.medianQueryMs)}${withBuild ? `, built in ${ms(hybrid.buildMs)}` : ''})`
      : '';
  return { text: `ours ${ms(mine.medianQueryMs)}${hybridText}; ${others.join(', ')}`, mine };
}

/** The figures a reader wants first, one line each. */
export function headlines(results: BenchResults): string[] {
  const lines: string[] = [];
  const ours = label(results, OURS);
  for (const set of results.quality.sets) {
    const reports = results.quality.reports.filter((report) => report.set === set.name);
    const mine = reports.find((report) => report.ranker === ours);
    const peers = results.systems
      .filter((system) => !system.id.startsWith('ours'))
      .flatMap((system) => reports.filter((report) => report.ranker === system.label));
    if (!mine || peers.length === 0) continue;
    const hybrid = reports.find((report) => report.ranker === label(results, 'ours-hybrid'));
    const fullMine = results.quality.fullReports.find(
      (report) => report.set === set.name && report.ranker === ours,
    );
    const pair = (report: (typeof reports)[number]) =>
      `${metric(report.overall.metrics.ndcg10)} / ${metric(report.overall.metrics.comp5)}`;
    lines.push(
      `**${set.name}** (${integer(set.tools)} tools, ${integer(set.queriesCompared)} queries), NDCG@10 / Comp@5: ours ${pair(mine)}` +
        (hybrid ? `, ours hybrid ${pair(hybrid)}` : '') +
        `; ${peers.map((report) => `${report.ranker} ${pair(report)}`).join(', ')}.` +
        (fullMine ? ` On all ${integer(fullMine.overall.queries)} queries, ours ${pair(fullMine)}.` : ''),
    );
  }
  const sizes = [...new Set(results.speed.map((row) => row.tools))];
  const size = sizes.includes(10_000) ? 10_000 : sizes.at(-1);
  const generated = size === undefined ? undefined : latencyComparison(results, results.speed, size, true);
  if (size !== undefined && generated) {
    const { mine } = generated;
    lines.push(
      `**Search latency at ${integer(size)} tools** (median): ${generated.text}. Build ${ms(mine.buildMs)}${Number.isFinite(mine.memoryBytesPerTool) ? `, ${bytes(mine.memoryBytesPerTool)} of memory per tool` : ''}.`,
    );
  }
  const realSize = results.realRequestSpeed.at(-1)?.tools;
  const real =
    realSize === undefined
      ? undefined
      : latencyComparison(results, results.realRequestSpeed, realSize, false);
  if (realSize !== undefined && real) {
    lines.push(
      `**On real requests at ${integer(realSize)} tools** (median; the eval sets' tools and requests): ${real.text}.`,
    );
  }
  const tokenRow = results.tokens.find((row) => row.tools === 1_000) ?? results.tokens.at(-1);
  if (tokenRow) {
    lines.push(
      `**Tokens per step at ${integer(tokenRow.tools)} tools**: ${integer(tokenRow.allTools)} with every tool sent; ${integer(tokenRow.oursFirstStep)} with tool search before anything is loaded and ${integer(tokenRow.oursAfterLoad)} with ${tokenRow.loadedCount} tools loaded (${percent(1 - tokenRow.oursAfterLoad / tokenRow.allTools)} fewer), plus a ${integer(tokenRow.oursInstructions)}-token instruction paragraph.`,
    );
  }
  const steps = results.steps.filter((row) => row.system === 'tool-search');
  if (steps.length > 0) {
    const worst = [...steps].sort((left, right) => right.medianMs - left.medianMs)[0]!;
    const mastraOurs = results.steps.find(
      (row) => row.adapter === 'mastra' && row.system === 'tool-search' && row.mode === 'request-tools',
    );
    const mastraTheirs = results.steps.find(
      (row) => row.adapter === 'mastra' && row.system === 'mastra' && row.mode === 'request-tools',
    );
    lines.push(
      `**Per agent step** (${integer(worst.tools)} tools): ours adds at most ${ms(worst.medianMs)} (median, ${worst.adapter}, ${worst.mode})` +
        (mastraOurs && mastraTheirs
          ? `; with ${integer(mastraTheirs.tools)} request-resolved tools Mastra's own processor takes ${ms(mastraTheirs.medianMs)} per step (it re-indexes every step) against ${ms(mastraOurs.medianMs)} for ours.`
          : '.'),
    );
  }
  return lines;
}

/** Every figure of this run where a peer does better than ours, stated plainly. */
export function peerWins(results: BenchResults): string[] {
  const lines: string[] = [];
  const ours = label(results, OURS);
  const peerLabels = results.systems
    .filter((system) => !system.id.startsWith('ours'))
    .map((system) => system.label);
  for (const set of results.quality.sets) {
    const wins: string[] = [];
    // The comparison (every system on the same queries), then every query of the set, which only
    // the systems with an index rank: a peer ahead on either is listed.
    for (const [reports, every] of [
      [results.quality.reports, false],
      [results.quality.fullReports, true],
    ] as const) {
      const scope = every ? ` on all ${integer(set.queriesRun)} queries` : '';
      const mine = reports.find((report) => report.set === set.name && report.ranker === ours);
      if (!mine) continue;
      for (const report of reports) {
        if (report.set !== set.name || !peerLabels.includes(report.ranker)) continue;
        for (const name of METRIC_NAMES) {
          const theirs = report.overall.metrics[name];
          if (theirs > mine.overall.metrics[name] + 0.0005) {
            wins.push(
              `${report.ranker} ${METRIC_LABELS[name]}${scope} ${metric(theirs)} vs ${metric(mine.overall.metrics[name])}`,
            );
          }
        }
        for (const split of report.splits) {
          const mySplit = mine.splits.find((entry) => entry.label === split.label);
          if (!mySplit || split.queries < MIN_SPLIT_QUERIES) continue;
          for (const name of METRIC_NAMES) {
            if (split.metrics[name] > mySplit.metrics[name] + 0.0005) {
              wins.push(
                `${report.ranker} ${METRIC_LABELS[name]} on the ${split.label} split (${every ? 'all ' : ''}${integer(split.queries)} queries) ${metric(split.metrics[name])} vs ${metric(mySplit.metrics[name])}`,
              );
            }
          }
        }
      }
    }
    if (wins.length > 0) lines.push(`Quality on **${set.name}**: ${wins.join('; ')}.`);
  }
  for (const [rows, kind] of [
    [results.speed, ''],
    [results.realRequestSpeed, ' on real requests'],
  ] as const) {
    lines.push(...speedWins(results, rows, kind));
  }
  for (const row of results.steps.filter((entry) => entry.system === 'mastra')) {
    const mine = results.steps.find(
      (entry) => entry.adapter === 'mastra' && entry.system === 'tool-search' && entry.mode === row.mode,
    );
    if (mine && row.medianMs < mine.medianMs) {
      lines.push(
        `Mastra's own processor takes ${ms(row.medianMs)} per step (${row.mode}) vs ${ms(mine.medianMs)} for ours.`,
      );
    }
  }
  const tokens = results.tokens[0];
  if (tokens) {
    if (tokens.aiSdkFirstStep < tokens.oursFirstStep) {
      lines.push(
        `The AI SDK's toolSearch() sends one meta-tool of ${integer(tokens.aiSdkFirstStep)} tokens where ours sends two (search_tools and load_tool) of ${integer(tokens.oursFirstStep)}, and it adds no instruction paragraph (ours: ${integer(tokens.oursInstructions)} tokens). Its found tools become callable without a load step.`,
      );
    }
    if (tokens.mastraFirstStep < tokens.oursFirstStep) {
      lines.push(
        `Mastra's meta-tools take ${integer(tokens.mastraFirstStep)} tokens vs ${integer(tokens.oursFirstStep)} for ours` +
          (tokens.mastraInstructions < tokens.oursInstructions
            ? `, and its instruction paragraph ${integer(tokens.mastraInstructions)} vs ${integer(tokens.oursInstructions)}.`
            : '.'),
      );
    }
  }
  return lines;
}

/** Each figure of `rows` where a peer beats ours (`kind` names the requests, or is empty). */
function speedWins(results: BenchResults, rows: readonly SpeedRow[], kind: string): string[] {
  const lines: string[] = [];
  for (const size of [...new Set(rows.map((row) => row.tools))]) {
    const mine = speedRow(rows, OURS, size);
    if (!mine) continue;
    for (const row of rows.filter((entry) => entry.tools === size && !entry.systemId.startsWith('ours'))) {
      const name = label(results, row.systemId);
      const faster: string[] = [];
      if (row.buildMs < mine.buildMs) {
        const why =
          row.systemId === 'ai-sdk' ? ' (it builds no index: each search scans the catalog instead)' : '';
        faster.push(`builds in ${ms(row.buildMs)} vs ${ms(mine.buildMs)}${why}`);
      }
      if (row.medianQueryMs < mine.medianQueryMs)
        faster.push(`answers a search in ${ms(row.medianQueryMs)} vs ${ms(mine.medianQueryMs)} (median)`);
      if (row.p99QueryMs < mine.p99QueryMs && row.queriesTimed >= 100)
        faster.push(`p99 ${ms(row.p99QueryMs)} vs ${ms(mine.p99QueryMs)}`);
      if (row.memoryBytesPerTool < mine.memoryBytesPerTool)
        faster.push(`holds ${bytes(row.memoryBytesPerTool)} per tool vs ${bytes(mine.memoryBytesPerTool)}`);
      if (faster.length > 0) lines.push(`At ${integer(size)} tools${kind}, ${name} ${faster.join(', ')}.`);
    }
  }
  return lines;
}
