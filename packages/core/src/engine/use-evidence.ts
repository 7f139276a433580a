// Owns a request's evidence of use (with the engine's `learning`): the queries of its searches by
// the tools they found, and the recording of a found tool's successful call as evidence, once per
// request and tool.
import type { LearningInternals } from '../learning/learning';
import type { ToolSearchEvent } from '../types';

/** Searches remembered per request, at most (each with at most topK tools). */
const MAX_REMEMBERED_FINDS = 1_000;

export interface UseEvidence {
  /** Watches the request's events: a `search` event's results are the tools it found. */
  observe(event: ToolSearchEvent): void;
  /** A call of this (canonical) tool succeeded: records the use when a search found it. */
  succeeded(canonicalName: string): boolean;
}

export function createUseEvidence(options: {
  readonly threadId: string;
  readonly learning: LearningInternals;
}): UseEvidence {
  const { threadId, learning } = options;
  /** Tool name → the query of the latest search of this request that found it. */
  const foundBy = new Map<string, string>();
  return {
    observe(event) {
      if (event.type !== 'search') return;
      for (const { name } of event.results) {
        foundBy.delete(name);
        foundBy.set(name, event.query);
        if (foundBy.size > MAX_REMEMBERED_FINDS) foundBy.delete(foundBy.keys().next().value!);
      }
    },
    succeeded(canonicalName) {
      const query = foundBy.get(canonicalName);
      if (query === undefined) return false;
      foundBy.delete(canonicalName);
      return learning.record({ query, toolName: canonicalName, threadId }, 'call').recorded;
    },
  };
}
