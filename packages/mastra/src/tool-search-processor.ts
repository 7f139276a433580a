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
  type Learning,
  LOAD_TOOL_NAME,
  type LoadStateStore,
  type MaybePromise,
  type MetaToolCallOptions,
  type OptionNamesOf,
  optionsObject,
  type RankerFactory,
  SEARCH_TOOLS_NAME,
  type StepPlan,
  type StoreStats,
  type ToolSearchEngine,
  ToolSearchError,
  type ToolSearchEventListener,
  type ToolSearchRequest,
  withFields,
} from '@tool-search/core';
import { reportingSuccess, reportSuccess } from './call-success';
import { ownTools, toCatalogEntries } from './catalog-entries';
import { toConversationRecords } from './conversation-records';
import { findErroredInvocations, notFoundToolName } from './errored-invocations';
import { createMetaTool } from './meta-tool';
import {
  anthropicReferences,
  checkNativeOption,
  deferredTool,
  modelProviderOf,
  type NativeOption,
  openaiSearchTool,
  referredInMessages,
} from './native-mode';
import { namesMastraFinds, sameTools, sentAsLoaded } from './step-tools';
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
  /** The tool's `metadata`, for a lazily resolved tool (an MCP tool's server and annotations). */
  metadata?: Readonly<Record<string, unknown>>;
}

/**
 * The processor's options. Without a type argument they take Mastra's two storage modes, as
 * Mastra's options type does, so a processor made from them answers its state methods
 * synchronously; name a custom store in the type (`ToolSearchProcessorOptions<LoadStateStore>`)
 * to pass one.
 */
export interface ToolSearchProcessorOptions<TStorage extends ToolSearchStorage = 'in-memory' | 'context'> {
  /** Every tool that can be searched and loaded, hidden until loaded; a `LazyTool` is resolved per request on load. */
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
  /** Learning from use (`createLearning()`): a search, then a successful call of a tool it found, ranks that tool later. */
  learning?: Learning;
  /** Time source for TTLs (tests pass a fake clock). */
  clock?: Clock;
  /** Search, load, deny, evict, step, tool-rejected, filter-error, store-error, search-error and (with `learning`) evidence events. */
  onEvent?: ToolSearchEventListener;
  /** Bound on a store call before it fails (default 2,000 ms). */
  storeTimeoutMs?: number;
  /** Bound on a search of an asynchronous ranker before it fails with SEARCH_TIMEOUT (default 10,000 ms). */
  searchTimeoutMs?: number;
  /** Bound on an asynchronous filter decision; past it the tool is refused (FILTER_TIMEOUT; default 10,000 ms). */
  filterTimeoutMs?: number;
  /**
   * Provider-native deferred loading (off by default): every catalog tool is sent on every step
   * with the provider's `deferLoading`, so the tool list never changes, and `search_tools` refers
   * what it finds (Anthropic tool references, OpenAI `additionalTools`), so the model calls a
   * found tool in the same turn. `'auto'` reads the model's provider id (`anthropic.messages`,
   * `openai.responses`); other models run in the default mode (the `mode` event says which).
   */
  native?: NativeOption;
  /** Bound on resolving a lazily resolved tool (RESOLVE_TIMEOUT; default 10,000 ms). */
  resolveTimeoutMs?: number;
}

/** The processor's option names: Mastra's, and the engine's it forwards. */
const PROCESSOR_OPTION_NAMES = {
  tools: true,
  includeResolvedTools: true,
  injectCatalog: true,
  ...FORWARDED_ENGINE_OPTION_NAMES,
  native: true,
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
  /** Native mode: the catalog tools sent deferred in this run, each asking the guard as it runs. */
  readonly deferred: WeakMap<object, unknown>;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
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
  /** With `learning`: a catalog tool's successful call is told to the engine. */
  readonly #learns: boolean;
  readonly #native: NativeOption | undefined;
  readonly #staticEntries: ReadonlySet<CatalogEntry<unknown>>;
  /** Canonical names of the catalog: the names a loaded catalog tool is sent under. */
  readonly #staticNames: ReadonlySet<string>;
  /** The catalog's tools by canonical name (native mode sends them all). */
  readonly #catalogByName: ReadonlyMap<string, unknown>;
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
    this.#catalogByName = new Map(catalog.map((entry) => [entry.descriptor.name, entry.tool]));
    this.#includeResolvedTools = options.includeResolvedTools === true;
    this.#injectCatalog = options.injectCatalog === true;
    this.#contextStorage = options.storage === 'context';
    this.#learns = options.learning !== undefined && options.learning !== null;
    this.#native = checkNativeOption(options.native);
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
      learning: options.learning,
      clock: options.clock,
      onEvent: options.onEvent,
      storeTimeoutMs: options.storeTimeoutMs,
      searchTimeoutMs: options.searchTimeoutMs,
      filterTimeoutMs: options.filterTimeoutMs,
      resolveTimeoutMs: options.resolveTimeoutMs,
      // Only a function is wrapped: anything else goes to the engine as given, which takes null as
      // no filter and refuses the rest (INVALID_OPTIONS), rather than a wrapper that refuses every tool.
      filter:
        typeof filter === 'function'
          ? ({ toolName, tool, requestContext, phase, metadata }) => {
              const id = isObject(tool) ? (tool as { id?: unknown }).id : undefined;
              return filter({
                toolName: typeof id === 'string' && id.length > 0 ? id : toolName,
                name: toolName,
                tool: tool as AnyTool,
                requestContext,
                phase,
                metadata,
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
    args.messageList?.addSystem(request.instructions);
    if (this.#injectCatalog && args.messageList) {
      const listing = await request.catalogInstructions();
      if (listing !== undefined) args.messageList.addSystem(listing);
    }
    const loaded = new Set(plan.loaded.map((entry) => entry.descriptor.name));
    const tools: Record<string, unknown> = {};
    const later: [string, unknown][] = [];
    for (const name of plan.visible) {
      const tool = metaTools.get(name) ?? request.resolve(name)?.tool;
      if (tool === undefined) continue;
      // In native mode the loaded tools go after the whole catalog (a loaded catalog tool is in it).
      if (plan.native && loaded.has(name)) later.push([name, tool]);
      else tools[name] = loaded.has(name) ? this.#guardedLoaded(runState, name, sentAsLoaded(tool)) : tool;
    }
    if (plan.native) this.#sendCatalogDeferred(args, runState, plan.native, tools);
    for (const [name, tool] of later) {
      if (!Object.hasOwn(tools, name)) tools[name] = this.#guardedLoaded(runState, name, sentAsLoaded(tool));
    }
    runState.sent = namesMastraFinds(tools);
    return { tools };
  }

  /**
   * Native mode: every catalog tool, in catalog order, deferred for the provider and guarded as
   * it runs (a name the agent's own tools or the meta-tools hold is theirs).
   * Mastra cannot add a tool mid-conversation (it keeps every system message at the front of the
   * prompt, and refuses one with empty content), so a tool the thread loaded in an earlier call
   * that the conversation does not refer (no memory) is sent without deferral for this call.
   */
  #sendCatalogDeferred(
    args: ProcessInputStepArgs,
    runState: RunState,
    native: NonNullable<StepPlan<unknown>['native']>,
    tools: Record<string, unknown>,
  ): void {
    const referred = referredInMessages(args.messages);
    const restored = new Set(native.restore.filter((name) => !referred.has(name)));
    for (const entry of this.#staticEntries) {
      const name = entry.descriptor.name;
      if (Object.hasOwn(tools, name)) continue;
      if (restored.has(name)) {
        tools[name] = this.#guardedLoaded(runState, name, sentAsLoaded(entry.tool));
        continue;
      }
      let sent = isObject(entry.tool) ? runState.deferred.get(entry.tool) : undefined;
      if (sent === undefined) {
        sent = deferredTool(entry.tool, native.provider, {
          guard: () => runState.current.request.guard(name),
          succeeded: this.#learns ? () => reportSuccess(runState.current.request, name) : undefined,
        });
        if (isObject(entry.tool)) runState.deferred.set(entry.tool, sent);
      }
      tools[name] = sent;
    }
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
      // A deferred catalog tool (native mode) asked the guard itself, before it ran.
      if (key !== undefined && !runState.deferred.has(this.#catalogByName.get(key) ?? runState)) {
        await request.guard(key);
      } else refused.add(toolCallId);
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
      deferred: new WeakMap(),
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
    // The run's request searched: a call judged again on resume asks a new one, which did not.
    const run = reportingSuccess(
      execute,
      this.#learns ? () => reportSuccess(runState.current.request, name) : undefined,
    );
    const guarded = withFields(tool as { execute?: unknown }, {
      execute(this: unknown, ...callArgs: unknown[]) {
        if (runState.plannedAt === processor.#restores) return run(this, callArgs);
        return (async () => {
          const request = runState.current.restart();
          await request.prepareStep({
            modelStep: false,
            ...(runState.records ? { records: runState.records } : {}),
          });
          const decision = await request.guard(name);
          if (!decision.allowed) throw new Error(decision.message ?? `Tool "${name}" is not available.`);
          return run(this, callArgs);
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
      ...(this.#native
        ? { native: { provider: this.#native, modelProvider: modelProviderOf(args.model) } }
        : {}),
    };
    const request = this.#engine.startRequest(requestOptions);
    const metaTools = new Map<string, MetaTool>();
    for (const definition of request.metaTools) {
      const run =
        definition.name === LOAD_TOOL_NAME
          ? (input: unknown, options: MetaToolCallOptions) => request.loadTool(input, options)
          : (input: unknown, options: MetaToolCallOptions) => request.searchTools(input, options);
      if (request.native === 'openai' && definition.name === SEARCH_TOOLS_NAME) {
        // OpenAI: the client-executed tool_search tool, whose output holds the referred definitions.
        const toolOf = (name: string) => this.#catalogByName.get(name);
        metaTools.set(definition.name, openaiSearchTool({ definition, search: run, toolOf }) as MetaTool);
        continue;
      }
      // Anthropic reads a search result's references from its content (`toModelOutput`).
      const toModelOutput =
        request.native === 'anthropic' && definition.name === SEARCH_TOOLS_NAME
          ? anthropicReferences
          : undefined;
      metaTools.set(definition.name, createMetaTool(definition, run, toModelOutput));
    }
    return {
      request,
      restart: () => this.#engine.startRequest(requestOptions),
      metaTools,
      tools: args.tools,
    };
  }
}
