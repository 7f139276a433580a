// Owns what this process remembers of each thread beside a load-state store: when each loaded tool
// was last used (the recency by which maxLoadedTools evicts), and which tools the thread loaded and
// lost (so the guard can say "no longer loaded"). Both per thread, in bounded maps.
import { capLoadedNames } from '../loaded-tools-cap';

/** How many unloaded names the engine remembers per thread (with a store): the most recently unloaded. */
export const MAX_REMEMBERED_UNLOADS = 32;

/** Per name: `used`, the tick of its last use; `seen`, the last tick it was known to be loaded. */
export type NameUses = Map<string, { used: number; seen: number }>;

export interface ThreadMemory {
  /** The current tick: a store call issued now is answered "as of" it. */
  tick(): number;
  /** Marks names of a thread as used now (in this order): each is loaded, as far as this process knows. */
  noteUse(threadId: string, names: readonly string[]): void;
  /**
   * The thread's last uses, given the names its store answered to a call issued at tick
   * `issuedAt` (see {@link createThreadMemory}).
   */
  observe(threadId: string, held: readonly string[], issuedAt: number): NameUses;
  /** The names a store holds (read at tick `issuedAt`), capped to maxLoadedTools (least recently used left out, load order kept). */
  capHeld(threadId: string, names: string[], issuedAt: number): string[];
  /** Names the thread had loaded and lost. */
  noteUnloaded(threadId: string, names: readonly string[]): void;
  /** Names loaded again: no longer gone. */
  noteReloaded(threadId: string, names: readonly string[]): void;
  /** Whether the thread loaded the name and lost it since (as far as this process knows). */
  wasUnloaded(threadId: string, name: string): boolean;
  /** Forgets the thread's recency only (its store entry went, and with it what was used). */
  forgetUses(threadId: string): void;
  /** Forgets everything of the thread (clearState). */
  forgetThread(threadId: string): void;
  /** Forgets every thread (clearAllState, dispose). */
  forgetAll(): void;
}

export interface ThreadMemoryOptions {
  /** Recency is kept only under a cap, and only with a store ('context' storage reads it from the records). */
  readonly maxLoadedTools: number | undefined;
  readonly hasStore: boolean;
  /** At most this many threads are remembered (the least recently used first dropped). */
  readonly maxThreads: number;
}

/**
 * maxLoadedTools with a store: recency of use, per thread, in this process.
 * A store keeps names in load order only; when each was last used is known
 * here, in a bounded map: at most maxThreads threads (the least recently used
 * thread dropped first), a thread's entries pruned to the names its store holds.
 * A name this process has not seen yet counts as used when it first sees it in
 * the store (names first seen together: in load order). So with a store shared
 * by several processes, recency is per process: a use made in another process is
 * not seen, and a name loaded there ranks by when this process first saw it, and
 * by load position among the names seen together.
 *
 * Store answers may arrive late and out of order (a slow read issued before a
 * load, answered after it). Each entry keeps the tick at which this process last
 * knew the name to be loaded (`seen`), and an answer only prunes names it should
 * have held: those seen loaded before its call was issued. So a stale read never
 * drops the recency of a tool loaded while it was on its way.
 *
 * With a store, also the names each thread had loaded and lost (evicted by maxLoadedTools; with
 * the engine's own in-memory store, also expired or dropped for maxThreads), and not loaded again
 * since, so that the guard can tell the model a tool is "no longer loaded" (load it again)
 * whichever request loaded it, rather than "not loaded" (search, then load). Per process, in a
 * bounded map: at most maxThreads threads (the least recently unloaded first dropped), and per
 * thread the MAX_REMEMBERED_UNLOADS names most recently unloaded; forgotten on clearState,
 * clearAllState and dispose. A name forgotten (or unloaded in another process) only gets the
 * plainer message. ('context' storage reads the same from the records.)
 */
export function createThreadMemory(options: ThreadMemoryOptions): ThreadMemory {
  const { maxLoadedTools, hasStore, maxThreads } = options;
  const recency = new Map<string, NameUses>();
  let useTick = 0;
  const unloadedByThread = new Map<string, Set<string>>();

  /** The thread's last uses, moved to the most recently used end of the thread map. */
  function usesOfThread(threadId: string): NameUses {
    let uses = recency.get(threadId);
    if (uses) recency.delete(threadId);
    else uses = new Map();
    recency.set(threadId, uses);
    while (recency.size > maxThreads) {
      const oldest = recency.keys().next();
      if (oldest.done) break;
      recency.delete(oldest.value);
    }
    return uses;
  }

  /**
   * A name missing from the answer is pruned only if it was known to be loaded before the call
   * was issued (a name loaded since may be missing from a late answer); a name new to this
   * process counts as used now.
   */
  function observe(threadId: string, held: readonly string[], issuedAt: number): NameUses {
    const uses = usesOfThread(threadId);
    if (uses.size > 0) {
      const present = new Set(held);
      for (const [name, { seen }] of uses) if (!present.has(name) && seen <= issuedAt) uses.delete(name);
    }
    for (const name of held) if (!uses.has(name)) uses.set(name, { used: ++useTick, seen: issuedAt });
    return uses;
  }

  function noteUnloaded(threadId: string, names: readonly string[]): void {
    if (names.length === 0) return;
    const gone = unloadedByThread.get(threadId) ?? new Set<string>();
    unloadedByThread.delete(threadId);
    unloadedByThread.set(threadId, gone);
    for (const name of names) {
      gone.delete(name);
      gone.add(name);
    }
    while (gone.size > MAX_REMEMBERED_UNLOADS) {
      const oldest = gone.values().next();
      if (oldest.done) break;
      gone.delete(oldest.value);
    }
    while (unloadedByThread.size > maxThreads) {
      const oldest = unloadedByThread.keys().next();
      if (oldest.done) break;
      unloadedByThread.delete(oldest.value);
    }
  }

  return {
    tick: () => useTick,
    noteUse(threadId, names) {
      if (maxLoadedTools === undefined || !hasStore || names.length === 0) return;
      const uses = usesOfThread(threadId);
      for (const name of names) {
        const tick = ++useTick;
        uses.set(name, { used: tick, seen: tick });
      }
    },
    observe,
    capHeld(threadId, names, issuedAt) {
      if (maxLoadedTools === undefined) return names;
      const uses = observe(threadId, names, issuedAt);
      if (names.length <= maxLoadedTools) return names;
      const { kept, evicted } = capLoadedNames(names, (name) => uses.get(name)?.used, maxLoadedTools);
      // Still in the store (its eviction failed), but no longer shown: gone, as far as the model sees.
      noteUnloaded(threadId, evicted);
      return kept;
    },
    noteUnloaded,
    noteReloaded(threadId, names) {
      const gone = unloadedByThread.get(threadId);
      if (!gone) return;
      for (const name of names) gone.delete(name);
      if (gone.size === 0) unloadedByThread.delete(threadId);
    },
    wasUnloaded: (threadId, name) => unloadedByThread.get(threadId)?.has(name) === true,
    forgetUses(threadId) {
      recency.delete(threadId);
    },
    forgetThread(threadId) {
      recency.delete(threadId);
      unloadedByThread.delete(threadId);
    },
    forgetAll() {
      recency.clear();
      unloadedByThread.clear();
    },
  };
}
