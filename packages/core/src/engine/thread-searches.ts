// Owns, with the engine's `learning`, this process's memory of each thread's latest searches: the
// query of each and the tools it found, so that a successful call in a later request of the same
// thread (the next model call, the next turn: LangChain and the AI SDK start a request per call)
// still counts as a use of the search that found its tool. Each search's query is recorded at
// most once per tool. Bounded: a few searches per thread, for the threads that searched last.

import { MAX_USE_QUERY_LENGTH } from '../learning/evidence';
import { cutText } from '../ranking/cut-text';

/** Searches remembered per thread (the latest). */
export const SEARCHES_PER_THREAD = 4;
/** Threads whose searches are remembered (those that searched last). */
export const MAX_SEARCHING_THREADS = 10_000;

interface RememberedSearch {
  readonly query: string;
  readonly found: ReadonlySet<string>;
  /** The tools whose call this search's query was recorded for. */
  readonly recorded: Set<string>;
}

export interface ThreadSearches {
  /** A search of the thread found these (canonical) tools. */
  remember(threadId: string, query: string, found: readonly string[]): void;
  /**
   * A call of the tool succeeded: the query of the thread's latest search that found it, marked
   * as recorded for the tool; undefined when no remembered search found it, or when the latest
   * that did was already recorded for it (a call repeated counts once per search).
   */
  take(threadId: string, toolName: string): string | undefined;
  /** Forgets a thread's searches (clearState), or every thread's. */
  forget(threadId?: string): void;
}

export function createThreadSearches(
  options: { readonly perThread?: number; readonly maxThreads?: number } = {},
): ThreadSearches {
  const perThread = options.perThread ?? SEARCHES_PER_THREAD;
  const maxThreads = options.maxThreads ?? MAX_SEARCHING_THREADS;
  /** Thread → its searches, oldest first; the map's order is the threads' last search. */
  const threads = new Map<string, RememberedSearch[]>();
  return {
    remember(threadId, query, found) {
      if (found.length === 0) return;
      const searches = threads.get(threadId) ?? [];
      threads.delete(threadId);
      threads.set(threadId, searches);
      searches.push({
        query: cutText(query, MAX_USE_QUERY_LENGTH),
        found: new Set(found),
        recorded: new Set(),
      });
      if (searches.length > perThread) searches.shift();
      if (threads.size > maxThreads) threads.delete(threads.keys().next().value!);
    },
    take(threadId, toolName) {
      const searches = threads.get(threadId);
      if (searches === undefined) return undefined;
      for (let position = searches.length - 1; position >= 0; position--) {
        const search = searches[position]!;
        if (!search.found.has(toolName)) continue;
        if (search.recorded.has(toolName)) return undefined;
        search.recorded.add(toolName);
        return search.query;
      }
      return undefined;
    },
    forget(threadId) {
      if (threadId === undefined) threads.clear();
      else threads.delete(threadId);
    },
  };
}
