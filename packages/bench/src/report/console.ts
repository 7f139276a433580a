import type { BenchResults } from '../run-bench';
import type { LearningSuiteResult } from '../suites/learning';
import { headlines, peerWins } from './findings';
import { duration, metric } from './format';
import { worstSplit } from './learning-section';
import { mcpHeadline } from './mcp-section';
import { nativeHeadline } from './native-section';

const plain = (line: string): string => line.replace(/\*\*/g, '').replace(/`/g, '');

/** The summary printed at the end of a run. */
export function consoleSummary(results: BenchResults, written: readonly string[]): string {
  const wins = peerWins(results);
  return [
    '',
    `tool-search bench (${results.mode}) finished in ${duration(results.durationMs)}; load average ${results.load.start.toFixed(1)} → ${results.load.end.toFixed(1)} on ${results.machine.cores} cores.`,
    '',
    ...[...headlines(results), ...nativeHeadline(results), ...mcpHeadline(results)].map(
      (line) => `  • ${plain(line)}`,
    ),
    '',
    wins.length > 0
      ? `  Where a peer wins: ${wins.length} figure(s), listed in the report.`
      : '  No peer beat ours on any figure of this run.',
    '',
    ...written.map((file) => `  wrote ${file}`),
    '',
  ].join('\n');
}

/** The summary printed at the end of `pnpm bench -- --suite learning`: every figure the goals name. */
export function learningSummary(
  result: LearningSuiteResult,
  elapsedMs: number,
  written: readonly string[],
): string {
  const ndcg = (report: { overall: { metrics: { ndcg10: number } } }) =>
    metric(report.overall.metrics.ndcg10);
  return [
    '',
    `learning suite finished in ${duration(elapsedMs)}.`,
    ...result.comparisons.map((row) => {
      const worst = worstSplit(row);
      return `  ${row.set}, ${row.kind}: NDCG@10 ${ndcg(row.plain)} → ${ndcg(row.learned)} on ${row.plain.overall.queries} test queries after ${row.uses} uses; least-gaining split ${worst ? `${worst.label} ${(worst.gain >= 0 ? '+' : '') + worst.gain.toFixed(3)}` : '—'}`;
    }),
    ...result.cost.map(
      (row) =>
        `  cost ${row.set}, ${row.kind}: median ${row.plainMedianMs.toFixed(4)} ms plain, ${row.learnedMedianMs.toFixed(4)} ms learning (${(row.learnedMedianMs / row.plainMedianMs).toFixed(2)}×); engine search_tools ${row.enginePlainMedianMs.toFixed(4)} ms, ${row.engineLearnedMedianMs.toFixed(4)} ms (${(row.engineLearnedMedianMs / row.enginePlainMedianMs).toFixed(2)}×)`,
    ),
    ...result.curves.map(
      (curve) =>
        `  curve ${curve.set}, ${curve.kind}: ${curve.points.map((point) => `${point.uses} → ${metric(point.ndcg10)}`).join(', ')}`,
    ),
    ...result.heldApart.map(
      (row) =>
        `  held apart ${row.set}, ${row.kind}: NDCG@10 ${ndcg(row.plain)} → ${ndcg(row.learned)} (${row.plain.overall.queries} requests)`,
    ),
    '',
    ...written.map((file) => `  wrote ${file}`),
    '',
  ].join('\n');
}
