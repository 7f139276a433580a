import { clockOption } from './clock';
import { optionsObject, ToolSearchError } from './errors';
import { safeListener } from './listener';
import { checkOptionNames, type OptionNamesOf } from './option-names';
import type { Clock, LoadStateStore, StoreRemoveOptions, StoreStats } from './types';

export type MemoryStoreEvictReason = 'ttl' | 'max-threads' | 'cleared';

export interface MemoryStoreOptions {
  /** Milliseconds a thread lives after its last read or add (default one hour; 0 disables expiry). */
  readonly ttl?: number;
  /** Cap on threads; the least recently used is evicted first (default 10,000). */
  readonly maxThreads?: number;
  readonly clock?: Clock;
  /** Told about every thread that leaves the store: expired, evicted, deleted or cleared ('cleared'). */
  readonly onEvict?: (threadId: string, toolNames: readonly string[], reason: MemoryStoreEvictReason) => void;
}

/** The in-memory store, with the optional capabilities all present. */
export interface MemoryStore extends LoadStateStore {
  get(threadId: string): readonly string[];
  add(threadId: string, names: readonly string[]): readonly string[];
  delete(threadId: string): void;
  remove(threadId: string, names: readonly string[], options?: StoreRemoveOptions): readonly string[];
  clear(): void;
  sweep(): number;
  stats(): StoreStats;
  dispose(): void;
}

interface ThreadState {
  readonly names: string[];
  readonly set: Set<string>;
  lastAccess: number;
}

const MEMORY_STORE_OPTION_NAMES = {
  ttl: true,
  maxThreads: true,
  clock: true,
  onEvict: true,
} as const satisfies OptionNamesOf<MemoryStoreOptions>;

export const DEFAULT_TTL = 3_600_000;
export const DEFAULT_MAX_THREADS = 10_000;

/** How often the sweep runs for a given TTL: half the TTL, between one second and one minute. */
export function sweepInterval(ttl: number): number {
  return Math.min(60_000, Math.max(1_000, Math.floor(ttl / 2)));
}

/**
 * For a `LoadStateStore` of your own: the `keep` of `remove`'s options (undefined when the options
 * or their `keep` are absent); INVALID_INPUT unless the options are an object and `keep` an
 * integer >= 0.
 */
export function checkRemoveOptions(options: unknown): number | undefined {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new ToolSearchError('INVALID_INPUT', `remove takes an options object, got ${typeof options}`);
  }
  const { keep } = options as StoreRemoveOptions;
  if (keep === undefined) return undefined;
  if (typeof keep !== 'number' || !Number.isSafeInteger(keep) || keep < 0) {
    throw new ToolSearchError(
      'INVALID_INPUT',
      `remove: keep must be an integer >= 0, got ${typeof keep === 'number' ? keep : typeof keep}`,
    );
  }
  return keep;
}

/**
 * Load state in a `Map` (so `__proto__` or `constructor` are ordinary thread ids).
 * The map is kept in access order (a read or add moves the thread to the end),
 * so LRU eviction and the TTL sweep only touch the threads they remove.
 */
export function createMemoryStore(given?: MemoryStoreOptions | null): MemoryStore {
  const options = optionsObject(given, 'createMemoryStore');
  checkOptionNames(options, MEMORY_STORE_OPTION_NAMES, 'createMemoryStore');
  const ttl = options.ttl ?? DEFAULT_TTL;
  const maxThreads = options.maxThreads ?? DEFAULT_MAX_THREADS;
  const clock = clockOption(options.clock, 'createMemoryStore');
  if (typeof ttl !== 'number' || !(ttl >= 0) || ttl === Number.POSITIVE_INFINITY) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `ttl must be a finite number of milliseconds >= 0, got ${ttl}`,
    );
  }
  if (!Number.isInteger(maxThreads) || maxThreads < 1) {
    throw new ToolSearchError('INVALID_OPTIONS', `maxThreads must be an integer >= 1, got ${maxThreads}`);
  }

  // A listener's failure is its own: the store stays consistent. Checked before the timer starts.
  const notify = safeListener(options.onEvict, 'createMemoryStore: onEvict');

  const threads = new Map<string, ThreadState>();
  let cancelSweep: (() => void) | undefined =
    ttl > 0 ? clock.setInterval(() => sweep(), sweepInterval(ttl)) : undefined;

  const isExpired = (state: ThreadState, now: number) => ttl > 0 && now - state.lastAccess >= ttl;

  /** The live state of a thread, moved to the most recently used end; expired state is dropped. */
  const touch = (threadId: string): ThreadState | undefined => {
    const state = threads.get(threadId);
    if (!state) return undefined;
    const now = clock.now();
    threads.delete(threadId);
    if (isExpired(state, now)) {
      notify(threadId, state.names, 'ttl');
      return undefined;
    }
    state.lastAccess = now;
    threads.set(threadId, state);
    return state;
  };

  const sweep = (): number => {
    if (ttl <= 0) return 0;
    const now = clock.now();
    let removed = 0;
    // Oldest first: stop at the first thread that is still alive.
    for (const [threadId, state] of threads) {
      if (!isExpired(state, now)) break;
      threads.delete(threadId);
      removed++;
      notify(threadId, state.names, 'ttl');
    }
    return removed;
  };

  const key = (threadId: string) => String(threadId);
  /** The names given to add or remove: an array (a string would be read letter by letter). */
  const nameList = (names: readonly string[], operation: string): readonly string[] => {
    if (!Array.isArray(names)) {
      throw new ToolSearchError(
        'INVALID_INPUT',
        `${operation} takes an array of tool names, got ${names === null ? 'null' : typeof names}`,
      );
    }
    return names;
  };

  return {
    get(threadId) {
      const state = touch(key(threadId));
      return state ? [...state.names] : [];
    },
    add(threadId, given) {
      const names = nameList(given, 'add');
      const id = key(threadId);
      let state = touch(id);
      if (!state && !names.some((name) => typeof name === 'string')) return [];
      if (!state) {
        state = { names: [], set: new Set(), lastAccess: clock.now() };
        threads.set(id, state);
        while (threads.size > maxThreads) {
          const oldest = threads.entries().next().value;
          if (!oldest) break;
          threads.delete(oldest[0]);
          notify(oldest[0], oldest[1].names, 'max-threads');
        }
      }
      for (const name of names) {
        if (typeof name !== 'string' || state.set.has(name)) continue;
        state.set.add(name);
        state.names.push(name);
      }
      return [...state.names];
    },
    delete(threadId) {
      const id = key(threadId);
      const state = threads.get(id);
      if (!state) return;
      threads.delete(id);
      notify(id, state.names, 'cleared');
    },
    remove(threadId, given, options) {
      const names = nameList(given, 'remove');
      const keep = checkRemoveOptions(options);
      const id = key(threadId);
      const state = touch(id);
      if (!state) return [];
      // In the order given, until the thread holds `keep` names or fewer.
      const drop = new Set<string>();
      for (const name of names) {
        if (keep !== undefined && state.set.size - drop.size <= keep) break;
        if (typeof name === 'string' && state.set.has(name)) drop.add(name);
      }
      if (drop.size === 0) return [...state.names];
      const kept = state.names.filter((name) => !drop.has(name));
      // Element by element: a spread of a very long list overflows the stack, and the thread
      // would be left empty.
      state.names.length = 0;
      for (const name of kept) state.names.push(name);
      for (const name of drop) state.set.delete(name);
      return [...kept];
    },
    clear() {
      const all = [...threads];
      threads.clear();
      for (const [threadId, state] of all) notify(threadId, state.names, 'cleared');
    },
    sweep,
    stats() {
      // Expired threads not yet swept do not count. Access order means they lead the map.
      const now = clock.now();
      let expired = 0;
      for (const state of threads.values()) {
        if (!isExpired(state, now))
          return { threadCount: threads.size - expired, oldestAccessTime: state.lastAccess };
        expired++;
      }
      return { threadCount: 0, oldestAccessTime: null };
    },
    dispose() {
      cancelSweep?.();
      cancelSweep = undefined;
    },
  };
}
