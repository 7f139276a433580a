import type { BenchResults } from '../run-bench';
import { headlines, peerWins } from './findings';
import { duration } from './format';
import { mcpHeadline } from './mcp-section';

const plain = (line: string): string => line.replace(/\*\*/g, '').replace(/`/g, '');

/** The summary printed at the end of a run. */
export function consoleSummary(results: BenchResults, written: readonly string[]): string {
  const wins = peerWins(results);
  return [
    '',
    `tool-search bench (${results.mode}) finished in ${duration(results.durationMs)}; load average ${results.load.start.toFixed(1)} → ${results.load.end.toFixed(1)} on ${results.machine.cores} cores.`,
    '',
    ...[...headlines(results), ...mcpHeadline(results)].map((line) => `  • ${plain(line)}`),
    '',
    wins.length > 0
      ? `  Where a peer wins: ${wins.length} figure(s), listed in the report.`
      : '  No peer beat ours on any figure of this run.',
    '',
    ...written.map((file) => `  wrote ${file}`),
    '',
  ].join('\n');
}
