import { formatQualityTable } from '../quality/format';
import type { LearningComparison, LearningSuiteResult } from '../suites/learning';
import type { Chart } from './charts';
import { integer, metric, ms, ratio, table } from './format';
import { lineChart } from './svg';

/** What the protocol asks of learning (issue 55). */
export const LEARNING_GOALS = { ndcgGain: 0.05, costRatio: 1.1 } as const;

/** The section between these lines is what `pnpm bench -- --suite learning` rewrites. */
export const LEARNING_START = '<!-- learning suite: written by pnpm bench -- --suite learning -->';
export const LEARNING_END = '<!-- end of learning suite -->';

const CURVE_FILE = 'learning-curve.svg';
const SET_COLORS = ['#2563eb', '#ea580c', '#059669', '#7c3aed', '#db2777', '#0891b2'];
/** The hybrid line of a set: its keyword color, lighter. */
const LIGHTER: Record<string, string> = {
  '#2563eb': '#93c5fd',
  '#ea580c': '#fdba74',
  '#059669': '#6ee7b7',
  '#7c3aed': '#c4b5fd',
  '#db2777': '#f9a8d4',
  '#0891b2': '#67e8f9',
};

const gain = (row: LearningComparison): number =>
  row.learned.overall.metrics.ndcg10 - row.plain.overall.metrics.ndcg10;

const signed = (value: number): string =>
  Number.isFinite(value) ? `${value >= 0 ? '+' : '−'}${metric(Math.abs(value))}` : 'n/a';

/** The split of a comparison that gained least (NDCG@10), with its gain. */
export function worstSplit(row: LearningComparison): { label: string; gain: number; queries: number } | null {
  let worst: { label: string; gain: number; queries: number } | null = null;
  for (const split of row.plain.splits) {
    const learned = row.learned.splits.find((entry) => entry.label === split.label);
    if (learned === undefined) continue;
    const delta = learned.metrics.ndcg10 - split.metrics.ndcg10;
    if (worst === null || delta < worst.gain)
      worst = { label: split.label, gain: delta, queries: split.queries };
  }
  return worst;
}

const curveLabel = (uses: number, total: number): string =>
  uses === 0 ? 'none' : uses === total ? 'all' : integer(uses);

/** The curve's x values: none, each planned count, all. */
function curveColumns(result: LearningSuiteResult): string[] {
  return ['none', ...result.plan.curve.map(integer), 'all'];
}

/** NDCG@10 against recorded uses, one line per set and ranker. */
export function learningCharts(result: LearningSuiteResult | null): Chart[] {
  if (result === null || result.curves.length === 0) return [];
  const columns = curveColumns(result);
  const setNames = [...new Set(result.curves.map((curve) => curve.set))];
  const series = result.curves.map((curve) => {
    const color = SET_COLORS[setNames.indexOf(curve.set) % SET_COLORS.length]!;
    return { name: `${curve.set}, ${curve.kind}`, color: curve.kind === 'keyword' ? color : LIGHTER[color]! };
  });
  const values = result.curves.map((curve) => {
    const total = curve.points.at(-1)?.uses ?? 0;
    return columns.map(
      (column) =>
        curve.points.find((point) => curveLabel(point.uses, total) === column)?.ndcg10 ?? Number.NaN,
    );
  });
  const title = 'NDCG@10 of the test half against the uses recorded from the traffic half';
  return [
    {
      file: CURVE_FILE,
      title,
      svg: lineChart({
        title,
        subtitle:
          'each set split by a hash of the query id; keyword ranker dark, hybrid light; higher is better',
        unit: 'NDCG@10',
        x: columns.map((column) => (column === 'none' || column === 'all' ? column : `${column} uses`)),
        series,
        values,
        height: 420,
        // From the tenth at or below the lowest point, so that gains of a few hundredths show.
        from: Math.floor(Math.min(1, ...values.flat().filter(Number.isFinite)) * 10) / 10,
      }),
    },
  ];
}

function goalsLine(result: LearningSuiteResult): string {
  const missed = result.comparisons.filter((row) => gain(row) < LEARNING_GOALS.ndcgGain);
  const worse = result.comparisons.filter((row) => (worstSplit(row)?.gain ?? 0) < 0);
  const slow = result.cost.filter(
    (row) => row.learnedMedianMs > row.plainMedianMs * LEARNING_GOALS.costRatio,
  );
  const list = (rows: readonly { set: string; kind: string }[]) =>
    rows.map((row) => `${row.set} (${row.kind})`).join(', ');
  // Where even the ceiling is short of the goal, no learning from these uses could meet it.
  const unreachable = result.comparisons.filter(
    (row) =>
      row.ceiling !== undefined && row.ceiling - row.plain.overall.metrics.ndcg10 < LEARNING_GOALS.ndcgGain,
  );
  return [
    missed.length === 0
      ? `**+${metric(LEARNING_GOALS.ndcgGain)} NDCG@10 on every test half: met.**`
      : `**+${metric(LEARNING_GOALS.ndcgGain)} NDCG@10 on every test half: missed** on ${list(missed)}` +
        (unreachable.length === 0
          ? '.'
          : ` (out of reach on ${list(unreachable)}: the ceiling is less than +${metric(LEARNING_GOALS.ndcgGain)} above the plain ranker).`),
    worse.length === 0 ? '**No split worse: met.**' : `**No split worse: missed** on ${list(worse)}.`,
    slow.length === 0
      ? '**Search with learning within 10 % of a plain search (median): met.**'
      : `**Search with learning within 10 % of a plain search (median): missed** on ${list(slow)}.`,
  ].join(' ');
}

/** The report's section on learning from use (empty when the suite did not run). */
export function learningSection(
  result: LearningSuiteResult | null,
  charts: ReadonlyMap<string, Chart>,
  chartDir: string,
): string[] {
  if (result === null || result.comparisons.length === 0) return [];
  const chart = charts.get(CURVE_FILE);
  const subsampled = result.plan.maxQueries !== undefined;
  const heldSets = result.heldApart.filter((row) => row.kind === result.plan.kinds[0]);
  const heldCount = heldSets.reduce((sum, row) => sum + row.plain.overall.queries, 0);
  const lines = [
    LEARNING_START,
    '## Learning from use',
    '',
    "The protocol of issue 55. Each set's queries are split by a hash of their id (the top bit of its FNV-1a hash, mixed by murmur3’s finaliser) into a **traffic** half and a **test** half. " +
      'Each traffic query is recorded as a use of each of its relevant tools, from a conversation of its own (as an app seeding the engine from its logs would, with `recordUse`), in an order fixed by a hash of the id. ' +
      'The test half is then ranked (top 10) by the plain ranker and by the learning ranker with those uses recorded, for the keyword ranker and the hybrid one (the offline word vectors). ' +
      '**Ceiling**: the NDCG@10 of the plain ranking with each test query’s relevant tools that have a traffic use moved to the top, the rest unchanged. Learning can do no better: a tool without uses gets no evidence, and evidence never lowers a score. ' +
      (subsampled
        ? `_Each half is subsampled to ${integer(result.plan.maxQueries!)} queries in this run: not the published figures._ `
        : '') +
      'Run alone with `pnpm bench -- --suite learning`.',
    '',
    goalsLine(result),
    '',
    table(
      [
        'set',
        'ranker',
        'tools',
        'traffic queries',
        'uses recorded',
        'test queries',
        'NDCG@10 without',
        'with',
        'gain',
        'ceiling',
        'split that gained least',
      ],
      result.comparisons.map((row) => {
        const info = result.sets.find((set) => set.name === row.set);
        const worst = worstSplit(row);
        return [
          row.set,
          row.kind,
          integer(info?.tools ?? Number.NaN),
          integer(info?.traffic ?? Number.NaN),
          `${integer(row.uses)} (${integer(row.recorded)})`,
          integer(row.plain.overall.queries),
          metric(row.plain.overall.metrics.ndcg10),
          metric(row.learned.overall.metrics.ndcg10),
          signed(gain(row)),
          row.ceiling === undefined ? '—' : metric(row.ceiling),
          worst ? `${worst.label} (${integer(worst.queries)}): ${signed(worst.gain)}` : '—',
        ];
      }),
      'llrrrrrrrrl',
    ),
    '',
    ...(chart ? [`![${chart.title}](${chartDir}/${chart.file})`, ''] : []),
    'NDCG@10 of the test half after the first N uses (none: the learning ranker with nothing recorded, which must rank as the plain one does):',
    '',
    table(
      ['set', 'ranker', ...curveColumns(result)],
      result.curves.map((curve) => {
        const total = curve.points.at(-1)?.uses ?? 0;
        return [
          curve.set,
          curve.kind,
          ...curveColumns(result).map((column) => {
            const point = curve.points.find((entry) => curveLabel(entry.uses, total) === column);
            return point ? metric(point.ndcg10) : '—';
          }),
        ];
      }),
      `ll${'r'.repeat(curveColumns(result).length)}`,
    ),
    '',
    "**Cost on the hot path.** The same test-half searches (topK 5) on the plain ranker and on the learning ranker with every traffic use recorded, interleaved one by one so that both meet the same load, in this run; then as many `search_tools` calls of an engine over each (the learning one with the engine's `learning` option), as an adapter makes them. The goal is on the ranker's own search, the stricter of the two:",
    '',
    table(
      [
        'set',
        'ranker',
        'searches',
        'plain, median',
        'learning, median',
        'ratio',
        'engine search_tools, plain',
        'learning',
        'ratio',
      ],
      result.cost.map((row) => [
        row.set,
        row.kind,
        integer(row.searches),
        ms(row.plainMedianMs),
        ms(row.learnedMedianMs),
        ratio(row.learnedMedianMs / row.plainMedianMs),
        ms(row.enginePlainMedianMs),
        ms(row.engineLearnedMedianMs),
        ratio(row.engineLearnedMedianMs / row.enginePlainMedianMs),
      ]),
      'llrrrrrrr',
    ),
    '',
  ];
  if (result.heldApart.length > 0) {
    const byKind = result.plan.kinds.map((kind) => {
      const rows = result.heldApart.filter((row) => row.kind === kind);
      const count = rows.reduce((sum, row) => sum + row.plain.overall.queries, 0);
      const mean = (pick: (row: LearningComparison) => number) =>
        rows.reduce((sum, row) => sum + pick(row) * row.plain.overall.queries, 0) / Math.max(1, count);
      return {
        kind,
        plain: mean((row) => row.plain.overall.metrics.ndcg10),
        learned: mean((row) => row.learned.overall.metrics.ndcg10),
      };
    });
    lines.push(
      `**Requests written apart from the sets.** ${integer(heldCount)} paraphrased requests (\`packages/bench/src/__fixtures__/held-apart/requests.jsonl\`), each naming the tools of one set's catalog that answer it, written from the tools' purpose in other words than the sets use; scored on that set's catalog with **every** public query of the set recorded as traffic. A gain here is learning that generalises beyond the four sets; a loss would be learning that only fits them.`,
      '',
      table(
        ['set', 'ranker', 'requests', 'uses recorded (accepted)', 'NDCG@10 without', 'with', 'gain'],
        [
          ...result.heldApart.map((row) => [
            row.set,
            row.kind,
            integer(row.plain.overall.queries),
            `${integer(row.uses)} (${integer(row.recorded)})`,
            metric(row.plain.overall.metrics.ndcg10),
            metric(row.learned.overall.metrics.ndcg10),
            signed(gain(row)),
          ]),
          ...byKind.map((row) => [
            '**all**',
            row.kind,
            integer(heldCount),
            '',
            metric(row.plain),
            metric(row.learned),
            signed(row.learned - row.plain),
          ]),
        ],
        'llrrrrr',
      ),
      '',
    );
  }
  lines.push(
    'Every metric of the test halves, per split:',
    '',
    formatQualityTable(
      result.comparisons.flatMap((row) => [row.plain, row.learned]),
      { splits: true },
    ),
    '',
    LEARNING_END,
    '',
  );
  return lines;
}

/**
 * `markdown` with its learning section replaced by `section` (or, when it has none, `section`
 * put before its "Where a peer wins" or "Reproduce" heading, else at the end).
 */
export function spliceLearningSection(markdown: string, section: string): string {
  const start = markdown.indexOf(LEARNING_START);
  const end = markdown.indexOf(LEARNING_END);
  const body = section.trimEnd();
  if (start !== -1 && end > start) {
    return `${markdown.slice(0, start)}${body}${markdown.slice(end + LEARNING_END.length)}`;
  }
  for (const heading of ['\n## Where a peer wins', '\n## Reproduce']) {
    const at = markdown.indexOf(heading);
    if (at !== -1) return `${markdown.slice(0, at + 1)}${body}\n\n${markdown.slice(at + 1)}`;
  }
  return `${markdown.trimEnd()}\n\n${body}\n`;
}
