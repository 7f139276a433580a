// Owns one request's view of its thread's load state: what is loaded now (from the store, or with
// 'context' storage replayed from the records plus this request's own loads and calls not yet in
// them), and the request's counter of when each name was loaded, left uncertain or read by a plan.
import { type DerivedLoadState, deriveLoadState, type ReceiptSigner } from '../context-state';
import type { LoadedToolsReplay } from '../loaded-tools-cap';
import type { ConversationRecord, MaybePromise } from '../types';
import type { StoreCalls } from './store-calls';
import type { ThreadMemory } from './thread-memory';

export interface RequestLoadState {
  /** The conversation so far ('context' storage reads the loads from it). */
  setRecords(records: readonly ConversationRecord[]): void;
  /** A new step begins (a 'context' replay orders this request's loads and calls by step). */
  nextStep(): void;
  /** Ticks the request's counter: a plan's read, a load, a timed-out write each take a moment. */
  nextMoment(): number;
  /** The names the thread has loaded (a store failure rejects, reported by the store calls). */
  currentLoadedNames(): Promise<string[]>;
  /**
   * Records a load of `loaded` (new) and `used` (every name asked for that takes a slot):
   * with a store, adds them (returning what the cap evicted); with 'context' storage, applies
   * them until the records show them (synchronously: nothing else of the request runs meanwhile).
   */
  load(loaded: readonly string[], used: readonly string[]): MaybePromise<string[]>;
  /** The names were loaded by this request, at `moment`. */
  noteLoaded(names: readonly string[], moment: number): void;
  /** The names' store write timed out (it may land later), at `moment`. */
  noteUncertain(names: readonly string[], moment: number): void;
  /** When this request last loaded the name (undefined: it did not). */
  loadedAt(name: string): number | undefined;
  /** When this request's write of the name timed out (undefined: none did). */
  uncertainAt(name: string): number | undefined;
  /** A loaded tool was used: remembered per process (store) or until the records show it ('context'). */
  noteCall(name: string): void;
  /** Whether the thread loaded the name and has lost it since (as far as this process knows, or the records show). */
  unloadedFromThread(name: string): boolean;
}

export interface RequestLoadStateOptions {
  readonly threadId: string;
  readonly store: StoreCalls | undefined;
  readonly memory: Pick<ThreadMemory, 'noteUse' | 'wasUnloaded'>;
  readonly autoLoad: boolean;
  readonly maxLoadedTools: number | undefined;
  readonly signer: ReceiptSigner | undefined;
  /** How the records' names are resolved to the request's canonical names. */
  readonly canonicalName: (name: string) => string | undefined;
  /** Names the replay leaves out (the request's always-on tools take no slot). */
  readonly skip: ReadonlySet<string>;
}

export function createRequestLoadState(options: RequestLoadStateOptions): RequestLoadState {
  const { threadId, store, memory, autoLoad, maxLoadedTools, signer, canonicalName, skip } = options;

  // When this request last loaded each name, and when the current plan read the load state, on
  // one request-wide counter: a name loaded after the plan's read is "just loaded" (visible from
  // the next step); one loaded before it and missing from the plan has gone since (evicted by
  // maxLoadedTools, expired, cleared) and must be loaded again.
  let moment = 0;
  const loadedThisRequest = new Map<string, number>();
  /** Names whose store write timed out in this request (it may land later), at that moment. */
  const uncertainThisRequest = new Map<string, number>();
  let records: readonly ConversationRecord[] | undefined;

  // 'context' storage: the records' loads and calls, replayed (memoised per records array).
  let derivedMemo: { records: typeof records; length: number; state: DerivedLoadState } | undefined;
  function derivedState(): DerivedLoadState {
    const length = records?.length ?? 0;
    if (derivedMemo === undefined || derivedMemo.records !== records || derivedMemo.length !== length) {
      const state = deriveLoadState({
        records,
        threadId,
        autoLoad,
        signer,
        canonicalName,
        maxLoadedTools,
        skip,
      });
      derivedMemo = { records, length, state };
    }
    return derivedMemo.state;
  }

  // This request's loads and allowed calls ('context' storage): applied after the records
  // until the records show them, so a load is visible from the next step even before the
  // framework stores the messages, and never shared with another request. `seen` is how
  // many such loads (or calls) of the name the records held at the time. Within a step,
  // calls go before loads, as the step's tool calls precede its results in the records.
  let step = 0;
  const pending: { step: number; kind: 'load' | 'call'; names: { name: string; seen: number }[] }[] = [];
  function notePending(kind: 'load' | 'call', names: readonly string[]): void {
    if (names.length === 0) return;
    const counts = kind === 'load' ? derivedState().loadCounts : derivedState().callCounts;
    pending.push({ step, kind, names: names.map((name) => ({ name, seen: counts.get(name) ?? 0 })) });
  }

  function contextState(): LoadedToolsReplay {
    const derived = derivedState();
    const state = derived.loaded.copy();
    const ordered = [...pending].sort(
      (a, b) => a.step - b.step || (a.kind === b.kind ? 0 : a.kind === 'call' ? -1 : 1),
    );
    for (const use of ordered) {
      const counts = use.kind === 'load' ? derived.loadCounts : derived.callCounts;
      const unseen = use.names.filter(({ name, seen }) => (counts.get(name) ?? 0) <= seen);
      if (use.kind === 'load') state.load(unseen.map(({ name }) => name));
      else for (const { name } of unseen) state.use(name);
    }
    return state;
  }

  return {
    setRecords(given) {
      records = given;
    },
    nextStep() {
      step++;
    },
    nextMoment: () => ++moment,
    async currentLoadedNames() {
      if (store) return store.read(threadId);
      return [...contextState().names()];
    },
    load(loaded, used) {
      if (store) {
        if (loaded.length > 0) return store.add(threadId, loaded, used);
        memory.noteUse(threadId, used);
        return [];
      }
      const evicted = contextState().load(used);
      notePending('load', used);
      return evicted;
    },
    noteLoaded(names, at) {
      for (const name of names) loadedThisRequest.set(name, at);
    },
    noteUncertain(names, at) {
      for (const name of names) uncertainThisRequest.set(name, at);
    },
    loadedAt: (name) => loadedThisRequest.get(name),
    uncertainAt: (name) => uncertainThisRequest.get(name),
    noteCall(name) {
      if (maxLoadedTools === undefined) return;
      if (store) memory.noteUse(threadId, [name]);
      else notePending('call', [name]);
    },
    unloadedFromThread(name) {
      if (store) return memory.wasUnloaded(threadId, name);
      return contextState().wasEvicted(name);
    },
  };
}
