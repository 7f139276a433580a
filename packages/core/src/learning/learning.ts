// Owns a catalog's learning from use: the options and bounds, recording a use (checked, capped,
// into this process's evidence index and, in the background, the store), loading the store's
// evidence at start and on `reload`, JSON export and import, and the learning's events.
import { clockOption, failAfter, timeoutOption } from '../clock';
import { sha256Bytes, toBase64Url } from '../crypto';
import { optionsObject, sizeOption, ToolSearchError } from '../errors';
import { safeListener } from '../listener';
import { checkOptionNames, type OptionNamesOf } from '../option-names';
import { cutText } from '../ranking/cut-text';
import type { Clock, MaybePromise } from '../types';
import {
  type EvidenceSnapshot,
  type EvidenceStore,
  MAX_USE_NAME_LENGTH,
  MAX_USE_QUERY_LENGTH,
  readStoredUse,
  type StoredToolUse,
  type ToolUse,
} from './evidence';
import {
  createEvidenceIndex,
  type EvidenceIndex,
  type EvidenceLimits,
  type EvidenceRejection,
} from './evidence-index';
import { createMemoryEvidenceStore } from './memory-evidence-store';

export interface LearningOptions {
  /** Where evidence is kept (default: in memory, this process only). */
  readonly store?: EvidenceStore;
  /** The catalog the evidence is for: one id per distinct catalog (default `'default'`). */
  readonly catalogId?: string;
  /** The most evidence can add to a tool's score, 0..1 (default 0.5): a tool's own text weighs more. */
  readonly weight?: number;
  /** Uses kept in all (default 50,000); past it the oldest go first. */
  readonly maxUses?: number;
  /** Uses kept per tool (default 100); past it the tool's oldest go first. */
  readonly maxUsesPerTool?: number;
  /** Uses one thread may record for one tool (default 2). */
  readonly maxThreadUsesPerTool?: number;
  /** Uses one thread may record in all (default 20). */
  readonly maxUsesPerThread?: number;
  /** Tools with evidence, at most (default 100,000). */
  readonly maxTools?: number;
  /** A use weighs half as much after this many milliseconds (default 30 days; `Infinity`: never). */
  readonly halfLifeMs?: number;
  /** Bound on one store call (default 2,000 ms); past it the call counts as failed. */
  readonly storeTimeoutMs?: number;
  /**
   * Read the store's evidence again every this many milliseconds (default 0: never), for a
   * store that several processes write (Redis). The timer never keeps the process alive.
   */
  readonly refreshMs?: number;
  readonly clock?: Clock;
  /** Told of every use recorded or refused, and of every store failure. */
  readonly onEvent?: (event: LearningEvent) => void;
}

/** Where a use came from: a search followed by a successful call, the app, or an import. */
export type EvidenceSource = 'call' | 'app' | 'import';

export type LearningEvent =
  | {
      readonly type: 'evidence';
      readonly time: number;
      readonly toolName: string;
      readonly query: string;
      /** The thread of the use (as given), when it had one. */
      readonly threadId?: string;
      readonly source: EvidenceSource;
      readonly recorded: boolean;
      /** When not recorded: why. */
      readonly reason?: EvidenceRejection;
    }
  | {
      readonly type: 'store-error';
      readonly time: number;
      readonly operation: 'evidence.add' | 'evidence.list' | 'evidence.clear';
      readonly error: unknown;
    };

/** What became of one recorded use. */
export interface EvidenceOutcome {
  readonly recorded: boolean;
  readonly reason?: EvidenceRejection;
}

/** How `importEvidence` reads a snapshot. */
export interface EvidenceImportOptions {
  /**
   * Accept a snapshot exported for this catalog id (a renamed catalog). Without it, a snapshot
   * of another catalog than the learning's is refused: its evidence names other tools.
   */
  readonly fromCatalogId?: string;
}

/** What an import did. */
export interface EvidenceImport {
  readonly imported: number;
  readonly skipped: number;
}

/** Learning from use for one catalog id: made by {@link createLearning}, used by `withLearning` and the engine. */
export interface Learning {
  readonly catalogId: string;
  /** Settles once the store's evidence is loaded (never rejects: a failure is a `store-error` event). */
  readonly ready: Promise<void>;
  /** Records a use now (in this process at once, in the store in the background). */
  recordUse(use: ToolUse): EvidenceOutcome;
  /** Reads the store's evidence again (another process's uses, a restored backup). */
  reload(): Promise<void>;
  /** The store's evidence for this catalog, as JSON-ready data. */
  exportEvidence(): Promise<EvidenceSnapshot>;
  /**
   * Adds a snapshot's uses (a use already known, by id, counts once). A snapshot of another
   * catalog is refused (INVALID_INPUT) unless `fromCatalogId` names it.
   */
  importEvidence(snapshot: unknown, options?: EvidenceImportOptions): Promise<EvidenceImport>;
  /** Forgets this catalog's evidence, here and in the store. */
  clear(): Promise<void>;
  /** Settles once every store write begun so far has settled. */
  flush(): Promise<void>;
  /** Tools with evidence, and uses recorded, in this process. */
  stats(): { readonly toolCount: number; readonly useCount: number };
  /** Stops the refresh timer (and disposes the store it made itself); safe to call twice. */
  dispose(): MaybePromise<void>;
}

/** What `withLearning` and the engine use of a learning (not public). */
export interface LearningInternals {
  readonly weight: number;
  readonly clock: Clock;
  /** The bounds on the evidence (the hybrid's mean vectors keep the same). */
  readonly limits: EvidenceLimits;
  index(): EvidenceIndex;
  /**
   * Records a use. `requestThread`, for a use without `threadId`: a key that stands for its
   * thread in the caps and the store (the engine's key for one request without a thread).
   */
  record(use: ToolUse, source: EvidenceSource, requestThread?: string): EvidenceOutcome;
  /** Names of the tools the learning's rankers were built over (uses of others are refused). */
  knowTools(names: Iterable<string>): void;
  subscribe(listener: (event: LearningEvent) => void): () => void;
  /**
   * Told of every use an evidence index takes in (recorded, imported, or read from the store),
   * as stored, with that index and the ids of the uses its caps dropped to make room; a use
   * read again on `reload` is told again (same id) with the new index, which `index()` gives
   * once the reload is done.
   */
  onUse(listener: (use: StoredToolUse, index: EvidenceIndex, dropped: readonly string[]) => void): () => void;
  /** Marks a ranker that fuses this learning's evidence itself (`withLearning` leaves it as it is). */
  applies(ranker: object): void;
  appliedBy(ranker: unknown): boolean;
}

const internals = new WeakMap<Learning, LearningInternals>();

/** The internals of a learning made by {@link createLearning} (INVALID_OPTIONS for anything else). */
export function learningInternals(learning: unknown, where: string): LearningInternals {
  const found =
    typeof learning === 'object' && learning !== null ? internals.get(learning as Learning) : undefined;
  if (found === undefined) {
    throw new ToolSearchError('INVALID_OPTIONS', `${where}: learning must be made by createLearning()`);
  }
  return found;
}

export const DEFAULT_LEARNING_WEIGHT = 0.5;
const DAY_MS = 86_400_000;
const DEFAULT_LIMITS: EvidenceLimits = {
  maxUses: 50_000,
  maxUsesPerTool: 100,
  maxThreadUsesPerTool: 2,
  maxUsesPerThread: 20,
  maxTools: 100_000,
  halfLifeMs: 30 * DAY_MS,
};
/** Tool names a learning's rankers are known to have, at most (past it, no use is refused as unknown). */
const MAX_KNOWN_TOOLS = 200_000;

const LEARNING_OPTION_NAMES = {
  store: true,
  catalogId: true,
  weight: true,
  maxUses: true,
  maxUsesPerTool: true,
  maxThreadUsesPerTool: true,
  maxUsesPerThread: true,
  maxTools: true,
  halfLifeMs: true,
  storeTimeoutMs: true,
  refreshMs: true,
  clock: true,
  onEvent: true,
} as const satisfies OptionNamesOf<LearningOptions>;

const IMPORT_OPTION_NAMES = {
  fromCatalogId: true,
} as const satisfies OptionNamesOf<EvidenceImportOptions>;

/**
 * A snapshot given to `importEvidence`, checked: INVALID_OPTIONS for options that are not
 * import options, INVALID_INPUT for a value that is not a snapshot or one of another catalog
 * than `catalogId` (unless `fromCatalogId` names it). Its uses are checked one by one later.
 */
function readSnapshot(
  snapshot: unknown,
  importOptions: EvidenceImportOptions | undefined,
  catalogId: string,
): EvidenceSnapshot {
  const { fromCatalogId } = optionsObject(importOptions, 'importEvidence');
  checkOptionNames(importOptions ?? {}, IMPORT_OPTION_NAMES, 'importEvidence');
  if (fromCatalogId !== undefined && typeof fromCatalogId !== 'string') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `importEvidence: fromCatalogId must be a string, got ${typeof fromCatalogId}`,
    );
  }
  const given = snapshot as Partial<EvidenceSnapshot> | null;
  if (
    typeof given !== 'object' ||
    given === null ||
    given.version !== 1 ||
    typeof given.catalogId !== 'string' ||
    !Array.isArray(given.uses)
  ) {
    throw new ToolSearchError(
      'INVALID_INPUT',
      'importEvidence: expected a snapshot { version: 1, catalogId, uses: [...] } from exportEvidence()',
    );
  }
  if (given.catalogId !== (fromCatalogId ?? catalogId)) {
    const shown = (id: string) => JSON.stringify(cutText(id, MAX_USE_NAME_LENGTH));
    throw new ToolSearchError(
      'INVALID_INPUT',
      fromCatalogId === undefined
        ? `importEvidence: the snapshot is of catalog ${shown(given.catalogId)}, this learning's is ${shown(catalogId)}; pass { fromCatalogId: ${shown(given.catalogId)} } to take it as this catalog's`
        : `importEvidence: the snapshot is of catalog ${shown(given.catalogId)}, not of ${shown(fromCatalogId)} (fromCatalogId)`,
    );
  }
  return given as EvidenceSnapshot;
}

function readLimits(options: LearningOptions): EvidenceLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const name of [
    'maxUses',
    'maxUsesPerTool',
    'maxThreadUsesPerTool',
    'maxUsesPerThread',
    'maxTools',
  ] as const) {
    limits[name] = sizeOption(options[name], name, DEFAULT_LIMITS[name]);
  }
  const halfLifeMs = options.halfLifeMs ?? DEFAULT_LIMITS.halfLifeMs;
  if (typeof halfLifeMs !== 'number' || !(halfLifeMs > 0)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `halfLifeMs must be a number > 0 (or Infinity), got ${String(halfLifeMs)}`,
    );
  }
  return { ...limits, halfLifeMs };
}

function checkStore(store: unknown): EvidenceStore {
  const candidate = store as Partial<EvidenceStore> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.add !== 'function' ||
    typeof candidate.list !== 'function'
  ) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'createLearning: store must be an evidence store ({ add(catalogId, uses), list(catalogId) })',
    );
  }
  return candidate as EvidenceStore;
}

/**
 * A digest of a thread id (or of the engine's key for a request without a thread, apart from
 * every thread id): a store and a snapshot never hold the id itself.
 */
function threadDigest(threadId: string, kind: 'thread' | 'request' = 'thread'): string {
  return toBase64Url(sha256Bytes(`tool-search:${kind}:${threadId}`)).slice(0, 22);
}

let useCounter = 0;
/** A unique id for a new use: its time, a process counter and random bits. */
function newUseId(time: number): string {
  const random = new Uint32Array(2);
  globalThis.crypto.getRandomValues(random);
  useCounter = (useCounter + 1) % 0x100000000;
  return `${Math.trunc(time).toString(36)}-${useCounter.toString(36)}-${random[0]!.toString(36)}${random[1]!.toString(36)}`;
}

type StoreOperation = 'evidence.add' | 'evidence.list' | 'evidence.clear';

/**
 * Calls of the evidence store, bounded by `storeTimeoutMs` and observed: a failure is a
 * `store-error` event and an answer `{ ok: false }`, never a throw; each call is in `pending`
 * until it settles (for `flush`).
 */
function createStoreCaller(options: {
  readonly clock: Clock;
  readonly storeTimeoutMs: number;
  readonly emit: (event: LearningEvent) => void;
  readonly pending: Set<Promise<unknown>>;
}) {
  const { clock, storeTimeoutMs, emit, pending } = options;
  return <T>(
    operation: StoreOperation,
    call: () => MaybePromise<T>,
  ): Promise<{ ok: true; value: T } | { ok: false }> => {
    const failed = (error: unknown) => {
      emit({ type: 'store-error', time: clock.now(), operation, error });
      return { ok: false } as const;
    };
    let answer: MaybePromise<T>;
    try {
      answer = call();
    } catch (error) {
      return Promise.resolve(failed(error));
    }
    const settled = failAfter(
      Promise.resolve(answer),
      storeTimeoutMs,
      clock,
      'STORE_TIMEOUT',
      `The evidence store did not answer ${operation} within ${storeTimeoutMs} ms.`,
    ).then((value) => ({ ok: true, value }) as const, failed);
    pending.add(settled);
    void settled.finally(() => pending.delete(settled));
    return settled;
  };
}

/**
 * Learning from use, for one catalog: give it to the engine (`learning` option) or wrap a ranker
 * factory with it (`withLearning`). See docs/learning.md.
 */
export function createLearning(options?: LearningOptions | null): Learning {
  const checked = optionsObject(options, 'createLearning');
  checkOptionNames(checked, LEARNING_OPTION_NAMES, 'createLearning');
  const ownStore = checked.store === undefined;
  const store = ownStore ? createMemoryEvidenceStore() : checkStore(checked.store);
  const catalogId = checked.catalogId ?? 'default';
  if (typeof catalogId !== 'string' || catalogId.length === 0 || catalogId.length > MAX_USE_NAME_LENGTH) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'createLearning: catalogId must be a non-empty string of at most 256 characters',
    );
  }
  const weight = checked.weight ?? DEFAULT_LEARNING_WEIGHT;
  if (typeof weight !== 'number' || !(weight >= 0 && weight <= 1)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `createLearning: weight must be a number in 0..1, got ${String(weight)}`,
    );
  }
  const limits = readLimits(checked);
  const storeTimeoutMs = timeoutOption(checked.storeTimeoutMs, 'storeTimeoutMs', 2_000);
  const refreshMs = sizeOption(checked.refreshMs, 'refreshMs', 0);
  const clock = clockOption(checked.clock, 'createLearning');
  const listeners = new Set<(event: LearningEvent) => void>([
    safeListener(checked.onEvent, 'createLearning: onEvent'),
  ]);
  const emit = (event: LearningEvent) => {
    for (const listener of listeners) listener(event);
  };
  const knownTools = new Set<string>();
  const applied = new WeakSet<object>();
  const useListeners = new Set<
    (use: StoredToolUse, index: EvidenceIndex, dropped: readonly string[]) => void
  >();
  /** Adds a use to an index; tells the use listeners when it was taken, and what it dropped. */
  const take = (target: EvidenceIndex, use: StoredToolUse): EvidenceRejection | undefined => {
    const dropped: string[] = [];
    const rejection = target.add(use, dropped);
    if (rejection !== undefined) return rejection;
    for (const listener of useListeners) {
      try {
        listener(use, target, dropped);
      } catch {
        // A ranker that cannot take a use in (its embedder failed) reports it itself.
      }
    }
    return undefined;
  };

  let index = createEvidenceIndex(limits);
  /** Uses recorded while a load is under way: added again to the loaded index. */
  let recordedDuringLoad: StoredToolUse[] | undefined;
  let loads = 0;
  const pending = new Set<Promise<unknown>>();

  /** A store call, bounded and observed: a failure is an event, never a throw. */
  const storeCall = createStoreCaller({ clock, storeTimeoutMs, emit, pending });

  function record(use: ToolUse, source: EvidenceSource, requestThread?: string): EvidenceOutcome {
    const given = (typeof use === 'object' && use !== null ? use : {}) as Partial<
      Record<keyof ToolUse, unknown>
    >;
    const { query, toolName, time, threadId } = given;
    const refuse = (reason: EvidenceRejection): EvidenceOutcome => {
      if (typeof toolName === 'string' && typeof query === 'string') {
        emit({
          type: 'evidence',
          time: clock.now(),
          toolName: cutText(toolName, MAX_USE_NAME_LENGTH),
          query: cutText(query, MAX_USE_QUERY_LENGTH),
          ...(typeof threadId === 'string' ? { threadId } : {}),
          source,
          recorded: false,
          reason,
        });
      }
      return { recorded: false, reason };
    };
    if (
      typeof query !== 'string' ||
      typeof toolName !== 'string' ||
      toolName.length === 0 ||
      toolName.length > MAX_USE_NAME_LENGTH ||
      (time !== undefined && (typeof time !== 'number' || !Number.isFinite(time))) ||
      (threadId !== undefined && typeof threadId !== 'string')
    ) {
      return refuse('invalid-use');
    }
    if (knownTools.size > 0 && knownTools.size < MAX_KNOWN_TOOLS && !knownTools.has(toolName)) {
      return refuse('unknown-tool');
    }
    const at = time ?? clock.now();
    const stored: StoredToolUse = {
      id: newUseId(at),
      query: cutText(query, MAX_USE_QUERY_LENGTH),
      toolName,
      time: at,
      ...(threadId !== undefined
        ? { thread: threadDigest(threadId) }
        : requestThread === undefined
          ? {}
          : { thread: threadDigest(requestThread, 'request') }),
    };
    const rejection = take(index, stored);
    if (rejection !== undefined) return refuse(rejection);
    recordedDuringLoad?.push(stored);
    emit({
      type: 'evidence',
      time: clock.now(),
      toolName,
      query: stored.query,
      ...(threadId === undefined ? {} : { threadId }),
      source,
      recorded: true,
    });
    void storeCall('evidence.add', () => store.add(catalogId, [stored]));
    return { recorded: true };
  }

  async function reload(): Promise<void> {
    const load = ++loads;
    const during: StoredToolUse[] = [];
    recordedDuringLoad = during;
    const listed = await storeCall('evidence.list', () => store.list(catalogId));
    if (load !== loads) return; // a later load replaces this one
    recordedDuringLoad = undefined;
    if (!listed.ok) return; // keep what this process has
    const next = createEvidenceIndex(limits);
    for (const raw of Array.isArray(listed.value) ? listed.value : []) {
      const use = readStoredUse(raw);
      if (use !== undefined) take(next, use);
    }
    for (const use of during) take(next, use);
    index = next;
  }

  const learning: Learning = {
    catalogId,
    ready: reload(),
    recordUse: (use) => record(use, 'app'),
    reload,
    async exportEvidence() {
      await flush();
      const listed = await storeCall('evidence.list', () => store.list(catalogId));
      if (!listed.ok) {
        throw new ToolSearchError(
          'STORE_UNAVAILABLE',
          'exportEvidence: the evidence store could not be read.',
        );
      }
      const uses = (Array.isArray(listed.value) ? listed.value : []).flatMap(
        (raw) => readStoredUse(raw) ?? [],
      );
      return { version: 1, catalogId, uses };
    },
    async importEvidence(snapshot, importOptions) {
      const given = readSnapshot(snapshot, importOptions, catalogId);
      const accepted: StoredToolUse[] = [];
      let skipped = 0;
      for (const raw of given.uses) {
        const use = readStoredUse(raw);
        if (use === undefined || take(index, use) !== undefined) skipped++;
        else {
          accepted.push(use);
          recordedDuringLoad?.push(use);
        }
      }
      if (accepted.length > 0) {
        const written = await storeCall('evidence.add', () => store.add(catalogId, accepted));
        if (!written.ok) {
          throw new ToolSearchError(
            'STORE_UNAVAILABLE',
            'importEvidence: the uses rank in this process, but the evidence store did not keep them.',
          );
        }
      }
      return { imported: accepted.length, skipped };
    },
    async clear() {
      loads++;
      recordedDuringLoad = undefined;
      index = createEvidenceIndex(limits);
      if (store.clear) {
        const cleared = await storeCall('evidence.clear', () => store.clear!(catalogId));
        if (!cleared.ok) {
          throw new ToolSearchError('STORE_UNAVAILABLE', 'clear: the evidence store could not be cleared.');
        }
      }
    },
    flush,
    stats: () => ({ toolCount: index.toolCount, useCount: index.useCount }),
    dispose() {
      stopRefresh?.();
      stopRefresh = undefined;
      if (ownStore) return store.dispose?.();
    },
  };
  let stopRefresh: (() => void) | undefined =
    refreshMs > 0 && refreshMs !== Number.POSITIVE_INFINITY
      ? clock.setInterval(() => {
          void reload();
        }, refreshMs)
      : undefined;

  async function flush(): Promise<void> {
    while (pending.size > 0) await Promise.all([...pending]);
  }

  internals.set(learning, {
    weight,
    clock,
    limits,
    index: () => index,
    record,
    knowTools(names) {
      for (const name of names) {
        if (knownTools.size >= MAX_KNOWN_TOOLS) return;
        knownTools.add(name);
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onUse(listener) {
      useListeners.add(listener);
      return () => useListeners.delete(listener);
    },
    applies(ranker) {
      applied.add(ranker);
    },
    appliedBy: (ranker) => typeof ranker === 'object' && ranker !== null && applied.has(ranker),
  });
  return learning;
}
