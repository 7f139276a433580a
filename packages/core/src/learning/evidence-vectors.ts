// Owns the hybrid ranker's vectors of evidence (Tool2Vec's idea, written for this engine): per
// tool, the sum of the unit vectors of the requests it served, so that a request is compared
// with the mean of a tool's past requests as with the tool's own vector.
import { isPromiseLike } from '../engine/promise-like';
import type { MaybePromise } from '../types';
import type { LearningInternals } from './learning';

/** Use ids remembered, at most (a use told twice, on reload, is counted once). */
const MAX_REMEMBERED_IDS = 100_000;

export interface EvidenceVectors {
  /** The cosine of a request's unit vector with the mean of a tool's past requests (undefined: none). */
  similarity(toolName: string, query: Float32Array): number | undefined;
  /** Stops taking uses in. */
  dispose(): void;
}

export function createEvidenceVectors(
  learning: LearningInternals,
  embedQueries: (texts: readonly string[]) => MaybePromise<Float32Array[]>,
  report: (error: unknown) => void,
): EvidenceVectors {
  const sums = new Map<string, { sum: Float64Array; norm: number }>();
  const seen = new Set<string>();
  const add = (toolName: string, vector: Float32Array | undefined) => {
    if (vector === undefined) return;
    let entry = sums.get(toolName);
    if (entry === undefined || entry.sum.length !== vector.length) {
      entry = { sum: new Float64Array(vector.length), norm: 0 };
      sums.set(toolName, entry);
    }
    let squares = 0;
    for (let dimension = 0; dimension < vector.length; dimension++) {
      entry.sum[dimension]! += vector[dimension]!;
      squares += entry.sum[dimension]! ** 2;
    }
    entry.norm = Math.sqrt(squares);
  };
  const unsubscribe = learning.onUse((use) => {
    if (seen.has(use.id)) return;
    seen.add(use.id);
    if (seen.size > MAX_REMEMBERED_IDS) seen.delete(seen.values().next().value!);
    try {
      const vectors = embedQueries([use.query]);
      if (isPromiseLike(vectors)) {
        vectors.then((ready) => add(use.toolName, ready[0]), report);
      } else add(use.toolName, vectors[0]);
    } catch (error) {
      report(error);
    }
  });
  return {
    similarity(toolName, query) {
      const entry = sums.get(toolName);
      if (entry === undefined || entry.norm === 0 || entry.sum.length !== query.length) return undefined;
      let dot = 0;
      for (let dimension = 0; dimension < query.length; dimension++)
        dot += entry.sum[dimension]! * query[dimension]!;
      return dot / entry.norm;
    },
    dispose: unsubscribe,
  };
}
