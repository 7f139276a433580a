// Owns what evidence of use is: a recorded use as an app gives it and as a store keeps it, the
// evidence store's interface, the JSON snapshot, and the checks of each (a use from a store or a
// snapshot is read as untrusted input).
import { cutText } from '../ranking/cut-text';
import type { MaybePromise } from '../types';

/** A use as an app records it: a request, and the tool that served it. */
export interface ToolUse {
  /** The request (a `search_tools` query, a log line's request). Read up to 1,000 characters. */
  readonly query: string;
  /** The tool's canonical name. */
  readonly toolName: string;
  /** Epoch milliseconds of the use (default: the learning's clock, now). */
  readonly time?: number;
  /** The conversation it came from: one thread's influence on a tool is capped. */
  readonly threadId?: string;
}

/** A use as an evidence store keeps it (and a snapshot lists it). */
export interface StoredToolUse {
  /** Unique per use: a store keeps one use per id, and a use read twice counts once. */
  readonly id: string;
  readonly query: string;
  readonly toolName: string;
  readonly time: number;
  /** A digest of the thread id (never the id itself), when the use came from a thread. */
  readonly thread?: string;
}

/**
 * Where evidence of use lives, per catalog id. Required: `add` and `list`; optional: `clear`,
 * `dispose`. Methods may return promises. A store may keep a bounded number of uses per catalog
 * (dropping the oldest added); it keeps one use per id.
 */
export interface EvidenceStore {
  /** Keeps these uses for the catalog (a use whose id the store has is kept once). */
  add(catalogId: string, uses: readonly StoredToolUse[]): MaybePromise<void>;
  /** The catalog's uses, oldest added first ([] when none). */
  list(catalogId: string): MaybePromise<readonly StoredToolUse[]>;
  /** Forgets the catalog's uses. */
  clear?(catalogId: string): MaybePromise<void>;
  /** Releases resources; safe to call twice. */
  dispose?(): MaybePromise<void>;
}

/** The JSON form of a catalog's evidence (`exportEvidence`, `importEvidence`). */
export interface EvidenceSnapshot {
  readonly version: 1;
  readonly catalogId: string;
  readonly uses: readonly StoredToolUse[];
}

/** A stored query is cut to this many characters (the `search_tools` query cap). */
export const MAX_USE_QUERY_LENGTH = 1_000;
/** Tool names (and ids, thread digests) longer than this are not evidence of anything. */
export const MAX_USE_NAME_LENGTH = 256;

const isText = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max;

/**
 * A stored use read from a store or a snapshot, checked (undefined when it is not one): the
 * fields of the right types and sizes, the query cut, nothing else kept.
 */
export function readStoredUse(value: unknown): StoredToolUse | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const use = value as Partial<Record<keyof StoredToolUse, unknown>>;
  const { id, query, toolName, time, thread } = use;
  if (!isText(id, MAX_USE_NAME_LENGTH) || !isText(toolName, MAX_USE_NAME_LENGTH)) return undefined;
  if (typeof query !== 'string' || typeof time !== 'number' || !Number.isFinite(time)) return undefined;
  if (thread !== undefined && !isText(thread, MAX_USE_NAME_LENGTH)) return undefined;
  return {
    id,
    query: cutText(query, MAX_USE_QUERY_LENGTH),
    toolName,
    time,
    ...(thread === undefined ? {} : { thread }),
  };
}
