// Owns a request's evidence of use (with the engine's `learning`): the queries of its searches by
// the tools they found, and the recording of a found tool's successful call as evidence, once per
// request and tool (a request without a thread counts as its own thread).
import type { LearningInternals } from '../learning/learning';
import type { ToolSearchEvent } from '../types';
import { DEFAULT_THREAD_ID } from './engine-settings';

/** Searches remembered per request, at most (each with at most topK tools). */
const MAX_REMEMBERED_FINDS = 1_000;

export interface UseEvidence {
  /** Watches the request's events: a `search` event's results are the tools it found. */
  observe(event: ToolSearchEvent): void;
  /** A call of this (canonical) tool succeeded: records the use when a search found it. */
  succeeded(canonicalName: string): boolean;
}

/** A key for one request without a thread: random, so no two requests share one. */
function requestKey(): string {
  const random = new Uint32Array(4);
  globalThis.crypto.getRandomValues(random);
  return Array.from(random, (part) => part.toString(36)).join('-');
}

export function createUseEvidence(options: {
  readonly threadId: string;
  readonly learning: LearningInternals;
}): UseEvidence {
  const { threadId, learning } = options;
  // Requests without a thread share the 'default' one, but they are not one conversation: each
  // counts as its own thread for the caps (it already records once per tool), so that one
  // app's threadless requests do not use up a cap for all of them.
  const threadless = threadId === DEFAULT_THREAD_ID;
  let ownThread: string | undefined;
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
      if (!threadless) return learning.record({ query, toolName: canonicalName, threadId }, 'call').recorded;
      ownThread ??= requestKey();
      return learning.record({ query, toolName: canonicalName }, 'call', ownThread).recorded;
    },
  };
}
