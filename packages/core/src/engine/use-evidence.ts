// Owns a request's evidence of use (with the engine's `learning`): the searches it makes, kept
// with its thread's latest searches, and the recording of a found tool's successful call as
// evidence, once per search and tool. A request without a thread counts as its own thread: its
// searches and caps are its own.
import type { LearningInternals } from '../learning/learning';
import type { ToolSearchEvent } from '../types';
import { DEFAULT_THREAD_ID } from './engine-settings';
import { createThreadSearches, type ThreadSearches } from './thread-searches';

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
  /** The engine's memory of each thread's latest searches. */
  readonly threadSearches: ThreadSearches;
}): UseEvidence {
  const { threadId, learning } = options;
  // Requests without a thread share the 'default' one, but they are not one conversation: each
  // counts as its own thread, for the searches a call is matched with and for the caps, so that
  // one app's threadless requests do not use up a cap for all of them.
  const threadless = threadId === DEFAULT_THREAD_ID;
  const searches = threadless ? createThreadSearches({ maxThreads: 1 }) : options.threadSearches;
  let ownThread: string | undefined;
  return {
    observe(event) {
      if (event.type !== 'search') return;
      searches.remember(
        threadId,
        event.query,
        event.results.map((result) => result.name),
      );
    },
    succeeded(canonicalName) {
      const query = searches.take(threadId, canonicalName);
      if (query === undefined) return false;
      if (!threadless) return learning.record({ query, toolName: canonicalName, threadId }, 'call').recorded;
      ownThread ??= requestKey();
      return learning.record({ query, toolName: canonicalName }, 'call', ownThread).recorded;
    },
  };
}
