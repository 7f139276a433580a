// Owns how one request loads tools, for load_tool and for search_tools under autoLoad alike:
// after the thread's loads under way, it decides what is new, writes it (with the evictions of
// maxLoadedTools), notes when, and reports the `load` event, then the `evict` event.
import { ToolSearchError } from '../errors';
import type { Clock, ToolSearchEvent } from '../types';
import type { LoadQueue } from './load-queue';
import { isPromiseLike } from './promise-like';
import type { RequestLoadState } from './request-load-state';

export type LoadOutcome =
  | { ok: true; loaded: string[]; alreadyLoaded: string[]; evicted: string[] }
  | { ok: false; error: ToolSearchError; mayHaveLoaded: readonly string[] };

/** How a load is reported: whether a search made it, and the names it did not find. */
export interface LoadReport {
  readonly auto: boolean;
  readonly notFound: readonly string[];
}

/**
 * Loads canonical names already found and allowed (nothing once `signal` has aborted), after
 * the thread's loads already under way in this process, and reports it: a `load` event, then
 * an `evict` event for the names it evicted.
 */
export type LoadCanonical = (
  names: readonly string[],
  signal: AbortSignal | undefined,
  report: LoadReport,
) => Promise<LoadOutcome>;

export interface ToolLoadingOptions {
  readonly threadId: string;
  readonly inLoadQueue: LoadQueue;
  readonly loadState: Pick<
    RequestLoadState,
    'currentLoadedNames' | 'load' | 'nextMoment' | 'noteLoaded' | 'noteUncertain'
  >;
  /** The request's always-on tools: already available, never loaded, and taking no slot. */
  readonly alwaysOnNames: ReadonlySet<string>;
  readonly clock: Clock;
  readonly emit: (event: ToolSearchEvent) => void;
}

export function createToolLoading(options: ToolLoadingOptions): LoadCanonical {
  const { threadId, inLoadQueue, loadState, alwaysOnNames, clock, emit } = options;

  async function loadNow(
    names: readonly string[],
    signal: AbortSignal | undefined,
    report: LoadReport,
  ): Promise<LoadOutcome> {
    signal?.throwIfAborted();
    let current: string[];
    try {
      current = await loadState.currentLoadedNames();
    } catch (error) {
      return { ok: false, error: error as ToolSearchError, mayHaveLoaded: [] };
    }
    signal?.throwIfAborted();
    const present = new Set([...current, ...alwaysOnNames]);
    const loaded: string[] = [];
    const alreadyLoaded: string[] = [];
    for (const name of names) {
      if (present.has(name)) alreadyLoaded.push(name);
      else if (!loaded.includes(name)) loaded.push(name);
    }
    // Every name asked for counts as used (always-on tools take no slot): the new ones, then
    // those already loaded, in the order a 'context' replay of this result will use.
    const used = [...loaded, ...alreadyLoaded.filter((name) => !alwaysOnNames.has(name))];
    // Only a store's write is awaited (and may fail); a 'context' load is applied at once.
    const written = loadState.load(loaded, used);
    let evicted: string[];
    try {
      evicted = isPromiseLike(written) ? await written : written;
    } catch (error) {
      // A write that timed out may still land: its outcome is unknown. Any other failure
      // (the store refused before writing) wrote nothing.
      const timedOut = ToolSearchError.isInstance(error) && error.code === 'STORE_TIMEOUT';
      if (timedOut) loadState.noteUncertain(loaded, loadState.nextMoment());
      return { ok: false, error: error as ToolSearchError, mayHaveLoaded: timedOut ? loaded : [] };
    }
    loadState.noteLoaded(loaded, loadState.nextMoment());
    // Reported here, before the next load of the thread starts: a name's load comes before its eviction.
    emit({
      type: 'load',
      threadId,
      time: clock.now(),
      loaded,
      alreadyLoaded,
      notFound: [...report.notFound],
      auto: report.auto,
    });
    if (evicted.length > 0)
      emit({ type: 'evict', threadId, time: clock.now(), toolNames: evicted, reason: 'max-loaded-tools' });
    return { ok: true, loaded, alreadyLoaded, evicted };
  }

  return (names, signal, report) => inLoadQueue(threadId, () => loadNow(names, signal, report));
}
