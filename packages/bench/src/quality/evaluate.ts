import type { RankerFactory } from '@tool-search/core';
import type { EvalSet } from './eval-data';
import { splitOf } from './eval-data';
import { meanMetrics, type QueryMetrics, scoreQuery } from './metrics';

export interface MetricsRow {
  /** The set name, or the split name within a set. */
  readonly label: string;
  readonly queries: number;
  readonly metrics: QueryMetrics;
}

export interface EvalReport {
  readonly set: string;
  readonly ranker: string;
  readonly overall: MetricsRow;
  /** Per split (id prefix), in order of first appearance. */
  readonly splits: readonly MetricsRow[];
  /** Per query, for error analysis: id, split, metrics, the top 10 names. */
  readonly perQuery: readonly {
    id: string;
    split: string;
    metrics: QueryMetrics;
    ranked: readonly string[];
  }[];
  readonly buildMs: number;
  readonly queryMs: number;
}

/** Ranks every query of a set (top 10, minScore 0) and averages the metrics, overall and per split. */
export async function evaluateRanker(
  ranker: { name: string; factory: RankerFactory },
  set: EvalSet,
  now: () => number = () => performance.now(),
): Promise<EvalReport> {
  const buildStart = now();
  const instance = ranker.factory(set.tools);
  const buildMs = now() - buildStart;
  const perQuery: EvalReport['perQuery'][number][] = [];
  const queryStart = now();
  for (const query of set.queries) {
    const results = await instance.search(query.query, { topK: 10, minScore: 0 });
    const ranked = results.map((result) => result.name);
    perQuery.push({
      id: query.id,
      split: splitOf(query.id),
      metrics: scoreQuery(ranked, query.relevant),
      ranked,
    });
  }
  const queryMs = (now() - queryStart) / Math.max(1, set.queries.length);
  const bySplit = new Map<string, QueryMetrics[]>();
  for (const row of perQuery) {
    const list = bySplit.get(row.split) ?? [];
    list.push(row.metrics);
    bySplit.set(row.split, list);
  }
  return {
    set: set.name,
    ranker: ranker.name,
    overall: {
      label: set.name,
      queries: perQuery.length,
      metrics: meanMetrics(perQuery.map((row) => row.metrics)),
    },
    splits: [...bySplit].map(([label, list]) => ({
      label,
      queries: list.length,
      metrics: meanMetrics(list),
    })),
    perQuery,
    buildMs,
    queryMs,
  };
}
