import type { ProcessInputStepArgs, Processor } from '@mastra/core/processors';
import type { RequestContext } from '@mastra/core/request-context';
import type { Tool } from '@mastra/core/tools';
import {
  abortable,
  type CatalogEntry,
  type Clock,
  catalogEntryOf,
  checkOptionNames,
  createToolSearchEngine,
  type FilterPhase,
  FORWARDED_ENGINE_OPTION_NAMES,
  type LazyTool,
  LOAD_TOOL_NAME,
  type LoadStateStore,
  type MaybePromise,
  type MetaToolCallOptions,
  type OptionNamesOf,
  optionsObject,
  type RankerFactory,
  type StoreStats,
  type ToolSearchEngine,
  ToolSearchError,
  type ToolSearchEventListener,
  type ToolSearchRequest,
  withFields,
  withoutDeferLoading,
} from '@tool-search/core';
import { ownTools, toCatalogEntries } from './catalog-entries';
import { toConversationRecords } from './conversation-records';
import { createMetaTool } from './meta-tool';
import { resolveThreadId } from './thread-id';

// biome-ignore lint/suspicious/noExplicitAny: Mastra's own processor takes `Tool<any, any>`.
type AnyTool = Tool<any, any>;

/** Where loaded-tool state lives: Mastra's two modes, or any store (for example `@tool-search/redis`). */
export type ToolSearchStorage = 'in-memory' | 'context' | LoadStateStore;

export type ToolSearchFilterPhase = FilterPhase;

/** What `filter` receives: Mastra's fields, plus `name`. */
export interface ToolSearchFilterArgs {
  /** The tool's id (its key when it has none), as Mastra's own processor passes it. */
  toolName: string;
  /** The name the model sees and loads: the tool's key in `tools` (or in the agent's tools). */
  name: string;
  tool: AnyTool;
  requestContext?: RequestContext;
  phase: ToolSearchFilterPhase;
}

/**
 * The processor's options. Without a type argument they take Mastra's two storage modes, as
 * Mastra's options type does, so a processor made from them answers its state methods
 * synchronously; name a custom store in the type (`ToolSearchProcessorOptions<LoadStateStore>`)
 * to pass one.
 */
export interface ToolSearchProcessorOptions<TStorage extends ToolSearchStorage = 'in-memory' | 'context'> {
  /**
   * Every tool that can be searched and loaded; hidden from the model until loaded. A lazily
   * resolved tool (`LazyTool` from `@tool-search/core`, such as an MCP tool of
   * `@tool-search/mcp`) is resolved per request, for its request context, when it is loaded.
   */
  tools: Record<string, AnyTool | LazyTool<never>>;
  /**
   * Also make the tools the agent resolved for this request (a dynamic `tools` function, toolsets,
   * MCP tools) searchable and hidden until loaded, each request with its own instances.
   * @default false
   */
  includeResolvedTools?: boolean;
  /**
   * List the catalog (name and short description of each tool the filter lets the request search
   * and load) in the system prompt, so the model can load a tool without searching first. It
   * costs prompt tokens in proportion to the catalog on every step: worth it for small catalogs.
   * The list is the same on every step of a request, so it does not break prompt caching.
   * @default false
   */
  injectCatalog?: boolean;
  search?: {
    /** @default 5 */
    topK?: number;
    /** Relevance in 0..1 below which results are dropped. @default 0 */
    minScore?: number;
    /** `search_tools` loads what it finds; `load_tool` is not offered. @default false */
    autoLoad?: boolean;
  };
  /** 'in-memory' (default), 'context' (derived from the conversation), or a `LoadStateStore`. */
  storage?: TStorage;
  /** In-memory TTL in milliseconds; 0 disables expiry. @default 3_600_000 */
  ttl?: number;
  /** Returns false to hide (search), refuse (load) or withhold (active) a tool. A throw means false. */
  filter?: (args: ToolSearchFilterArgs) => boolean | Promise<boolean>;
  /** In-memory cap on threads (least recently used evicted first). @default 10_000 */
  maxThreads?: number;
  /** Cap on loaded tools per thread; the least recently used goes first. Unbounded by default. */
  maxLoadedTools?: number;
  /** With 'context' storage: load results carry a receipt that a forged or edited message cannot reproduce. */
  signingSecret?: string;
  /** Replaces the keyword ranker (for example with the hybrid ranker). */
  ranker?: RankerFactory;
  /** Time source for TTLs (tests pass a fake clock). */
  clock?: Clock;
  /** Search, load, deny, evict, step, tool-rejected, filter-error, store-error and search-error events. */
  onEvent?: ToolSearchEventListener;
  /** Bound on a store call before it fails (default 2,000 ms). */
  storeTimeoutMs?: number;
  /** Bound on a search of an asynchronous ranker before it fails with SEARCH_TIMEOUT (default 10,000 ms). */
  searchTimeoutMs?: number;
  /** Bound on an asynchronous filter decision; past it the tool is refused (FILTER_TIMEOUT; default 10,000 ms). */
  filterTimeoutMs?: number;
}

/** The processor's option names: Mastra's, and the engine's it forwards. */
const PROCESSOR_OPTION_NAMES = {
  tools: true,
  includeResolvedTools: true,
  injectCatalog: true,
  ...FORWARDED_ENGINE_OPTION_NAMES,
} as const satisfies OptionNamesOf<ToolSearchProcessorOptions>;

/** Sync with the built-in storage modes (as Mastra's processor is), maybe async with a custom store. */
export type StateResult<TStorage, T> = TStorage extends 'in-memory' | 'context' ? T : MaybePromise<T>;

type MetaTool = ReturnType<typeof createMetaTool>;

/** The engine request of a run and the meta-tools bound to it, made for one set of tools. */
interface RunRequest {
  readonly request: ToolSearchRequest<unknown>;
  /** A new engine request with the same thread, context and tools (the filter asked afresh). */
  readonly restart: () => ToolSearchRequest<unknown>;
  readonly metaTools: ReadonlyMap<string, MetaTool>;
  /** The tools the request was made for (as the processor received them). */
  readonly tools: Record<string, unknown> | undefined;
}

/**
 * What one run (one generate/stream call, or one resume after an approval) keeps between its
 * steps. Mastra gives each processor a `state` object that lives exactly that long.
 */
interface RunState {
  readonly requestContext: unknown;
  current: RunRequest;
  /**
   * Each name under which Mastra finds a tool this processor sent at the run's latest step (its
   * key, a provider tool's name, its id), to the tool's key; undefined before the first step.
   */
  sent: ReadonlyMap<string, string> | undefined;
  /** Ids of the tool calls already checked against the guard. */
  readonly checked: Set<string>;
  /** The processor's count of restores when the latest step was planned (see `#restores`). */
  plannedAt: number;
  /** The records the latest step was planned with ('context' storage). */
  records: ReturnType<typeof toConversationRecords> | undefined;
  /** The loaded tools sent in this run, each with its `execute` guarded (see `#guardedLoaded`). */
  readonly guarded: WeakMap<object, unknown>;
}

type StoredMessage = ProcessInputStepArgs['messages'][number];
type StoredPart = NonNullable<StoredMessage['content']['parts']>[number];
type ToolInvocationPart = Extract<StoredPart, { type: 'tool-invocation' }>;

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** Loaded tools as sent, per tool: the same copy every step. */
const sentCopies = new WeakMap<object, unknown>();

/**
 * A loaded tool as tool search sends it: without a provider's `deferLoading` in its
 * `providerOptions`, which would hide it again behind the provider's own tool search. A copy
 * (same prototype and fields) when it had one; the tool itself otherwise.
 */
function sentAsLoaded(tool: unknown): unknown {
  if (!isObject(tool)) return tool;
  const cached = sentCopies.get(tool);
  if (cached !== undefined) return cached;
  const providerOptions = withoutDeferLoading((tool as { providerOptions?: unknown }).providerOptions);
  const sent = providerOptions
    ? withFields(tool as { providerOptions?: unknown }, { providerOptions })
    : tool;
  sentCopies.set(tool, sent);
  return sent;
}

/**
 * Mastra's `ToolSearchProcessor` on the tool-search engine: same id, options and
 * methods, so it replaces `import { ToolSearchProcessor } from '@mastra/core/processors'`
 * with no other change. Each step sends the meta-tools, then the agent's own tools,
 * then the loaded tools in load order, so a step's tool list is a prefix of the next one's.
 */
export class ToolSearchProcessor<TStorage extends ToolSearchStorage = 'in-memory'>
  implements Processor<'tool-search'>
{
  readonly id = 'tool-search' as const;
  readonly name = 'Tool Search Processor';
  readonly description = 'Enables dynamic tool discovery and loading via search';

  readonly #engine: ToolSearchEngine<unknown, RequestContext>;
  readonly #includeResolvedTools: boolean;
  readonly #injectCatalog: boolean;
  readonly #contextStorage: boolean;
  readonly #staticEntries: ReadonlySet<CatalogEntry<unknown>>;
  /** Canonical names of the catalog: the names a loaded catalog tool is sent under. */
  readonly #staticNames: ReadonlySet<string>;
  /** Each run's state, by the `state` object Mastra gives this processor for the run. */
  readonly #runs = new WeakMap<object, RunState>();
  /** Static tools this processor restored into a request's tools (Mastra passes them back as the agent's). */
  readonly #restored = new WeakMap<object, ReadonlySet<string>>();
  /**
   * How many times Mastra asked for the loaded tools (`getLoadedToolsForRequestContext`): at the
   * start of every run, and when a run resumes after an approval. A loaded tool sent at a step
   * runs without a second check only while no run started or resumed since that step was planned.
   */
  #restores = 0;

  constructor(given: ToolSearchProcessorOptions<TStorage>) {
    const options = optionsObject(given, 'ToolSearchProcessor');
    checkOptionNames(options, PROCESSOR_OPTION_NAMES, 'ToolSearchProcessor');
    const tools = ownTools(options.tools, 'tools');
    if (Object.hasOwn(tools, '__proto__')) {
      // Mastra builds the tool set it sends to the model by assignment, which drops this key:
      // the model could load the tool, but would never be sent its definition.
      throw new ToolSearchError(
        'INVALID_TOOL_NAME',
        'A Mastra tool may not be named "__proto__": Mastra drops that key from the tools it sends to the model.',
      );
    }
    const catalog = toCatalogEntries(tools);
    this.#staticEntries = new Set(catalog);
    this.#staticNames = new Set(catalog.map((entry) => entry.descriptor.name));
    this.#includeResolvedTools = options.includeResolvedTools === true;
    this.#injectCatalog = options.injectCatalog === true;
    this.#contextStorage = options.storage === 'context';
    const filter = options.filter;
    this.#engine = createToolSearchEngine<unknown, RequestContext>({
      catalog,
      search: options.search,
      storage: options.storage,
      ttl: options.ttl,
      maxThreads: options.maxThreads,
      maxLoadedTools: options.maxLoadedTools,
      signingSecret: options.signingSecret,
      ranker: options.ranker,
      clock: options.clock,
      onEvent: options.onEvent,
      storeTimeoutMs: options.storeTimeoutMs,
      searchTimeoutMs: options.searchTimeoutMs,
      filterTimeoutMs: options.filterTimeoutMs,
      // Only a function is wrapped: anything else goes to the engine as given, which takes null as
      // no filter and refuses the rest (INVALID_OPTIONS), rather than a wrapper that refuses every tool.
      filter:
        typeof filter === 'function'
          ? ({ toolName, tool, requestContext, phase }) => {
              const id = isObject(tool) ? (tool as { id?: unknown }).id : undefined;
              return filter({
                toolName: typeof id === 'string' && id.length > 0 ? id : toolName,
                name: toolName,
                tool: tool as AnyTool,
                requestContext,
                phase,
              });
            }
          : filter,
    });
  }

  /**
   * Sends the meta-tools, the agent's tools and the loaded tools for this step. When the run's
   * `abortSignal` aborts while a slow store, filter or ranker is consulted, the step ends at
   * once with the signal's reason (not after `storeTimeoutMs` or `filterTimeoutMs`).
   */
  processInputStep(args: ProcessInputStepArgs): Promise<{ tools: Record<string, unknown> }> {
    return abortable(args.abortSignal ?? undefined, () => this.#prepareStep(args));
  }

  async #prepareStep(args: ProcessInputStepArgs): Promise<{ tools: Record<string, unknown> }> {
    const runState = this.#runFor(args);
    // Before prepareStep, and with the request of the previous step: the guard judges the calls
    // against the step they were made in.
    await this.#answerRefusedCalls(args, runState);
    // A processor before this one may hand over a new tools object each step (Mastra documents
    // `({ tools }) => ({ tools: { ...tools, extra } })`): the same tools keep the run's request;
    // other tools (one added or removed) get a request of their own, for the rest of the run.
    if (!sameTools(runState.current.tools, args.tools)) runState.current = this.#startRequest(args);
    const { request, metaTools } = runState.current;
    const records = this.#contextStorage ? toConversationRecords(args.messages) : undefined;
    runState.records = records;
    runState.plannedAt = this.#restores;
    const plan = await request.prepareStep(records ? { records } : undefined);
    args.messageList?.addSystem(this.#engine.instructions);
    if (this.#injectCatalog && args.messageList) {
      const listing = await request.catalogInstructions();
      if (listing !== undefined) args.messageList.addSystem(listing);
    }
    const loaded = new Set(plan.loaded.map((entry) => entry.descriptor.name));
    const tools: Record<string, unknown> = {};
    for (const name of plan.visible) {
      const tool = metaTools.get(name) ?? request.resolve(name)?.tool;
      if (tool !== undefined)
        tools[name] = loaded.has(name) ? this.#guardedLoaded(runState, name, sentAsLoaded(tool)) : tool;
    }
    runState.sent = namesMastraFinds(tools);
    return { tools };
  }

  /**
   * The loaded tools of the request's thread, for the Mastra `Agent` to rebuild their
   * executors before a run or when it resumes after an approval (paths that do not go
   * through `processInputStep`). `tools` are the request's resolved tools: a loaded catalog
   * tool that one of them shares a name with is left out (the agent's own tool wins, as on
   * every step; a `tool-rejected` event, reason `duplicate-name`, reports it once).
   */
  async getLoadedToolsForRequestContext(args?: {
    requestContext?: RequestContext;
    stepArgs?: ProcessInputStepArgs;
    tools?: Record<string, unknown>;
  }): Promise<Record<string, AnyTool>> {
    this.#restores++;
    const requestContext = args?.requestContext ?? args?.stepArgs?.requestContext;
    const tools = args?.stepArgs ? this.#agentTools(args.stepArgs.tools, requestContext) : args?.tools;
    const entries = toCatalogEntries(tools);
    const request = this.#engine.startRequest({
      threadId: resolveThreadId(requestContext),
      requestContext,
      ...(this.#includeResolvedTools
        ? { requestTools: entries }
        : // Only the agent's tools named like a catalog tool can shadow a loaded one; the others
          // would only repeat the first step's filter calls and events.
          { alwaysOn: entries.filter((entry) => this.#staticNames.has(entry.descriptor.name)) }),
    });
    const records =
      this.#contextStorage && args?.stepArgs ? toConversationRecords(args.stepArgs.messages) : undefined;
    const plan = await request.prepareStep({ modelStep: false, ...(records ? { records } : {}) });
    const loaded: Record<string, AnyTool> = {};
    const restoredStatic = new Set<string>();
    for (const entry of plan.loaded) {
      loaded[entry.descriptor.name] = entry.tool as AnyTool;
      if (this.#staticEntries.has(catalogEntryOf(entry))) restoredStatic.add(entry.descriptor.name);
    }
    if (isObject(requestContext)) this.#restored.set(requestContext, restoredStatic);
    return loaded;
  }

  /** Forgets the loaded tools of one thread ('default' when none is given). */
  clearState(threadId?: string): StateResult<TStorage, void> {
    return this.#engine.clearState(threadId) as StateResult<TStorage, void>;
  }

  /** Forgets the loaded tools of every thread. */
  clearAllState(): StateResult<TStorage, void> {
    return this.#engine.clearAllState() as StateResult<TStorage, void>;
  }

  /** Threads held and the least recent access time (zeros with 'context' storage). */
  getStateStats(): StateResult<TStorage, StoreStats> {
    return this.#engine.getStateStats() as StateResult<TStorage, StoreStats>;
  }

  /** Removes expired threads now; returns how many were removed (0 with 'context' storage). */
  cleanupNow(): StateResult<TStorage, number> {
    return this.#engine.cleanupNow() as StateResult<TStorage, number>;
  }

  /** Stops the TTL timer and releases the in-memory state; safe to call twice. */
  dispose(): StateResult<TStorage, void> {
    return this.#engine.dispose() as StateResult<TStorage, void>;
  }

  /**
   * Mastra answers a call to a tool the previous step was not sent with its own "not found"
   * error and runs nothing. Before the model sees that answer, it is replaced, in the message
   * list (so memory keeps it too), by the engine's guard message, which tells the model what
   * to do: search then load, or call again a tool it loaded in that same step.
   */
  async #answerRefusedCalls(args: ProcessInputStepArgs, runState: RunState): Promise<void> {
    const { sent, checked } = runState;
    const { request } = runState.current;
    const messageList = args.messageList;
    if (sent === undefined || !messageList || !Array.isArray(args.steps)) return;
    const calls = (args.steps.at(-1) as { toolCalls?: unknown } | undefined)?.toolCalls;
    if (!Array.isArray(calls)) return;
    const refused = new Set<string>();
    for (const call of calls as unknown[]) {
      if (!isObject(call)) continue;
      const { toolCallId, toolName, providerExecuted } = call as Record<string, unknown>;
      if (typeof toolCallId !== 'string' || typeof toolName !== 'string' || providerExecuted === true)
        continue;
      if (checked.has(toolCallId)) continue;
      checked.add(toolCallId);
      // Mastra ran it (by its key or, as Mastra also finds tools, by its id): asking the guard
      // records the use, so maxLoadedTools evicts the least recently used tool, as in the other
      // adapters (which guard every call they execute).
      const key = sent.get(toolName);
      if (key !== undefined) await request.guard(key);
      else refused.add(toolCallId);
    }
    if (refused.size === 0) return;
    for (const part of findErroredInvocations(args.messages, refused)) {
      // A tool this processor did not send may still have run: one that a later processor (or the
      // run's prepareStep, which Mastra runs after the input processors) added to the step. Its
      // own error is kept; only Mastra's answer for a tool the step did not have is replaced.
      const named = notFoundToolName(part);
      if (named === undefined) continue;
      const decision = await request.guard(named);
      // A name Mastra could not keep (`functions.getWeather`) shows in the conversation as its
      // placeholder; its answer quotes the name as written and asks for exact names, which tells
      // the model more than a guard message about the placeholder would.
      if (named !== part.toolInvocation.toolName) continue;
      if (decision.allowed || decision.message === undefined) continue;
      messageList.updateToolInvocation({
        ...part,
        toolInvocation: { ...part.toolInvocation, errorText: decision.message },
      });
    }
  }

  /**
   * The state of this step's run: Mastra's per-run `state` object for this processor is the key
   * (kept here, per processor instance, so two instances sharing the id 'tool-search' keep apart).
   * Without one, the run's message list is.
   */
  #runFor(args: ProcessInputStepArgs): RunState {
    const key = isObject(args.state) ? args.state : isObject(args.messageList) ? args.messageList : undefined;
    const kept = key ? this.#runs.get(key) : undefined;
    if (kept && kept.requestContext === args.requestContext) return kept;
    const created: RunState = {
      requestContext: args.requestContext,
      current: this.#startRequest(args),
      sent: undefined,
      checked: new Set(),
      plannedAt: this.#restores,
      records: undefined,
      guarded: new WeakMap(),
    };
    if (key) this.#runs.set(key, created);
    return created;
  }

  /** The agent's own tools among a step's tools: without the static tools restored as loaded ones. */
  #agentTools(
    tools: Record<string, unknown> | undefined,
    requestContext: RequestContext | undefined,
  ): Record<string, unknown> {
    const restored = isObject(requestContext) ? this.#restored.get(requestContext) : undefined;
    const own: Record<string, unknown> = {};
    for (const [name, tool] of Object.entries(tools ?? {})) {
      // A static tool restored by getLoadedToolsForRequestContext is a loaded tool, not the agent's.
      if (!restored?.has(name)) own[name] = tool;
    }
    return own;
  }

  /**
   * A loaded tool as sent at a step, its `execute` guarded. Mastra runs an approved call when the
   * run resumes with the tools of the step that made the call, without a step of this processor:
   * the filter (or the load state) may have changed since. Such a call (any call made after a run
   * started or resumed since the step was planned) is judged again by a new engine request, which
   * asks the filter afresh; refused, it does not run and the model gets the guard's message.
   */
  #guardedLoaded(runState: RunState, name: string, tool: unknown): unknown {
    if (!isObject(tool)) return tool;
    const execute = (tool as { execute?: unknown }).execute;
    if (typeof execute !== 'function') return tool;
    const kept = runState.guarded.get(tool);
    if (kept !== undefined) return kept;
    const processor = this;
    const guarded = withFields(tool as { execute?: unknown }, {
      execute(this: unknown, ...callArgs: unknown[]) {
        if (runState.plannedAt === processor.#restores) return execute.apply(this, callArgs);
        return (async () => {
          const request = runState.current.restart();
          await request.prepareStep({
            modelStep: false,
            ...(runState.records ? { records: runState.records } : {}),
          });
          const decision = await request.guard(name);
          if (!decision.allowed) throw new Error(decision.message ?? `Tool "${name}" is not available.`);
          return execute.apply(this, callArgs);
        })();
      },
    });
    runState.guarded.set(tool, guarded);
    return guarded;
  }

  /** An engine request for the step's tools, with the meta-tools bound to it. */
  #startRequest(args: ProcessInputStepArgs): RunRequest {
    const requestContext = args.requestContext;
    const entries = toCatalogEntries(this.#agentTools(args.tools, requestContext));
    const requestOptions = {
      threadId: resolveThreadId(requestContext),
      requestContext,
      ...(this.#includeResolvedTools ? { requestTools: entries } : { alwaysOn: entries }),
    };
    const request = this.#engine.startRequest(requestOptions);
    const metaTools = new Map<string, MetaTool>();
    for (const definition of this.#engine.metaTools) {
      const run =
        definition.name === LOAD_TOOL_NAME
          ? (input: unknown, options: MetaToolCallOptions) => request.loadTool(input, options)
          : (input: unknown, options: MetaToolCallOptions) => request.searchTools(input, options);
      metaTools.set(definition.name, createMetaTool(definition, run));
    }
    return {
      request,
      restart: () => this.#engine.startRequest(requestOptions),
      metaTools,
      tools: args.tools,
    };
  }
}

/** The same names in the same order, each the same tool object (a copy of the record is the same tools). */
function sameTools(
  kept: Record<string, unknown> | undefined,
  given: Record<string, unknown> | undefined,
): boolean {
  if (kept === given) return true;
  if (!isObject(kept) || !isObject(given)) return false;
  const keptNames = Object.keys(kept);
  const givenNames = Object.keys(given);
  if (keptNames.length !== givenNames.length) return false;
  for (let index = 0; index < keptNames.length; index++) {
    const name = keptNames[index]!;
    if (givenNames[index] !== name || kept[name] !== given[name]) return false;
  }
  return true;
}

/** A provider tool's names the model calls it by (`openai.web_search` → `web_search`), as Mastra matches them. */
function providerToolNames(tool: unknown): string[] {
  if (!isObject(tool)) return [];
  const { type, id, name } = tool as { type?: unknown; id?: unknown; name?: unknown };
  if ((type !== 'provider' && type !== 'provider-defined') || typeof id !== 'string') return [];
  const names = [id.split('.').slice(1).join('.')];
  if (typeof name === 'string') names.push(name);
  return names.filter((candidate) => candidate.length > 0);
}

/**
 * Every name under which Mastra's tool-call step finds one of these tools, to the tool's key: its
 * key first, then a provider tool's name, then any tool's `id`; the first tool in order wins, as
 * in Mastra's lookup.
 */
function namesMastraFinds(tools: Record<string, unknown>): Map<string, string> {
  const names = new Map<string, string>();
  const entries = Object.entries(tools);
  for (const [key] of entries) names.set(key, key);
  for (const [key, tool] of entries)
    for (const name of providerToolNames(tool)) if (!names.has(name)) names.set(name, key);
  for (const [key, tool] of entries) {
    const id = isObject(tool) ? (tool as { id?: unknown }).id : undefined;
    if (typeof id === 'string' && !names.has(id)) names.set(id, key);
  }
  return names;
}

/** Mastra's answer for a call to a tool the step did not have (its `ToolNotFoundError`), and the name it quotes. */
const TOOL_NOT_FOUND_ANSWER = /^Tool "([\s\S]*)" not found\./;
/** The names Mastra keeps in its messages; it stores any other tool name as a placeholder (`unknown_tool`). */
const KEPT_TOOL_NAME = /^[\w-]+$/;

/**
 * The tool name, as the model wrote it, when an errored invocation holds Mastra's answer for a
 * call to a tool the step did not have (`Tool "x" not found. …`); undefined when it holds the
 * error of a tool that ran. Mastra 1.71 keeps no other mark of it: the error reaches the message
 * list and the step's results only as this text (the invocation itself holds Mastra's placeholder
 * for a name it could not keep). Should the text change, the answer is left as Mastra's.
 */
function notFoundToolName(part: ToolInvocationPart): string | undefined {
  const { toolName } = part.toolInvocation;
  const errorText = (part.toolInvocation as { errorText?: unknown }).errorText;
  if (typeof errorText !== 'string') return undefined;
  const named = TOOL_NOT_FOUND_ANSWER.exec(errorText)?.[1];
  return named !== undefined && (named === toolName || !KEPT_TOOL_NAME.test(named)) ? named : undefined;
}

/** The tool invocations with these call ids that ended in an error, newest messages first. */
function findErroredInvocations(
  messages: readonly StoredMessage[] | undefined,
  toolCallIds: ReadonlySet<string>,
): ToolInvocationPart[] {
  const found: ToolInvocationPart[] = [];
  if (!Array.isArray(messages)) return found;
  const wanted = new Set(toolCallIds);
  for (let index = messages.length - 1; index >= 0 && wanted.size > 0; index--) {
    const message = messages[index];
    if (message?.role !== 'assistant' || !Array.isArray(message.content?.parts)) continue;
    for (const part of message.content.parts) {
      if (part?.type !== 'tool-invocation' || !wanted.has(part.toolInvocation.toolCallId)) continue;
      wanted.delete(part.toolInvocation.toolCallId);
      if (part.toolInvocation.state === 'output-error') found.push(part);
    }
  }
  return found;
}
