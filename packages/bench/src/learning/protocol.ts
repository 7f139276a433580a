/**
 * The learning protocol's fixed parts: which half of a set each query falls in, and the uses a
 * query stands for. Nothing here looks at a query's words: the split is a hash of its id only.
 */
import { hash } from '../datasets';
import type { EvalQuery } from '../quality/eval-data';

/** One recorded use: a request, the tool it was answered with, and the conversation it came from. */
export interface RecordedUse {
  readonly query: string;
  readonly toolName: string;
  readonly threadId: string;
}

export type Half = 'traffic' | 'test';

/**
 * The id's FNV-1a hash through murmur3's finaliser: FNV-1a alone mixes its last characters
 * poorly (its low bit is a parity of the characters, and ids like `x-1`, `x-2` share its top
 * bits), so every bit here depends on every character.
 */
function mixedHash(id: string): number {
  let value = hash(id);
  value = Math.imul(value ^ (value >>> 16), 0x85ebca6b);
  value = Math.imul(value ^ (value >>> 13), 0xc2b2ae35);
  return (value ^ (value >>> 16)) >>> 0;
}

/** The half a query id falls in: the top bit of its mixed hash. */
export const halfOf = (id: string): Half => (mixedHash(id) >>> 31 === 0 ? 'traffic' : 'test');

/** A set's queries split in two by `halfOf`, each half in the file's order. */
export function splitHalves<T extends { readonly id: string }>(
  queries: readonly T[],
): { traffic: T[]; test: T[] } {
  const traffic: T[] = [];
  const test: T[] = [];
  for (const query of queries) (halfOf(query.id) === 'traffic' ? traffic : test).push(query);
  return { traffic, test };
}

/**
 * The uses the traffic stands for: each query recorded as a use of each of its relevant tools,
 * each query in a conversation of its own (its id), in an order fixed by a hash of the id, so
 * that the first N uses (the learning curve's points) are a fair sample of the traffic, the same
 * on every run.
 */
export function usesOf(queries: readonly EvalQuery[]): RecordedUse[] {
  const ordered = [...queries].sort(
    (left, right) =>
      mixedHash(`use:${left.id}`) - mixedHash(`use:${right.id}`) ||
      (left.id < right.id ? -1 : left.id > right.id ? 1 : 0),
  );
  return ordered.flatMap((query) =>
    query.relevant.map((toolName) => ({ query: query.query, toolName, threadId: query.id })),
  );
}

/** The learning curve's points for `total` uses: each planned count below it, then `total` ("all"). */
export function curvePoints(planned: readonly number[], total: number): number[] {
  const points = [0, ...planned.filter((count) => count > 0 && count < total), total];
  return [...new Set(points)].sort((left, right) => left - right);
}
