import path from 'node:path';
import { defaultEvalRoot, EVAL_SET_NAMES, type EvalSet, splitOf } from './quality/eval-data';
import { readEvalSet } from './quality/read-eval-set';

/** Where a catalog and its queries are read from: two JSON-lines files in the eval format. */
export interface DatasetSource {
  readonly name: string;
  readonly toolsFile: string;
  readonly queriesFile: string;
}

/** The sets of `../shared/eval` (or `$TOOL_SEARCH_EVAL_DIR`). */
export function evalSources(root: string = defaultEvalRoot()): DatasetSource[] {
  return EVAL_SET_NAMES.map((name) => ({
    name,
    toolsFile: path.join(root, name, 'tools.jsonl'),
    queriesFile: path.join(root, name, 'queries.jsonl'),
  }));
}

/** A user's own catalog (`--tools FILE --queries FILE`), named after the tools file. */
export function ownSource(toolsFile: string, queriesFile: string): DatasetSource {
  return {
    name: path.basename(toolsFile).replace(/\.jsonl?$/, '') || 'catalog',
    toolsFile: path.resolve(toolsFile),
    queriesFile: path.resolve(queriesFile),
  };
}

/** Reads and checks a dataset (see `readEvalSet`); with `queryIds`, only those queries (in the file's order). */
export async function loadDataset(source: DatasetSource, queryIds?: readonly string[]): Promise<EvalSet> {
  const set = await readEvalSet(source.name, source.toolsFile, source.queriesFile);
  if (queryIds === undefined) return set;
  const wanted = new Set(queryIds);
  return { ...set, queries: set.queries.filter((query) => wanted.has(query.id)) };
}

/** FNV-1a, for an order of ids that is stable across runs and machines. */
export function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/**
 * `limit` queries, deterministically: each split keeps its share (the largest remainders
 * rounded up, so the shares add up to `limit`), chosen by a hash of the id, then returned in
 * the original order. A split whose share is under one still keeps one query, so only a set
 * with more splits than `limit` gets more than `limit`.
 */
export function subsample<T extends { readonly id: string }>(queries: readonly T[], limit: number): T[] {
  if (queries.length <= limit) return [...queries];
  const bySplit = new Map<string, T[]>();
  for (const query of queries) {
    const split = splitOf(query.id);
    const list = bySplit.get(split) ?? [];
    if (list.length === 0) bySplit.set(split, list);
    list.push(query);
  }
  const lists = [...bySplit.values()];
  const quotas = lists.map((list) => (list.length / queries.length) * limit);
  const shares = quotas.map((quota) => Math.max(1, Math.floor(quota)));
  let unassigned = limit - shares.reduce((sum, share) => sum + share, 0);
  // What is left goes to the splits that lost most to rounding down (ties: the earlier split).
  const byRemainder = lists
    .map((_, index) => index)
    .filter((index) => quotas[index]! >= 1)
    .sort((left, right) => (quotas[right]! % 1) - (quotas[left]! % 1) || left - right);
  for (const index of byRemainder) {
    if (unassigned <= 0) break;
    shares[index]!++;
    unassigned--;
  }
  const kept = new Set<T>();
  lists.forEach((list, index) => {
    const ordered = [...list].sort(
      (left, right) => hash(left.id) - hash(right.id) || (left.id < right.id ? -1 : 1),
    );
    for (const query of ordered.slice(0, shares[index])) kept.add(query);
  });
  return queries.filter((query) => kept.has(query));
}
