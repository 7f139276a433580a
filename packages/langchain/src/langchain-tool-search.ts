import type { BaseMessage, ToolCall } from '@langchain/core/messages';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import type { ServerTool, ToolRuntime } from '@langchain/core/tools';
import { tool as langchainTool } from '@langchain/core/tools';
import type { JSONSchema } from '@langchain/core/utils/json_schema';
import {
  abortable,
  type CatalogEntry,
  checkThreadId,
  createStateControls,
  createToolSearchEngine,
  isMetaToolName,
  LOAD_TOOL_NAME,
  type LoadToolOutput,
  loadProof,
  type MetaToolDefinition,
  normalizeThreadId,
  SEARCH_TOOLS_NAME,
  type SearchToolsOutput,
  type StepPlan,
  type ToolSearchEngine,
  type ToolSearchRequest,
  withFields,
} from '@tool-search/core';
import {
  ANTHROPIC_TOOL_CHANGE_BETAS,
  anthropicMessages,
  boundAsDeferred,
  checkNativeOption,
  modelProviderOf,
  type NativeProvider,
  openaiMessages,
  openaiSearchTool,
  referredIn,
  searchResultContent,
} from './native-mode';
import type { LangChainTool, ToolSearchOptions, ToolSearchStateControls } from './options';
import { isClientTool, toCatalogEntries, toCatalogEntry } from './to-catalog-entries';
import { LOAD_PROOF_KEY, toConversationRecords } from './to-conversation-records';
import { recordSuccess } from './use-recorder';

/** Any tool a LangChain model can be bound to: an executable tool or a provider's tool spec. */
export type BindableTool = LangChainTool | ServerTool;

/** One model call's view of tool search: the engine request and what the model is sent. */
export interface PreparedStep {
  readonly request: ToolSearchRequest<LangChainTool>;
  readonly plan: StepPlan<LangChainTool>;
  /** The tools to bind, in order: meta-tools, the caller's own tools, provider tools, loaded tools. */
  readonly tools: BindableTool[];
  /** The caller's own tools the step was planned with, by name (as they were when it was planned). */
  readonly ownByName: ReadonlyMap<string, LangChainTool>;
  /** The provider whose deferred loading the step uses (native mode), or undefined in the default mode. */
  readonly native: NativeProvider | undefined;
  /** The system-prompt paragraph for the step's meta-tools. */
  readonly instructions: string;
  /**
   * The conversation as this step's model must be handed it: as given in the default mode; in
   * native mode with the references translated for the provider's LangChain package, and the
   * tools the thread loaded in earlier calls announced after the last user message.
   */
  readonly toModelMessages: (messages: readonly BaseMessage[]) => BaseMessage[];
  /** Provider beta flags the step needs (Anthropic's mid-conversation tool additions), to bind with the tools. */
  readonly betas: readonly string[];
}

export interface StepInput<TContext> {
  /** The thread as the engine keys it ({@link threadOf}). */
  readonly threadId: string;
  readonly requestContext: TContext | undefined;
  /** The tools offered to this model call besides the catalog (the agent's own, provider tools). */
  readonly tools: readonly BindableTool[];
  /** The conversation so far (read with 'context' storage only). */
  readonly messages: readonly BaseMessage[];
  /** False when the step is planned again to judge a tool call, not for a model call: no 'step' event. */
  readonly modelStep?: boolean;
  /** The chat model of the call, read by the `native` option (which provider, if any). */
  readonly model?: unknown;
}

/**
 * What a model call is offered besides the catalog, sorted once per tools array and contents:
 * LangChain hands every model call the same array, so while its tools stay the same the step
 * reuses this (and with includeResolvedTools the engine gets the same entries array: its index is
 * never rebuilt). A caller may refill its array in place between calls (a middleware before this
 * one, or a binder caller, reusing one array per session): the array is compared with the copy
 * taken when it was sorted, tool by tool, and sorted again when any tool differs.
 */
interface Offered {
  /** The array's tools when it was sorted (a copy: the caller's array may change in place). */
  readonly snapshot: readonly BindableTool[];
  readonly providerTools: readonly BindableTool[];
  readonly ownByName: ReadonlyMap<string, LangChainTool>;
  readonly entries: readonly CatalogEntry<LangChainTool>[];
}

/** True when both lists hold the same tools (by identity) in the same order. */
function sameTools(a: readonly BindableTool[], b: readonly BindableTool[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/** Threads whose chat model's provider id is remembered (least recently planned go first). */
const MAX_THREAD_PROVIDERS = 10_000;

/** Loaded tools as bound, per tool: the same copy every step. */
const boundCopies = new WeakMap<LangChainTool, LangChainTool>();

/**
 * A loaded tool as tool search binds it: without `extras.defer_loading`, which LangChain's
 * Anthropic and OpenAI chat models send on, and which would hide the tool again behind the
 * provider's own tool search. A copy (same prototype and fields) when it had it.
 */
function boundAsLoaded(tool: LangChainTool): LangChainTool {
  const extras = (tool as { extras?: Record<string, unknown> }).extras;
  if (extras?.defer_loading !== true) return tool;
  let copy = boundCopies.get(tool);
  if (copy === undefined) {
    const { defer_loading: _deferred, ...rest } = extras;
    copy = withFields(tool as LangChainTool & { extras?: Record<string, unknown> }, { extras: rest });
    boundCopies.set(tool, copy);
  }
  return copy;
}

/**
 * True when a meta-tool's result is a failure for the model: it reports one (`success: false`)
 * and found none of the tools it was asked for. A `load_tool` that loaded some names and missed
 * others reports `success: false` too (the core's result, which the Mastra adapter keeps), but the
 * found names are loaded and its message names the missing ones: a success for the model.
 */
function reportsFailure(output: SearchToolsOutput | LoadToolOutput): boolean {
  if (!('success' in output) || output.success !== false) return false;
  return (output.loaded?.length ?? 0) === 0 && (output.alreadyLoaded?.length ?? 0) === 0;
}

/**
 * The tool message LangChain would write for a meta-tool's result. With 'context' storage, a
 * result that loads something also keeps its {@link loadProof} in `response_metadata`:
 * `contextEditingMiddleware` replaces old tool results with a placeholder but keeps their
 * metadata, and the load still counts.
 */
function metaToolMessage(
  call: ToolCall,
  output: SearchToolsOutput | LoadToolOutput,
  keepProof: boolean,
): ToolMessage {
  const proof = keepProof ? loadProof(call.name, output) : undefined;
  return new ToolMessage({
    content: searchResultContent(JSON.stringify(output), referredBy(output)),
    tool_call_id: call.id ?? '',
    name: call.name,
    status: reportsFailure(output) ? 'error' : 'success',
    ...(proof ? { response_metadata: { [LOAD_PROOF_KEY]: proof } } : {}),
  });
}

/** The tools a search result refers to the provider (native mode), in order. */
function referredBy(output: SearchToolsOutput | LoadToolOutput): readonly string[] {
  return 'referred' in output && Array.isArray(output.referred) ? output.referred : [];
}

/**
 * A run's thread as the engine keys it: a string, or a number or bigint as its string; none
 * (missing, `null`) is the shared 'default' thread. Any other type (an object id, a boolean,
 * `NaN`) is refused with `INVALID_OPTIONS` naming `source`: taken as none, it would share the
 * 'default' thread, so one user could run the tools another loaded.
 */
export function threadOf(threadId: unknown, source: string): string {
  checkThreadId(threadId, source);
  return normalizeThreadId(threadId);
}

/** A LangGraph run's thread: its `configurable.thread_id`, checked as {@link threadOf} checks it. */
export function runThread(threadId: unknown): string {
  return threadOf(threadId, 'configurable.thread_id');
}

/** The index of the (last) AI message that made `toolCallId`, or -1. */
function indexOfCall(messages: readonly BaseMessage[], toolCallId: string | undefined): number {
  if (toolCallId === undefined) return -1;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (AIMessage.isInstance(message) && message.tool_calls?.some((call) => call.id === toolCallId)) {
      return index;
    }
  }
  return -1;
}

/** The AI message that made `toolCallId`, if the messages hold it. */
export function messageWithCall(
  messages: readonly BaseMessage[],
  toolCallId: string | undefined,
): AIMessage | undefined {
  const index = indexOfCall(messages, toolCallId);
  return index === -1 ? undefined : (messages[index] as AIMessage);
}

/** The messages before the AI message that made `toolCallId`: what the model saw when it made the call. */
export function messagesBeforeCall(
  messages: readonly BaseMessage[],
  toolCallId: string | undefined,
): readonly BaseMessage[] {
  const index = indexOfCall(messages, toolCallId);
  return index === -1 ? messages : messages.slice(0, index);
}

/**
 * The housekeeping both bindings offer: the engine's, with 'context' storage reading a thread's
 * loads from its messages.
 */
function stateControlsOf(
  engine: ToolSearchEngine<LangChainTool, never>,
  contextStorage: boolean,
): ToolSearchStateControls {
  return {
    ...createStateControls(engine),
    getLoadedToolNames: (threadId, messages) =>
      engine.getLoadedToolNames(
        threadId,
        messages && contextStorage ? toConversationRecords(messages) : undefined,
      ),
  };
}

/**
 * The translation both LangChain bindings share: LangChain tools and messages in, the engine's
 * step plan out as the tools to bind, tool calls in, tool messages out. Holds no policy.
 */
export function createLangChainToolSearch<TContext>(options: ToolSearchOptions<TContext>) {
  const { tools, includeResolvedTools = false, native: nativeGiven, ...engineOptions } = options;
  const native = checkNativeOption(nativeGiven, 'tool search');
  const catalog = toCatalogEntries(tools);
  const catalogByName = new Map(catalog.map((entry) => [entry.descriptor.name, entry.tool]));
  /** The catalog's tools, as given. */
  const catalogTools: readonly LangChainTool[] = catalog.map((entry) => entry.tool);
  const engine: ToolSearchEngine<LangChainTool, TContext> = createToolSearchEngine<LangChainTool, TContext>({
    ...engineOptions,
    catalog,
  });
  const contextStorage = engineOptions.storage === 'context';
  const learning = engineOptions.learning !== undefined && engineOptions.learning !== null;

  /** Runs a meta-tool call; aborting `signal` (the run's) ends a slow search or load at once. */
  const runMetaTool = (request: ToolSearchRequest<LangChainTool>, call: ToolCall, signal?: AbortSignal) =>
    call.name === SEARCH_TOOLS_NAME
      ? request.searchTools(call.args, { signal })
      : request.loadTool(call.args, { signal });

  /** Each meta-tool definition wrapped as a LangChain tool, by name and description (the same object every call). */
  const metaWrappers = new Map<string, LangChainTool>();
  /** Every meta-tool wrapper made, so that one handed back among a call's tools is not taken for the caller's own. */
  const wrappers = new Set<LangChainTool>();
  const wrapMetaTool = (definition: MetaToolDefinition): LangChainTool => {
    const key = `${definition.name}\u0000${definition.description}`;
    let wrapped = metaWrappers.get(key);
    if (wrapped === undefined) {
      wrapped = langchainTool(
        // Runs only when called outside tool search's own executors (the middleware and the binder
        // execute meta-tools themselves); then it acts as a call of its own thread.
        async (input: unknown, runtime: ToolRuntime) => {
          const call: ToolCall = {
            name: definition.name,
            args: input as Record<string, unknown>,
            id: runtime.toolCallId,
          };
          const state = runtime.state as { messages?: BaseMessage[] } | undefined;
          const { request } = await prepareStep({
            modelStep: false,
            threadId: runThread(runtime.configurable?.thread_id),
            requestContext: runtime.context as TContext | undefined,
            tools: [],
            messages: messagesBeforeCall(state?.messages ?? [], runtime.toolCallId),
          });
          const decision = await request.guard(definition.name);
          if (!decision.allowed) return decision.message ?? '';
          return runMetaTool(request, call, runtime.signal);
        },
        {
          name: definition.name,
          description: definition.description,
          schema: definition.inputSchema as JSONSchema,
        },
      );
      metaWrappers.set(key, wrapped);
      wrappers.add(wrapped);
    }
    return wrapped;
  };
  /** The engine's meta-tools as LangChain tools (what the default mode binds). */
  const metaTools: LangChainTool[] = engine.metaTools.map(wrapMetaTool);
  const metaNames = new Set(metaTools.map((tool) => tool.name));

  /**
   * The chat model's provider id per thread, as its latest model call had it: a tool call judged
   * again away from its model call (another process, a resumed run) is planned in the same mode.
   */
  const providerOfThread = new Map<string, string>();
  const modelProviderFor = (input: StepInput<TContext>): string | undefined => {
    if (input.model === undefined) return providerOfThread.get(input.threadId);
    const id = modelProviderOf(input.model);
    providerOfThread.delete(input.threadId);
    providerOfThread.set(input.threadId, id);
    if (providerOfThread.size > MAX_THREAD_PROVIDERS) {
      providerOfThread.delete(providerOfThread.keys().next().value as string);
    }
    return id;
  };

  const offeredCache = new WeakMap<readonly BindableTool[], Offered>();
  const sortOffered = (tools: readonly BindableTool[]): Offered => {
    const cached = offeredCache.get(tools);
    if (cached && sameTools(cached.snapshot, tools)) return cached;
    const own = tools.filter((tool): tool is LangChainTool => isClientTool(tool) && !wrappers.has(tool));
    const ownByName = new Map<string, LangChainTool>();
    for (const tool of own) if (!ownByName.has(tool.name)) ownByName.set(tool.name, tool);
    const offered: Offered = {
      snapshot: [...tools],
      providerTools: tools.filter((tool) => !isClientTool(tool)),
      ownByName,
      entries: own.map(toCatalogEntry),
    };
    offeredCache.set(tools, offered);
    return offered;
  };

  async function prepareStep(input: StepInput<TContext>): Promise<PreparedStep> {
    const offered = sortOffered(input.tools);
    const request = engine.startRequest({
      threadId: input.threadId,
      requestContext: input.requestContext,
      ...(includeResolvedTools ? { requestTools: offered.entries } : { alwaysOn: offered.entries }),
      ...(native ? { native: { provider: native, modelProvider: modelProviderFor(input) } } : {}),
    });
    const plan = await request.prepareStep({
      ...(input.modelStep === false ? { modelStep: false } : {}),
      ...(contextStorage ? { records: toConversationRecords(input.messages) } : {}),
    });

    const requestMeta = new Map(
      request.metaTools.map((definition) => [definition.name, wrapMetaTool(definition)]),
    );
    const metaDefinition = (name: string) => request.metaTools.find((definition) => definition.name === name);
    const provider = plan.native?.provider;
    const loadedByName = new Map(plan.loaded.map((entry) => [entry.descriptor.name, entry.tool]));
    const head: BindableTool[] = [];
    const tail: BindableTool[] = [];
    for (const name of plan.visible) {
      const meta = requestMeta.get(name);
      const loaded = meta ? undefined : loadedByName.get(name);
      const ownTool = meta || loaded ? undefined : offered.ownByName.get(name);
      // OpenAI's deferred functions are searched through its client-executed tool_search tool.
      if (meta && provider === 'openai' && name === SEARCH_TOOLS_NAME)
        head.push(openaiSearchTool(metaDefinition(name)!));
      else if (meta) head.push(meta);
      // In native mode a loaded catalog tool is already bound, deferred, with the whole catalog.
      else if (loaded && provider && catalogByName.get(name) === loaded) continue;
      // The caller's own tool (includeResolvedTools) is bound as given: createAgent refuses a
      // registered tool replaced by another instance, so only catalog tools lose defer_loading.
      else if (loaded) tail.push(offered.ownByName.get(name) === loaded ? loaded : boundAsLoaded(loaded));
      else if (ownTool) head.push(ownTool);
    }
    const base = { request, plan, ownByName: offered.ownByName, instructions: request.instructions };
    if (!provider || !plan.native) {
      // Provider tools go before the loaded ones, so a step's tool list stays a prefix of the next one's.
      return {
        ...base,
        native: undefined,
        tools: [...head, ...offered.providerTools, ...tail],
        toModelMessages: (messages) => [...messages],
        betas: [],
      };
    }
    // Native mode: every catalog tool, deferred, in catalog order, on every call of the thread
    // (a name the caller's own tools or the meta-tools hold is theirs, as in the default mode).
    const deferred = catalogTools
      .filter((tool) => !offered.ownByName.has(tool.name) && !metaNames.has(tool.name))
      .map(boundAsDeferred);
    const additions = addedAtCallStart(plan.native.restore, input.messages);
    return {
      ...base,
      native: provider,
      tools: [...head, ...offered.providerTools, ...deferred, ...tail],
      toModelMessages: (messages) =>
        provider === 'anthropic'
          ? anthropicMessages(messages, additions)
          : openaiMessages(messages, additions, (name) => catalogByName.get(name)),
      betas: provider === 'anthropic' && additions.length > 0 ? ANTHROPIC_TOOL_CHANGE_BETAS : [],
    };
  }

  /**
   * The tools the thread had loaded when this model call began (the engine's `restore`) that the
   * conversation does not refer already: loaded in an earlier call whose messages this call does
   * not have (no checkpointer, or trimmed). LangChain plans each model call on its own, so this
   * call's own references are in `restore` from its second step on; they are in its messages
   * too, and left out, so the list is the same on every step of the call. Catalog tools only:
   * a request tool loaded earlier is bound as in the default mode.
   */
  function addedAtCallStart(restore: readonly string[], messages: readonly BaseMessage[]): string[] {
    const referred = referredIn(messages);
    return restore.filter((name) => catalogByName.has(name) && !referred.has(name));
  }

  /**
   * The meta-tool calls running on each step's request. A call of a tool the step does not show
   * waits for those already running before the guard judges it: LangChain runs a message's calls
   * in parallel, and a `load_tool` listed before the call in the same message has then loaded its
   * tool, so the model is told to call it again from the next step (not to search and load it
   * again), as in the other adapters, however fast the store answers.
   */
  const metaRuns = new WeakMap<ToolSearchRequest<LangChainTool>, Set<Promise<void>>>();

  /**
   * Runs one tool call of a step: the guard first (a tool not visible in the step never runs),
   * then a meta-tool through the engine, or any other tool through `execute` (given the catalog
   * or request instance the name resolves to, or undefined for the caller's own tool). Aborting
   * `signal` (the run's) ends a meta-tool's slow search or load at once.
   */
  function runToolCall<TResult>(
    request: ToolSearchRequest<LangChainTool>,
    call: ToolCall,
    execute: (tool: LangChainTool | undefined) => Promise<TResult>,
    signal?: AbortSignal,
  ): Promise<TResult | ToolMessage> {
    const running = judgeAndRun(request, call, execute, signal);
    if (isMetaToolName(call.name)) {
      let runs = metaRuns.get(request);
      if (runs === undefined) {
        runs = new Set();
        metaRuns.set(request, runs);
      }
      const settled = running.then(
        () => {},
        () => {},
      );
      runs.add(settled);
      void settled.then(() => runs.delete(settled));
    }
    return running;
  }

  async function judgeAndRun<TResult>(
    request: ToolSearchRequest<LangChainTool>,
    call: ToolCall,
    execute: (tool: LangChainTool | undefined) => Promise<TResult>,
    signal?: AbortSignal,
  ): Promise<TResult | ToolMessage> {
    const runs = metaRuns.get(request);
    if (runs !== undefined && runs.size > 0 && !isMetaToolName(call.name) && !request.resolve(call.name)) {
      await abortable(signal, () => Promise.all(runs));
    }
    const decision = await request.guard(call.name);
    if (!decision.allowed) {
      return new ToolMessage({
        content: decision.message ?? `Tool "${call.name}" is not available in this step.`,
        tool_call_id: call.id ?? '',
        name: call.name,
        status: 'error',
      });
    }
    if (call.name === SEARCH_TOOLS_NAME || call.name === LOAD_TOOL_NAME) {
      return metaToolMessage(call, await runMetaTool(request, call, signal), contextStorage);
    }
    const entry = request.resolve(call.name);
    const result = await execute(entry?.tool);
    // A catalog (or request) tool's call that succeeded is evidence for learning; the agent's own
    // tools are never search results. The result goes on unchanged.
    if (learning && entry) recordSuccess(request, call, result, signal);
    return result;
  }

  const controls = stateControlsOf(engine, contextStorage);

  return { engine, metaTools, catalogTools, prepareStep, runToolCall, controls };
}
