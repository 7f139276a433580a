// Owns the engine's load-state store and every call to it: which store the storage option names,
// each call bounded by storeTimeoutMs, failures typed (STORE_UNAVAILABLE, STORE_TIMEOUT) and
// reported as `store-error` events, answers checked; reading a thread's names capped to
// maxLoadedTools, and adding names with the evictions the cap asks for.
import { failAfter } from '../clock';
import { ToolSearchError } from '../errors';
import { capLoadedNames } from '../loaded-tools-cap';
import { createMemoryStore } from '../memory-store';
import type {
  Clock,
  LoadStateStore,
  MaybePromise,
  StoreStats,
  ToolSearchEngineOptions,
  ToolSearchEvent,
} from '../types';
import { isPromiseLike } from './promise-like';
import type { ThreadMemory } from './thread-memory';

/** Thread id used in events that concern no single thread (clearAllState, sweep errors). */
export const ALL_THREADS = '*';

/** The engine's calls to its store ('context' storage has none). */
export interface StoreCalls {
  /** The thread's names in the store, capped to maxLoadedTools. */
  read(threadId: string): Promise<string[]>;
  /**
   * Adds names, marks `used` (the added names and those asked for again) as used, and applies
   * maxLoadedTools; returns the names it evicted (the caller reports them).
   */
  add(threadId: string, names: readonly string[], used: readonly string[]): Promise<string[]>;
  delete(threadId: string): MaybePromise<void>;
  /** Throws INVALID_OPTIONS for a store without `clear` (before clearAllState forgets anything). */
  checkClearable(): void;
  /** Forgets every thread (after {@link StoreCalls.checkClearable}). */
  clear(): MaybePromise<void>;
  stats(): MaybePromise<StoreStats>;
  sweep(): MaybePromise<number>;
  /** Disposes of the store if the engine made it (the in-memory store), not of one it was given. */
  dispose(): MaybePromise<void> | undefined;
}

export interface StoreCallsOptions {
  readonly storage: ToolSearchEngineOptions['storage'];
  readonly ttl: number | undefined;
  readonly maxThreads: number | undefined;
  readonly maxLoadedTools: number | undefined;
  readonly storeTimeoutMs: number;
  readonly clock: Clock;
  readonly memory: ThreadMemory;
  readonly emit: (event: ToolSearchEvent) => void;
}

/** The store the storage option names, and the calls to it; undefined for 'context' storage. */
export function createStoreCalls(options: StoreCallsOptions): StoreCalls | undefined {
  const { maxLoadedTools, storeTimeoutMs, clock, memory, emit } = options;
  const opened = openStore(options);
  if (opened === undefined) return undefined;
  const { store, ownsStore } = opened;

  function storeFailure(operation: string, threadId: string, error: unknown): ToolSearchError {
    const failure = ToolSearchError.isInstance(error)
      ? error
      : new ToolSearchError('STORE_UNAVAILABLE', `The load-state store failed during ${operation}.`, {
          cause: error,
        });
    emit({ type: 'store-error', threadId, time: clock.now(), operation, error: failure });
    return failure;
  }

  function callStore<T>(operation: string, threadId: string, run: () => MaybePromise<T>): MaybePromise<T> {
    let value: MaybePromise<T>;
    try {
      value = run();
    } catch (error) {
      throw storeFailure(operation, threadId, error);
    }
    if (!isPromiseLike(value)) return value;
    return failAfter(
      value,
      storeTimeoutMs,
      clock,
      'STORE_TIMEOUT',
      `The load-state store did not answer ${operation} within ${storeTimeoutMs} ms.`,
    ).catch((error: unknown) => {
      throw storeFailure(operation, threadId, error);
    });
  }

  const sanitizeNames = (value: unknown, operation: string): string[] => {
    if (!Array.isArray(value)) {
      throw new ToolSearchError(
        'STORE_UNAVAILABLE',
        `The load-state store returned ${typeof value} from ${operation}, not an array of names.`,
      );
    }
    return value.filter((name): name is string => typeof name === 'string');
  };

  async function storeGet(threadId: string): Promise<string[]> {
    const names = await callStore('get', threadId, () => store.get(threadId));
    try {
      return sanitizeNames(names, 'get');
    } catch (error) {
      throw storeFailure('get', threadId, error);
    }
  }

  /**
   * Adds names, marks `used` (the added names and those asked for again) as used, and
   * applies maxLoadedTools (least recently used first); returns the names it evicted (the
   * caller reports them, after the load that evicted them).
   *
   * The store removes the names past the cap, least recently used first, with `keep:
   * maxLoadedTools`: it stops once the thread holds the cap. Another process evicting from the
   * thread at the same moment (each from what its own add answered) may already have brought it
   * down to the cap; the names this remove then leaves stay loaded, and only the names absent from
   * its answer count as evicted. (A store that ignores `keep` removes every name asked, as before.)
   */
  async function storeAdd(
    threadId: string,
    names: readonly string[],
    used: readonly string[],
  ): Promise<string[]> {
    const issuedAt = memory.tick();
    const added = await callStore('add', threadId, () => store.add(threadId, names));
    let after: string[];
    try {
      after = sanitizeNames(added, 'add');
    } catch (error) {
      throw storeFailure('add', threadId, error);
    }
    memory.noteReloaded(threadId, names);
    if (maxLoadedTools === undefined) return [];
    // Marked only once the names are in the store, so that a concurrent read cannot prune them first.
    const uses = memory.observe(threadId, after, issuedAt);
    memory.noteUse(threadId, used);
    if (after.length <= maxLoadedTools) return [];
    const { evicted: candidates, evictionOrder } = capLoadedNames(
      after,
      (name) => uses.get(name)?.used,
      maxLoadedTools,
    );
    let left: Set<string>;
    try {
      // Every store here has remove: createStoreCalls refuses a store without it under maxLoadedTools.
      const answer = await callStore('remove', threadId, () =>
        store.remove!(threadId, evictionOrder, { keep: maxLoadedTools }),
      );
      // A store of before `keep` may answer nothing: every name asked went, as it was then read.
      if (answer === undefined) left = new Set();
      else {
        try {
          left = new Set(sanitizeNames(answer, 'remove'));
        } catch (error) {
          throw storeFailure('remove', threadId, error);
        }
      }
    } catch {
      // The names were added, so they are loaded: a failed eviction (reported as a store-error)
      // does not undo that, nor make the load fail. Reads show the thread capped all the same, and
      // the next load evicts again.
      return [];
    }
    // In load order; a name the store kept (the thread was at the cap already) stays loaded.
    const evicted = candidates.filter((name) => !left.has(name));
    for (const name of evicted) uses.delete(name);
    memory.noteUnloaded(threadId, evicted);
    return evicted;
  }

  /** Validates what a store answered, keeping a synchronous answer synchronous. */
  function checked<T, R>(
    operation: string,
    value: MaybePromise<T>,
    validate: (value: T) => R | undefined,
  ): MaybePromise<R> {
    const apply = (result: T): R => {
      const valid = validate(result);
      if (valid === undefined) {
        throw storeFailure(
          operation,
          ALL_THREADS,
          new ToolSearchError(
            'STORE_UNAVAILABLE',
            `The load-state store returned an invalid answer to ${operation}.`,
          ),
        );
      }
      return valid;
    };
    return isPromiseLike(value) ? value.then(apply) : apply(value);
  }

  return {
    async read(threadId) {
      const issuedAt = memory.tick();
      return memory.capHeld(threadId, await storeGet(threadId), issuedAt);
    },
    add: storeAdd,
    delete: (threadId) => callStore('delete', threadId, () => store.delete(threadId)),
    checkClearable() {
      if (typeof store.clear !== 'function') {
        // Said to forget every thread, it would forget none: a caller resetting state (a test, a
        // tenant's data removal) must know.
        throw new ToolSearchError(
          'INVALID_OPTIONS',
          'clearAllState: the load-state store has no clear() method, so no thread was forgotten. Give the store a clear(), or forget threads one by one with clearState(threadId).',
        );
      }
    },
    clear() {
      return callStore('clear', ALL_THREADS, () => store.clear!());
    },
    stats() {
      if (!store.stats) return { threadCount: 0, oldestAccessTime: null };
      return checked(
        'stats',
        callStore('stats', ALL_THREADS, () => store.stats!()),
        (stats) => {
          const valid =
            typeof stats === 'object' &&
            stats !== null &&
            typeof stats.threadCount === 'number' &&
            (stats.oldestAccessTime === null || typeof stats.oldestAccessTime === 'number');
          return valid
            ? { threadCount: stats.threadCount, oldestAccessTime: stats.oldestAccessTime }
            : undefined;
        },
      );
    },
    sweep() {
      if (!store.sweep) return 0;
      return checked(
        'sweep',
        callStore('sweep', ALL_THREADS, () => store.sweep!()),
        (removed) => (typeof removed === 'number' && removed >= 0 ? removed : undefined),
      );
    },
    dispose() {
      if (ownsStore && store.dispose) return store.dispose();
      return undefined;
    },
  };
}

/** The store the storage option names (the engine's own in-memory store, or the one given); undefined for 'context'. */
function openStore(options: StoreCallsOptions): { store: LoadStateStore; ownsStore: boolean } | undefined {
  const { maxLoadedTools, clock, memory, emit } = options;
  const storage = options.storage ?? 'in-memory';
  if (storage === 'in-memory') {
    const store = createMemoryStore({
      ttl: options.ttl,
      maxThreads: options.maxThreads,
      clock,
      onEvict: (threadId, toolNames, reason) => {
        memory.forgetUses(threadId);
        // Expired or dropped, the thread's tools were loaded and are gone; cleared means forgotten.
        if (reason !== 'cleared') memory.noteUnloaded(threadId, toolNames);
        emit({ type: 'evict', threadId, time: clock.now(), toolNames, reason });
      },
    });
    return { store, ownsStore: true };
  }
  if (storage === 'context') return undefined;
  if (
    typeof storage === 'object' &&
    storage !== null &&
    typeof storage.get === 'function' &&
    typeof storage.add === 'function' &&
    typeof storage.delete === 'function'
  ) {
    if (maxLoadedTools !== undefined && typeof storage.remove !== 'function') {
      // Without an atomic remove, evicting means rewriting the thread (delete, then add the
      // rest): a load made meanwhile is lost, and a read in between sees nothing loaded.
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        'maxLoadedTools needs a store with a remove method (to evict single names atomically); this store has none.',
      );
    }
    return { store: storage, ownsStore: false };
  }
  throw new ToolSearchError(
    'INVALID_OPTIONS',
    "storage must be 'in-memory', 'context' or a store with get, add and delete methods.",
  );
}
