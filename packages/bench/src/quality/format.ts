import type { EvalReport } from './evaluate';
import { METRIC_LABELS, METRIC_NAMES } from './metrics';

const figure = (value: number): string => value.toFixed(3).replace(/^0\./, '.');

/** A markdown table: one row per set and ranker, then (with `splits`) one per split. */
export function formatQualityTable(
  reports: readonly EvalReport[],
  options: { splits?: boolean } = {},
): string {
  const header = ['set / split', 'ranker', 'queries', ...METRIC_NAMES.map((name) => METRIC_LABELS[name])];
  const lines = [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, index) => (index < 2 ? '---' : '---:')).join('|')}|`,
  ];
  const sets = [...new Set(reports.map((report) => report.set))];
  for (const set of sets) {
    const ofSet = reports.filter((report) => report.set === set);
    for (const report of ofSet) {
      const row = report.overall;
      lines.push(
        `| **${set}** | ${report.ranker} | ${row.queries} | ${METRIC_NAMES.map((name) => figure(row.metrics[name])).join(' | ')} |`,
      );
    }
    if (!options.splits) continue;
    const labels = ofSet[0]?.splits.map((split) => split.label) ?? [];
    for (const label of labels) {
      for (const report of ofSet) {
        const row = report.splits.find((split) => split.label === label);
        if (row === undefined) continue;
        lines.push(
          `| ${set} / ${label} | ${report.ranker} | ${row.queries} | ${METRIC_NAMES.map((name) => figure(row.metrics[name])).join(' | ')} |`,
        );
      }
    }
  }
  return lines.join('\n');
}
