/** Retrieval metrics as /work/shared/eval/README.md defines them (binary relevance). */
export interface QueryMetrics {
  /** Share of the relevant tools in the top 1 / 5 / 10. */
  readonly r1: number;
  readonly r5: number;
  readonly r10: number;
  /** 1 / rank of the first relevant tool within the top 10, else 0. */
  readonly mrr10: number;
  /** NDCG@10 with binary gains; the ideal ranks min(|relevant|, 10) relevant tools first. */
  readonly ndcg10: number;
  /** 1 when every relevant tool is in the top 5. */
  readonly comp5: number;
}

export const METRIC_NAMES = ['r1', 'r5', 'r10', 'mrr10', 'ndcg10', 'comp5'] as const;

export const METRIC_LABELS: Record<keyof QueryMetrics, string> = {
  r1: 'R@1',
  r5: 'R@5',
  r10: 'R@10',
  mrr10: 'MRR@10',
  ndcg10: 'NDCG@10',
  comp5: 'Comp@5',
};

/** Metrics of one ranked list (best first) against the relevant names. */
export function scoreQuery(ranked: readonly string[], relevant: readonly string[]): QueryMetrics {
  const wanted = new Set(relevant);
  if (wanted.size === 0) return { r1: 0, r5: 0, r10: 0, mrr10: 0, ndcg10: 0, comp5: 0 };
  const seen = new Set<string>();
  const hitsWithin = (k: number): number => {
    let hits = 0;
    seen.clear();
    for (const name of ranked.slice(0, k)) {
      if (wanted.has(name) && !seen.has(name)) hits++;
      seen.add(name);
    }
    return hits;
  };
  let mrr10 = 0;
  let dcg = 0;
  seen.clear();
  ranked.slice(0, 10).forEach((name, position) => {
    if (!wanted.has(name) || seen.has(name)) return;
    seen.add(name);
    if (mrr10 === 0) mrr10 = 1 / (position + 1);
    dcg += 1 / Math.log2(position + 2);
  });
  let ideal = 0;
  for (let position = 0; position < Math.min(wanted.size, 10); position++)
    ideal += 1 / Math.log2(position + 2);
  const hits5 = hitsWithin(5);
  return {
    r1: hitsWithin(1) / wanted.size,
    r5: hits5 / wanted.size,
    r10: hitsWithin(10) / wanted.size,
    mrr10,
    ndcg10: dcg / ideal,
    comp5: hits5 === wanted.size ? 1 : 0,
  };
}

/** The average of each metric (zeros for an empty list). */
export function meanMetrics(list: readonly QueryMetrics[]): QueryMetrics {
  const mean = (key: keyof QueryMetrics): number =>
    list.length === 0 ? 0 : list.reduce((sum, metrics) => sum + metrics[key], 0) / list.length;
  return {
    r1: mean('r1'),
    r5: mean('r5'),
    r10: mean('r10'),
    mrr10: mean('mrr10'),
    ndcg10: mean('ndcg10'),
    comp5: mean('comp5'),
  };
}
