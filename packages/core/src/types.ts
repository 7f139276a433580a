import type { NativeDeferralOptions, NativeModeReason, NativeProvider } from './native-deferral';

/**
 * The engine's contracts. Every adapter codes against these types; nothing here
 * knows a framework. Implementations live in their own files.
 */

import type { ToolResolver } from './lazy-tools';
import type { EvidenceRejection } from './learning/evidence-index';
import type { EvidenceSource, Learning } from './learning/learning';

/** A value or a promise of it: pluggable parts may be sync or async, the engine awaits. */
export type MaybePromise<T> = T | Promise<T>;

/** A JSON Schema object (as sent to a model for a tool's input). */
export type JsonSchema = { readonly [key: string]: unknown };

/** All that search sees of a tool. Adapters derive it from their framework's tool objects. */
export interface ToolDescriptor {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: JsonSchema;
  readonly tags?: readonly string[];
}

// ---------------------------------------------------------------------------
// Ranking
// ---------------------------------------------------------------------------

export interface SearchOptions {
  /** At most this many results (default 5). */
  readonly topK?: number;
  /** Drop results scoring below this (0..1, default 0). See docs/ranking.md for its meaning. */
  readonly minScore?: number;
}

export interface SearchResult {
  readonly name: string;
  readonly description: string;
  /** Relevance in 0..1; comparable across queries of one catalog (see docs/ranking.md). */
  readonly score: number;
}

/**
 * A ranker answers queries over one fixed catalog. Built once per catalog by a
 * {@link RankerFactory}; never rebuilt per step. May be async (an embedding ranker).
 */
export interface Ranker {
  search(query: string, options?: SearchOptions): MaybePromise<readonly SearchResult[]>;
}

/** Builds a ranker over a catalog. The default is the keyword ranker. */
export type RankerFactory = (tools: readonly ToolDescriptor[]) => Ranker;

/** A catalog of descriptors with its ranker: the answer to `createToolIndex`. */
export interface ToolIndex {
  readonly size: number;
  has(name: string): boolean;
  get(name: string): ToolDescriptor | undefined;
  names(): readonly string[];
  search(query: string, options?: SearchOptions): readonly SearchResult[];
}

// ---------------------------------------------------------------------------
// Load state
// ---------------------------------------------------------------------------

export interface StoreStats {
  readonly threadCount: number;
  /** Epoch milliseconds of the least recently used thread, or null when there is none. */
  readonly oldestAccessTime: number | null;
}

/** Options of {@link LoadStateStore.remove}. */
export interface StoreRemoveOptions {
  /**
   * Stop removing once the thread holds this many names or fewer (an integer >= 0); the names
   * are removed in the order given. Absent: every name given is removed.
   */
  readonly keep?: number;
}

/**
 * Where the loaded tool names of each thread live. Required: get, add, delete (and remove
 * when the engine has `maxLoadedTools`). Optional capabilities: remove, clear, sweep, stats,
 * dispose. Methods may
 * return promises; the engine awaits. Names are kept in load order, without
 * duplicates. Reading or adding refreshes a thread's TTL.
 */
export interface LoadStateStore {
  /** The thread's loaded names in load order ([] when unknown or expired). */
  get(threadId: string): MaybePromise<readonly string[]>;
  /** Appends the names not yet present (atomically); returns the thread's names after the add. */
  add(threadId: string, names: readonly string[]): MaybePromise<readonly string[]>;
  /** Forgets a thread. */
  delete(threadId: string): MaybePromise<void>;
  /**
   * Removes some names from a thread, atomically (one operation); returns the names left.
   * Required by `maxLoadedTools`. With `options.keep`, removes the names in the order given and
   * stops as soon as the thread holds `keep` names or fewer (the engine passes its cap, so that
   * two processes evicting at once never leave a thread below it); without it, removes them all.
   */
  remove?(
    threadId: string,
    names: readonly string[],
    options?: StoreRemoveOptions,
  ): MaybePromise<readonly string[]>;
  /** Forgets every thread of this store. */
  clear?(): MaybePromise<void>;
  /** Removes expired threads now; returns how many were removed. */
  sweep?(): MaybePromise<number>;
  stats?(): MaybePromise<StoreStats>;
  /** Stops timers and releases resources; safe to call twice. */
  dispose?(): MaybePromise<void>;
}

/** Time, injected so that TTL tests never sleep. */
export interface Clock {
  now(): number;
  /** Calls `callback` every `ms`; the timer must never keep the process alive. Returns a canceller. */
  setInterval(callback: () => void, ms: number): () => void;
}

// ---------------------------------------------------------------------------
// Conversation records ('context' storage)
// ---------------------------------------------------------------------------

/**
 * Neutral records that adapters produce from their framework's messages. Only an
 * assistant's tool call and the tool result that answers it (same `toolCallId`)
 * count; adapters never turn user or system text into records.
 */
export type ConversationRecord =
  | {
      readonly type: 'tool-call';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: unknown;
    }
  | {
      readonly type: 'tool-result';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly output: unknown;
    };

// ---------------------------------------------------------------------------
// Filter
// ---------------------------------------------------------------------------

export type FilterPhase = 'search' | 'load' | 'active';

export interface FilterArgs<TTool = unknown, TContext = unknown> {
  readonly toolName: string;
  readonly tool: TTool;
  readonly requestContext: TContext | undefined;
  readonly phase: FilterPhase;
  /** The entry's `metadata` (for an MCP tool: its server and annotations), when it has one. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * Returns true to allow a catalog tool (or a request tool) in a phase; false hides it (search),
 * refuses it (load, reported as not found) or withholds it (active). The agent's own, always-on
 * tools are never filtered. A loaded tool is shown, and may run, only while it passes
 * both 'load' and 'active' in the current request. Only `true` allows: any other answer (`'false'`,
 * `{ allowed: false }`, `1`) refuses the tool and emits `filter-error` (INVALID_OPTIONS), and so do
 * a throw and a promise that has not settled within `filterTimeoutMs` (FILTER_TIMEOUT).
 */
export type ToolFilter<TTool = unknown, TContext = unknown> = (
  args: FilterArgs<TTool, TContext>,
) => MaybePromise<boolean>;

// ---------------------------------------------------------------------------
// Catalog entries
// ---------------------------------------------------------------------------

/** One tool as the engine holds it: its descriptor plus the framework's own tool object. */
export interface CatalogEntry<TTool = unknown> {
  /** The descriptor; `descriptor.name` is the tool's canonical name (the key it was given under). */
  readonly descriptor: ToolDescriptor;
  /** The framework's tool object, handed back to the filter and to the adapter. */
  readonly tool: TTool;
  /** Other names the tool answers to (for example a Mastra tool's `id` when it differs from its key). */
  readonly aliases?: readonly string[];
  /** Facts about the tool that the filter sees (never searched): an MCP tool's server and annotations. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /**
   * A lazily resolved tool (docs/lazy-tools.md): `tool` is a stand-in and this returns the real
   * one, once per request, for that request's caller, when the tool is loaded or shown. A failure
   * (throw, rejection, `resolveTimeoutMs`) leaves the tool unloaded, or withholds a loaded one.
   */
  readonly resolve?: ToolResolver<TTool>;
}

// ---------------------------------------------------------------------------
// Meta-tools
// ---------------------------------------------------------------------------

export interface SearchToolsInput {
  readonly query: string;
}

export interface SearchToolsOutput {
  readonly results: readonly SearchResult[];
  readonly message: string;
  /** Present when autoLoad is on: the names this search found that are now loaded (by it or before it). */
  readonly loaded?: readonly string[];
  /** With autoLoad, when some were loaded before this search: those names (as `load_tool` reports them). */
  readonly alreadyLoaded?: readonly string[];
  /**
   * Native mode: the tools this search refers to the provider (those of `loaded` that are catalog
   * or request tools), for the adapter to send as the provider's tool references. Callable from
   * the model's next step, with no `load_tool` round trip.
   */
  readonly referred?: readonly string[];
  /** Present when a signing secret is set: proves the result came from this engine. */
  readonly receipt?: string;
}

export interface LoadToolInput {
  readonly toolName?: string;
  readonly toolNames?: readonly string[];
}

export interface LoadToolOutput {
  readonly success: boolean;
  readonly message: string;
  readonly toolName?: string;
  readonly loaded?: readonly string[];
  readonly notFound?: readonly string[];
  readonly alreadyLoaded?: readonly string[];
  /** For names not found: close names that exist, for the model to try. */
  readonly suggestions?: readonly string[];
  /** Names found and allowed whose lazy `resolve` failed: not loaded (the message says why). */
  readonly unavailable?: readonly string[];
  /** Multi-name form: how many tools this call newly loaded (Mastra's field). */
  readonly loadedCount?: number;
  readonly receipt?: string;
}

/** A meta-tool as every adapter wraps it: defined once, here. */
export interface MetaToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

// ---------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------

export interface EventBase {
  readonly threadId: string;
  readonly time: number;
}

export type ToolSearchEvent =
  | (EventBase & {
      readonly type: 'search';
      readonly query: string;
      readonly results: readonly SearchResult[];
      readonly durationMs: number;
    })
  | (EventBase & {
      readonly type: 'load';
      readonly loaded: readonly string[];
      readonly alreadyLoaded: readonly string[];
      readonly notFound: readonly string[];
      readonly auto: boolean;
    })
  | (EventBase & {
      readonly type: 'deny';
      readonly toolName: string;
      /**
       * `'filtered'`: the filter refuses the catalog or request tool (the agent's own always-on
       * tools are never filtered; a catalog tool kept on by name is); `'unknown-tool'`: no such tool. A filtered tool gets an unknown name's message.
       */
      readonly reason: 'not-loaded' | 'filtered' | 'unknown-tool';
    })
  | (EventBase & {
      readonly type: 'evict';
      readonly toolNames: readonly string[];
      readonly reason: 'max-loaded-tools' | 'ttl' | 'max-threads' | 'cleared';
    })
  | (EventBase & {
      readonly type: 'filter-error';
      readonly toolName: string;
      readonly phase: FilterPhase;
      readonly error: unknown;
    })
  | (EventBase & {
      readonly type: 'step';
      /** Tool definitions sent to the model this step (meta-tools included). */
      readonly visibleCount: number;
      /** Tool definitions the model could have been sent without tool search. */
      readonly catalogCount: number;
      readonly visible: readonly string[];
    })
  | (EventBase & {
      /**
       * The ranker failed (threw, rejected, answered something other than an array, or took
       * longer than `searchTimeoutMs`: `SEARCH_TIMEOUT`). `query` is the search's query, or the
       * unknown name `load_tool` looked up for "did you mean". The model was told the search failed.
       */
      readonly type: 'search-error';
      readonly query: string;
      readonly error: unknown;
    })
  | (EventBase & {
      /**
       * A lazily resolved tool's `resolve` failed (RESOLVE_FAILED, or RESOLVE_TIMEOUT past
       * `resolveTimeoutMs`): at `'load'` the tool was not loaded (load_tool said why); at
       * `'active'` a loaded tool was withheld from the request's steps.
       */
      readonly type: 'resolve-error';
      readonly toolName: string;
      readonly phase: 'load' | 'active';
      readonly error: unknown;
    })
  | (EventBase & {
      readonly type: 'store-error';
      readonly operation: string;
      readonly error: unknown;
    })
  | (EventBase & {
      /**
       * A request tool (or an alias, or an always-on name) left out of this request: see README
       * "Name rules". Each distinct rejection (tool name, reason, message) is reported once per
       * engine, not in every request that repeats it (the last 1,000 are remembered).
       */
      readonly type: 'tool-rejected';
      readonly toolName: string;
      readonly reason:
        | 'invalid-name'
        | 'reserved-name'
        | 'duplicate-name'
        | 'alias-conflict'
        | 'invalid-entry';
      readonly message: string;
    })
  | (EventBase & {
      /**
       * The app replaced one of the adapter's hooks in this request (an AI SDK `prepareStep` or
       * `repairToolCall` written after the adapter's settings), as the adapter noticed it:
       * `'step-preparation'`, tool search no longer chooses the tools the model is sent (a loaded
       * tool is not made callable; the model is told so); `'call-repair'`, a call of a tool that
       * is not offered gets the framework's error, without the guard's message or a `deny` event.
       * Once per request and hook.
       */
      readonly type: 'hook-replaced';
      readonly hook: ReplacedHook;
    })
  | (EventBase & {
      /**
       * The mode a request runs in, once per request that asked for native deferral
       * (`RequestOptions.native`): `'native'` with the provider whose wire shapes the adapter
       * uses, or `'default'` (today's tool list that grows with each load) when the model's
       * provider has no client-side deferred loading.
       */
      readonly type: 'mode';
      readonly mode: 'native' | 'default';
      readonly provider: NativeProvider | undefined;
      /** The model's provider id the adapter passed (`native.modelProvider`), if any. */
      readonly modelProvider: string | undefined;
      readonly reason: NativeModeReason;
    })
  | (EventBase & {
      /**
       * With `learning`: a use was recorded as evidence for a tool (`recorded: true`), or refused
       * (`reason`). `source` `'call'`: a search of this request found the tool and a call of it
       * succeeded (`request.toolCallSucceeded`); `'app'`: `learning.recordUse`. A use without a
       * thread has the `'default'` thread id.
       */
      readonly type: 'evidence';
      readonly toolName: string;
      readonly query: string;
      readonly source: EvidenceSource;
      readonly recorded: boolean;
      readonly reason?: EvidenceRejection;
    });

/** An adapter's hook that the app replaced (see the `hook-replaced` event). */
export type ReplacedHook = 'step-preparation' | 'call-repair';

export type ToolSearchEventListener = (event: ToolSearchEvent) => void;

// ---------------------------------------------------------------------------
// The engine
// ---------------------------------------------------------------------------

export interface ToolSearchEngineOptions<TTool = unknown, TContext = unknown> {
  /** The searchable catalog: hidden from the model until loaded. */
  readonly catalog: readonly CatalogEntry<TTool>[];
  readonly search?: {
    readonly topK?: number;
    readonly minScore?: number;
    /** Load every tool a search returns (after the 'load' filter); `load_tool` is not offered. */
    readonly autoLoad?: boolean;
  };
  /** 'in-memory' (default), 'context' (derived from the conversation), or a store (e.g. Redis). */
  readonly storage?: 'in-memory' | 'context' | LoadStateStore;
  /** In-memory TTL in milliseconds (default one hour; 0 disables sweeping). */
  readonly ttl?: number;
  /** In-memory cap on threads (default 10,000; least recently used evicted first). */
  readonly maxThreads?: number;
  /**
   * Cap on loaded tools per thread; the least recently used (loaded, asked for again or called)
   * goes first, the rest keep their load order. Unbounded by default. With a store of your own,
   * the store must have `remove` (INVALID_OPTIONS otherwise).
   */
  readonly maxLoadedTools?: number;
  readonly filter?: ToolFilter<TTool, TContext>;
  /** With 'context' storage: results carry a receipt (HMAC) that a forged or edited message cannot reproduce. */
  readonly signingSecret?: string;
  /** Replaces the keyword ranker (for example with the hybrid ranker). */
  readonly ranker?: RankerFactory;
  /**
   * Learning from use (`createLearning()`): a search followed by a successful call of a tool it
   * found is recorded as evidence for that tool, and the ranker also ranks by it. Off by default.
   */
  readonly learning?: Learning;
  readonly clock?: Clock;
  readonly onEvent?: ToolSearchEventListener;
  /**
   * Bound on a store call before it fails with STORE_TIMEOUT (default 2,000 ms). For this and
   * the two bounds below, `Infinity` or any value above `MAX_TIMER_DELAY_MS` (2^31 − 1 ms, the
   * longest a timer can wait) means no bound.
   */
  readonly storeTimeoutMs?: number;
  /**
   * Bound on one search of a ranker that answers with a promise (default 10,000 ms); past it the
   * search fails with SEARCH_TIMEOUT, a `search-error` event, and a tool result that says so.
   */
  readonly searchTimeoutMs?: number;
  /**
   * Bound on one decision of a filter that answers with a promise (default 10,000 ms); past it
   * the tool is refused, as when the filter throws, with a `filter-error` event (FILTER_TIMEOUT).
   */
  readonly filterTimeoutMs?: number;
  /**
   * Bound on one `resolve` of a lazily resolved tool (default 10,000 ms); past it its signal
   * aborts and the tool is not available to the request (RESOLVE_TIMEOUT, a `resolve-error` event).
   */
  readonly resolveTimeoutMs?: number;
}

export interface RequestOptions<TTool = unknown, TContext = unknown> {
  /**
   * The conversation's id. A finite number or a bigint is the thread of its string (`42` is `'42'`); a
   * missing or empty id, or any other non-string (`NaN`, an object), is the shared 'default' thread.
   */
  readonly threadId?: string | number | bigint | null;
  readonly requestContext?: TContext;
  /**
   * The tools the agent itself passed: always visible, after the meta-tools, and never filtered
   * (the filter governs the catalog and the request tools). A name, or an entry (then `resolve`
   * returns its tool). A name of a catalog tool (or one of its aliases) keeps that catalog tool
   * on, under its canonical name: still a catalog tool, it is shown while the 'active' filter
   * allows it.
   */
  readonly alwaysOn?: readonly (string | CatalogEntry<TTool>)[];
  /**
   * Tools resolved for this request (includeResolvedTools): searchable, hidden until loaded, and a
   * loaded name resolves to this request's instance. Pass the same array object on every step of
   * a request (its index is cached by the identity of its tool objects).
   */
  readonly requestTools?: readonly CatalogEntry<TTool>[];
  /**
   * Ask for the provider's native deferred loading (see docs/native-deferral.md): the request
   * then offers `search_tools` alone, which loads what it finds and lists it under `referred`,
   * its plans carry `native`, and a `mode` event says which mode it runs in.
   */
  readonly native?: NativeDeferralOptions;
}

export interface StepInput {
  /** With 'context' storage: the conversation so far, as neutral records. */
  readonly records?: readonly ConversationRecord[];
  /**
   * False when the plan is wanted outside a model step (for example to restore the loaded tools
   * before a run or after an approval): then no 'step' event is emitted. Default true.
   */
  readonly modelStep?: boolean;
}

export interface StepPlan<TTool = unknown> {
  /** Tool names to send to the model, in order: meta-tools, always-on, loaded (load order). */
  readonly visible: readonly string[];
  readonly metaTools: readonly MetaToolDefinition[];
  /** The loaded tools visible this step, resolved to their entries (request instances win). */
  readonly loaded: readonly CatalogEntry<TTool>[];
  /** True when load state could not be read (store down): only meta-tools and always-on tools are visible. */
  readonly degraded: boolean;
  /** Native mode only: what the adapter sends beyond the unchanged tool list. */
  readonly native?: NativePlan;
}

/** The native-mode part of a step plan. */
export interface NativePlan {
  readonly provider: NativeProvider;
  /**
   * The tools the thread had loaded when the request began (its first plan; still allowed
   * `'load'` and `'active'`), in load order, the same list on every step of the request: the
   * adapter adds them mid-conversation (Anthropic `tool_addition`, OpenAI `additional_tools`),
   * never to the tool list.
   */
  readonly restore: readonly string[];
}

/** Options of one meta-tool call (`searchTools`, `loadTool`). */
export interface MetaToolCallOptions {
  /**
   * Ends the call: it rejects with the signal's reason as soon as the signal aborts (at once if it
   * already has), without waiting for a slow ranker, filter or store. What is under way then runs
   * on unobserved: nothing is loaded, and no `search` or `load` event is emitted, after the abort,
   * except that a load whose store write had begun may still land: then the tool stays loaded,
   * and its `load` event (and any `evict`) is emitted.
   */
  readonly signal?: AbortSignal;
}

/** Options of one `guard` call. */
export interface GuardOptions {
  /**
   * False when the framework refused the call because its step did not offer the tool (the AI
   * SDK hands such a call to `repairToolCall`): a tool the plan shows is then refused too, told
   * that it is loaded but was not offered (no `deny` event: the framework refused it). Default true.
   */
  readonly offered?: boolean;
}

export interface GuardDecision {
  readonly allowed: boolean;
  /** When not allowed: the message for the model (as a tool error). */
  readonly message?: string;
}

/** One request (one generate/stream/invoke call) of one thread. */
export interface ToolSearchRequest<TTool = unknown> {
  readonly threadId: string;
  /** The provider whose native deferred loading this request uses; undefined in the default mode. */
  readonly native: NativeProvider | undefined;
  /**
   * The meta-tools this request offers: the engine's, or in native mode `search_tools` alone
   * (as under autoLoad: it loads, and refers, what it finds).
   */
  readonly metaTools: readonly MetaToolDefinition[];
  /** The system-prompt paragraph for this request's meta-tools (the engine's, or autoLoad's in native mode). */
  readonly instructions: string;
  /** Called before each model step. */
  prepareStep(input?: StepInput): Promise<StepPlan<TTool>>;
  searchTools(input: unknown, options?: MetaToolCallOptions): Promise<SearchToolsOutput>;
  loadTool(input: unknown, options?: MetaToolCallOptions): Promise<LoadToolOutput>;
  /** May this tool run in the current step? (meta-tools always may, when offered). */
  guard(toolName: string, options?: GuardOptions): Promise<GuardDecision>;
  /**
   * The adapter noticed that the app replaced one of its hooks in this request: emits one
   * `hook-replaced` event per hook. After `'step-preparation'` the framework sends tools that
   * tool search did not choose, so a loaded tool may never be offered: from then on, search and
   * load results and the guard's messages say that a tool is callable from the next step only if
   * offered, instead of promising it. (The adapter keeps the guard's view current with
   * `prepareStep({ modelStep: false })`.)
   */
  hookReplaced(hook: ReplacedHook): void;
  /**
   * The adapter ran a call of this tool and it succeeded. With `learning`, the latest search of
   * this request or of the thread's earlier ones (its last 4 in this process) that found the tool
   * is recorded as evidence for it, once per search and tool; returns whether it was.
   */
  toolCallSucceeded(toolName: string): boolean;
  /** Resolves a visible name (canonical or alias) to its entry for execution. */
  resolve(toolName: string): CatalogEntry<TTool> | undefined;
  /**
   * A system-prompt paragraph listing every catalog tool this request may load (it passes the
   * 'search' and 'load' filters), one line each with its description cut to 150 characters, so
   * the model can load a tool without searching first; undefined when there is none. The same
   * text for every step of a request. It costs prompt tokens in proportion to the catalog: an
   * adapter sends it only when asked (Mastra's `injectCatalog`).
   */
  catalogInstructions(): Promise<string | undefined>;
}

export interface ToolSearchEngine<TTool = unknown, TContext = unknown> {
  readonly metaTools: readonly MetaToolDefinition[];
  /** A system-prompt paragraph telling the model how to use the meta-tools. */
  readonly instructions: string;
  readonly catalogSize: number;
  startRequest(options?: RequestOptions<TTool, TContext>): ToolSearchRequest<TTool>;
  /** Loaded names for a thread (for 'context' storage, pass the records). */
  getLoadedToolNames(
    threadId?: string | number | bigint | null,
    records?: readonly ConversationRecord[],
  ): Promise<readonly string[]>;
  clearState(threadId?: string | number | bigint | null): MaybePromise<void>;
  clearAllState(): MaybePromise<void>;
  getStateStats(): MaybePromise<StoreStats>;
  cleanupNow(): MaybePromise<number>;
  dispose(): MaybePromise<void>;
}
