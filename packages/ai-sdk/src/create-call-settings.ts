import {
  abortable,
  type CatalogEntry,
  checkThreadId,
  type GuardDecision,
  isAbortSignal,
  isMetaToolName,
  LOAD_TOOL_NAME,
  type LoadToolInput,
  type LoadToolOutput,
  normalizeThreadId,
  type ReplacedHook,
  type SearchToolsInput,
  type SearchToolsOutput,
  type ToolSearchEngine,
  ToolSearchError,
  type ToolSearchRequest,
} from '@tool-search/core';
import {
  type ModelMessage,
  NoSuchToolError,
  type PrepareStepFunction,
  type PrepareStepResult,
  type Tool,
  type ToolCallRepairFunction,
  type ToolExecutionOptions,
  type ToolSet,
} from 'ai';
import { composePrepareStep } from './compose-prepare-step';
import { isApprovedReplay, refusedWithoutOurRepair, type WarnedHooks, warnReplaced } from './replaced-hooks';
import { ownTools, toCatalogEntry } from './to-catalog-entry';
import { toConversationRecords } from './to-conversation-records';
import { lastValue, sentAsLoaded, toMetaTool, toToolSet, withExecute } from './tool-set';
import { withInstructions } from './with-instructions';

/** The AI SDK's per-call runtime context (`runtimeContext` of generateText / streamText). */
export type RuntimeContext = Record<string, unknown>;

/** The meta-tools as AI SDK tools. With `search.autoLoad`, `load_tool` is never made active. */
export type MetaToolSet = {
  search_tools: Tool<SearchToolsInput, SearchToolsOutput>;
  load_tool: Tool<LoadToolInput, LoadToolOutput>;
};

/** Every tool one call can use: the meta-tools, the always-on tools and the catalog. */
export type ToolSearchToolSet<TOOLS extends ToolSet, ALWAYS_ON extends ToolSet> = MetaToolSet &
  ALWAYS_ON &
  TOOLS;

type ToolName<TOOLS extends ToolSet> = keyof TOOLS & string;

export interface ToolSearchCallOptions<
  REQUEST_CONTEXT = unknown,
  TOOLSET extends ToolSet = ToolSet,
  RUNTIME_CONTEXT extends RuntimeContext = RuntimeContext,
> {
  /**
   * The conversation this call belongs to (a number is the thread of its string). When left out,
   * the call's `runtimeContext.threadId` (a string or a number) is used; calls with neither share
   * the `'default'` thread. A bigint is the thread of its string too; any other type (an object,
   * `NaN`) throws `INVALID_OPTIONS`.
   */
  readonly threadId?: string | number | bigint | null;
  /** Handed to `filter`. When left out, the call's `runtimeContext` is used. */
  readonly requestContext?: REQUEST_CONTEXT;
  /**
   * Tools resolved for this call only (for example MCP tools with the caller's credentials):
   * searchable, hidden until loaded, and a loaded name runs this call's instance.
   */
  readonly requestTools?: ToolSet;
  /**
   * Your own `prepareStep` (an agent's, in `prepareCall`): run after ours on every step, as
   * `composePrepareStep(ours, yours)` would. It may narrow `activeTools`, never widen them.
   */
  readonly prepareStep?: PrepareStepFunction<TOOLSET, RUNTIME_CONTEXT>;
  /**
   * Your own `repairToolCall` (an agent's, in `prepareCall`), combined with ours: it is asked
   * to repair invalid input and names that are no tool of this call (a typo), never a call of a
   * catalog tool that is not loaded or is filtered (that one gets our tool error). What it
   * returns must name a tool that may run in this step, or the model gets our tool error for it.
   */
  readonly repairToolCall?: ToolCallRepairFunction<TOOLSET>;
  /**
   * The call's `abortSignal`, which the SDK does not hand to `prepareStep`: aborting it ends a
   * step that waits on a slow store or filter at once. From the call's first tool call on, the
   * signal the SDK hands its tools is used without it.
   */
  readonly abortSignal?: AbortSignal | null;
}

/**
 * The `prepareStep` of one call: each step's `activeTools` and `toolOrder`, and whatever else
 * the `prepareStep` given to `forCall` returns.
 */
export type ToolSearchPrepareStep<TOOLSET extends ToolSet> = <RUNTIME extends RuntimeContext>(
  options: Parameters<PrepareStepFunction<TOOLSET, RUNTIME>>[0],
) => Promise<
  NonNullable<PrepareStepResult<TOOLSET, RUNTIME>> & {
    activeTools: Array<ToolName<TOOLSET>>;
    toolOrder: Array<ToolName<TOOLSET>>;
  }
>;

/** What one generateText / streamText call (or one agent call, from `prepareCall`) spreads in. */
export interface ToolSearchCallSettings<TOOLSET extends ToolSet> {
  /** The catalog (each tool guarded), the always-on tools and the meta-tools. */
  readonly tools: TOOLSET;
  /** The first step's tools before load state is read: meta-tools, then always-on tools. */
  readonly activeTools: Array<ToolName<TOOLSET>>;
  /** Tools are sent in this order: meta-tools, always-on, loaded in load order. */
  readonly toolOrder: Array<ToolName<TOOLSET>>;
  /**
   * Reads load state before each step and returns that step's `activeTools` and `toolOrder`,
   * and its `instructions`: the call's own, with tool search's paragraph added once.
   */
  readonly prepareStep: ToolSearchPrepareStep<TOOLSET>;
  /**
   * Answers a call to a tool that is not active with a tool error telling the model to search
   * and load it first; the rest goes to the `repairToolCall` given to `forCall`, if any.
   */
  readonly repairToolCall: ToolCallRepairFunction<TOOLSET>;
}

/** What every call of one `createToolSearch` shares. */
export interface CallBinding<REQUEST_CONTEXT> {
  readonly engine: ToolSearchEngine<Tool, REQUEST_CONTEXT>;
  readonly catalogTools: ReadonlyArray<[string, Tool]>;
  readonly alwaysOnTools: ReadonlyArray<[string, Tool]>;
  readonly alwaysOnEntries: readonly CatalogEntry<Tool>[];
  readonly contextStorage: boolean;
  /** Whether the engine has a filter (which reads the request context). */
  readonly filtered: boolean;
  /** Whether the load state is a store of the user's (shared by processes: Redis, say). */
  readonly sharedStore: boolean;
  /** Set once a call of this tool search took its thread from `runtimeContext.threadId`. */
  readonly threads: { fromRuntimeContext: boolean };
  /** Tool search's system-prompt paragraph, added to each call's instructions; none when turned off. */
  readonly instructions: string | undefined;
  /** The hooks a call of this tool search was found to have replaced, warned about once each. */
  readonly warned: WarnedHooks;
}

/**
 * The settings of one call: its tool set (meta-tools bound to this call's request, the
 * always-on tools, the catalog with each `execute` guarded), the first step's `activeTools`,
 * and the `prepareStep` and `repairToolCall` that consult the engine for this call.
 */
export function createCallSettings<REQUEST_CONTEXT>(
  binding: CallBinding<REQUEST_CONTEXT>,
  callOptions: ToolSearchCallOptions<REQUEST_CONTEXT>,
): ToolSearchCallSettings<ToolSet> {
  const { engine, catalogTools, alwaysOnTools, alwaysOnEntries, contextStorage } = binding;
  const userPrepareStep = optionalFunction(callOptions.prepareStep, 'prepareStep');
  const userRepair = optionalFunction(callOptions.repairToolCall, 'repairToolCall');
  checkThreadId(callOptions.threadId, "forCall's threadId");
  const givenSignal = optionalSignal(callOptions.abortSignal);
  const alwaysOnNames = alwaysOnTools.map(([name]) => name);
  const firstStep = [...engine.metaTools.map((definition) => definition.name), ...alwaysOnNames];
  const requestEntries =
    callOptions.requestTools === undefined
      ? undefined
      : ownTools(callOptions.requestTools, 'requestTools').map(([name, tool]) => toCatalogEntry(name, tool));

  // One request per call. It starts at the call's first step (when the runtime context is
  // known) or, for approved tool calls the SDK replays before its first step, at that call.
  let request: ToolSearchRequest<Tool> | undefined;
  let visible: ReadonlySet<string> | undefined;
  /** The request whose plan `visible` is (the one that guards this step's calls). */
  let planned: ToolSearchRequest<Tool> | undefined;
  /**
   * Why the request was started without the call's runtimeContext: for calls the SDK replays
   * before the first step, or because the app's prepareStep replaced ours, which alone is
   * handed the runtimeContext.
   */
  let contextUnknown: 'replay' | 'replaced' | undefined;
  /** Our prepareStep planned the step that the SDK's tool calls now come from. */
  let ourStep = false;
  /**
   * The messages array the SDK hands every tool call and repair of one step (not the one
   * `prepareStep` sees, which a prepareStep may replace): how a later step is told apart.
   */
  let stepMessages: readonly ModelMessage[] | undefined;
  /** The app's prepareStep replaced ours: the SDK no longer sends the tools we choose. */
  let stepsReplaced = false;
  /** The tool calls of the current step that our repair was asked about. */
  const repairedCalls = new Set<string>();
  /** The step's tool choice was 'none', for which the SDK asks no repair. */
  let noToolChoice = false;
  /**
   * The call's abort signal as the SDK handed it to a tool or repair of this call (it does not
   * hand it to `prepareStep`), so that a later step's wait on a slow store or filter ends with it.
   */
  let seenSignal: AbortSignal | undefined;
  const noteSignal = (signal: AbortSignal | undefined): void => {
    if (signal != null) seenSignal = signal;
  };

  const start = (
    runtimeContext: RuntimeContext | undefined,
    unknown?: 'replay' | 'replaced',
  ): ToolSearchRequest<Tool> => {
    contextUnknown = unknown;
    // The core keys the thread: a string, a number as its string, none 'default' (any other
    // type is refused here, as the core would take it as none).
    if (callOptions.threadId === undefined && runtimeContext?.threadId != null) {
      checkThreadId(runtimeContext.threadId, 'runtimeContext.threadId');
      binding.threads.fromRuntimeContext = true;
    }
    const threadId = normalizeThreadId(
      callOptions.threadId !== undefined ? callOptions.threadId : runtimeContext?.threadId,
    );
    const requestContext =
      callOptions.requestContext !== undefined
        ? callOptions.requestContext
        : (runtimeContext as REQUEST_CONTEXT | undefined);
    const started = engine.startRequest({
      threadId,
      requestContext,
      alwaysOn: alwaysOnEntries,
      requestTools: requestEntries,
    });
    request = started;
    visible = undefined;
    return started;
  };

  /** Plans a step; `modelStep: false` for one the app's prepareStep prepared (no 'step' event). */
  const planStep = async (
    current: ToolSearchRequest<Tool>,
    messages: readonly ModelMessage[] | undefined,
    modelStep = true,
  ): Promise<readonly string[]> => {
    const plan = await current.prepareStep({
      ...(contextStorage ? { records: toConversationRecords(messages) } : {}),
      ...(modelStep ? {} : { modelStep }),
    });
    visible = new Set(plan.visible);
    planned = current;
    return plan.visible;
  };

  /**
   * Notes the step a tool call (or repair) of the SDK comes from, by its messages. A step that
   * our prepareStep did not plan (its first call, of a step after the one we planned, or of a
   * call where ours never ran) means the app's prepareStep replaced ours: the step is planned
   * again, so that the guard sees what was loaded, and the engine is told, so that no result
   * promises a loaded tool from the next step. An approved call replayed before the first step
   * is no step's.
   */
  const noteStep = (messages: readonly ModelMessage[] | undefined, toolCallId?: string): void => {
    if (messages === undefined || messages === stepMessages) return;
    if (ourStep && stepMessages === undefined) {
      stepMessages = messages;
      return;
    }
    if (toolCallId !== undefined && isApprovedReplay(toolCallId, messages)) return;
    ourStep = false;
    stepMessages = messages;
    stepsReplaced = true;
    if (contextUnknown === 'replay') contextUnknown = 'replaced';
    visible = undefined;
  };

  /** The request of this call, with the view of its current step. */
  const current = async (messages: readonly ModelMessage[] | undefined): Promise<ToolSearchRequest<Tool>> => {
    if (request !== undefined && visible !== undefined) return request;
    const started = request ?? start(undefined, stepsReplaced ? 'replaced' : 'replay');
    if (stepsReplaced) reportReplaced(started, 'step-preparation');
    await planStep(started, messages, !stepsReplaced);
    return started;
  };

  /** The event (once per request, in the engine) and the console warning (once per tool search). */
  const reportReplaced = (active: ToolSearchRequest<Tool>, hook: ReplacedHook): void => {
    active.hookReplaced(hook);
    warnReplaced(binding.warned, hook);
  };

  /**
   * A call the SDK replays before the first step (an approval posted back with the history) is
   * judged without the call's `runtimeContext`, which reaches us only at the first step. With a
   * filter, such a call runs only when `forCall` was given the `requestContext`: the filter
   * would otherwise decide with none, and a client could replay a call its context forbids.
   */
  const checkReplayContext = (name: string): void => {
    if (contextUnknown === undefined || !binding.filtered || callOptions.requestContext !== undefined) return;
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      contextUnknown === 'replay'
        ? `Tool "${name}" was not run: an approved call replayed from the history runs before the call's first step, before its runtimeContext is known, and the filter needs the request context. Pass requestContext (and threadId) to forCall.`
        : `Tool "${name}" was not run: the app's prepareStep replaced tool search's, which alone is handed the call's runtimeContext, and the filter needs the request context. Give the prepareStep to forCall, or pass requestContext (and threadId) to forCall.`,
    );
  };

  /**
   * A call replayed before the first step when `forCall` was given no `threadId` is judged in
   * the `'default'` thread, as the call's `runtimeContext.threadId` is not known yet. Where
   * threads may come from `runtimeContext` (a call of this tool search took its thread from
   * there, or the load state is a store of the user's, shared by processes), such a call is
   * refused with what to fix: a tool call the guard refuses (the tool may well be loaded in the
   * call's real thread, so "not loaded" would mislead), and a meta-tool call that would load
   * into the wrong thread. An app that never names a thread keeps its one `'default'` thread.
   * `'context'` storage reads the loads from the history instead.
   */
  const checkReplayThread = (name: string): void => {
    if (contextUnknown === undefined || contextStorage || callOptions.threadId !== undefined) return;
    if (!binding.threads.fromRuntimeContext && !binding.sharedStore) return;
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      contextUnknown === 'replay'
        ? `Tool "${name}" was not run: an approved call replayed from the history runs before the call's first step, before its runtimeContext is known, so it was judged in the 'default' thread, which may not be its own. Pass threadId to forCall.`
        : `Tool "${name}" was not run: the app's prepareStep replaced tool search's, which alone is handed the call's runtimeContext, so it was judged in the 'default' thread, which may not be its own. Give the prepareStep to forCall, or pass threadId to forCall.`,
    );
  };

  const ownPrepareStep: ToolSearchPrepareStep<ToolSet> = async (step) => {
    const first = step.stepNumber === 0 || request === undefined;
    // A signal seen before this call's first step is its own only for a call replayed before it.
    if (first && contextUnknown !== 'replay') seenSignal = undefined;
    // The previous step's calls of no active tool went to another repair than ours.
    if (!first && !noToolChoice && refusedWithoutOurRepair(step.steps.at(-1), repairedCalls)) {
      reportReplaced(request!, 'call-repair');
    }
    repairedCalls.clear();
    const started = first ? start(step.runtimeContext) : request!;
    ourStep = true;
    stepMessages = undefined;
    // The SDK notices an abort only once prepareStep has answered: a slow store or filter ends with it.
    const names = (await abortable(givenSignal ?? seenSignal, () =>
      planStep(started, step.messages),
    )) as Array<ToolName<ToolSet>>;
    return {
      activeTools: [...names],
      toolOrder: [...names],
      ...(binding.instructions === undefined
        ? {}
        : { instructions: withInstructions(step.instructions, binding.instructions) }),
    };
  };
  // Ours first, so that the user's sees this step's tools and can only narrow them.
  const composed =
    userPrepareStep === undefined
      ? undefined
      : composePrepareStep(ownPrepareStep as PrepareStepFunction<ToolSet>, userPrepareStep);
  const prepareStep = (async (step: Parameters<PrepareStepFunction<ToolSet>>[0]) => {
    const result = composed === undefined ? await ownPrepareStep(step) : await composed(step);
    noToolChoice = result?.toolChoice === 'none';
    if (composed === undefined || binding.instructions === undefined || result == null) return result;
    // The user's may have replaced the instructions (a later `system` too): ours go after them again.
    const { system, ...rest } = result;
    return { ...rest, instructions: withInstructions(rest.instructions ?? system, binding.instructions) };
  }) as ToolSearchPrepareStep<ToolSet>;

  const guardedExecute = (name: string, tool: Tool, execute: NonNullable<Tool['execute']>) =>
    function execute_(input: unknown, executionOptions: ToolExecutionOptions<unknown>) {
      noteSignal(executionOptions?.abortSignal);
      noteStep(executionOptions?.messages, executionOptions?.toolCallId);
      // Visible in this step: run as is, so a streaming tool keeps streaming. The engine's guard
      // still sees the call, as that is where a call counts as a use (maxLoadedTools): with the
      // step planned, it allows a visible tool and records the use before its first await, so
      // the call is not held up, even by an asynchronous store.
      if (visible?.has(name) && planned !== undefined) {
        planned.guard(name).catch(() => {});
        return execute.call(tool, input, executionOptions);
      }
      return (async () => {
        const active = await current(executionOptions?.messages);
        // The filter judges catalog and request tools only: an always-on tool needs no context.
        if (loadableNames.has(name)) checkReplayContext(name);
        const decision = await active.guard(name);
        if (!decision.allowed) {
          // An always-on tool does not depend on the thread: only the filter withholds one.
          if (loadableNames.has(name)) checkReplayThread(name);
          throw new Error(decision.message ?? `Tool "${name}" is not loaded.`);
        }
        // Allowed by the engine outside a planned step (an approved call the SDK replays before
        // its first step): a promise is all the SDK accepts here, so a stream gives its last value.
        return lastValue(await execute.call(tool, input, executionOptions));
      })();
    };

  /** A catalog or request tool as sent once loaded (never deferred), its `execute` guarded. */
  const guardTool = (name: string, tool: Tool): Tool => {
    const sent = sentAsLoaded(tool);
    return typeof sent.execute === 'function'
      ? withExecute(sent, guardedExecute(name, tool, tool.execute!))
      : sent;
  };
  const tools = new Map<string, Tool>();
  // With autoLoad, search_tools loads what it finds; without, only load_tool loads.
  const autoLoad = !engine.metaTools.some((definition) => definition.name === LOAD_TOOL_NAME);
  for (const definition of engine.metaTools) {
    const loadsState = definition.name === LOAD_TOOL_NAME || autoLoad;
    tools.set(
      definition.name,
      toMetaTool(definition, async (input, executionOptions) => {
        noteSignal(executionOptions?.abortSignal);
        noteStep(executionOptions?.messages, executionOptions?.toolCallId);
        const active = await current(executionOptions?.messages);
        checkReplayContext(definition.name);
        if (loadsState) checkReplayThread(definition.name);
        // Aborting the call ends a slow search or load at once, with the signal's reason.
        const options = { signal: executionOptions?.abortSignal };
        return definition.name === LOAD_TOOL_NAME
          ? active.loadTool(input, options)
          : active.searchTools(input, options);
      }),
    );
  }
  // Always-on tools go through the guard too (never filtered, they are always allowed): the SDK
  // runs an approved call from the history against this whole set, not the step's active tools.
  for (const [name, tool] of alwaysOnTools) {
    tools.set(
      name,
      typeof tool.execute === 'function' ? withExecute(tool, guardedExecute(name, tool, tool.execute)) : tool,
    );
  }
  for (const [name, tool] of catalogTools) tools.set(name, guardTool(name, tool));
  for (const entry of requestEntries ?? []) {
    const name = entry.descriptor.name;
    // A request tool never replaces a meta-tool or an always-on tool; it replaces a catalog
    // tool of the same name, as the engine resolves that name to the request's instance.
    if (isMetaToolName(name) || alwaysOnNames.includes(name)) continue;
    tools.set(name, guardTool(name, entry.tool));
  }

  // The catalog and request tools of this call, by name (an always-on tool is not loaded).
  const loadableNames = new Set(
    [
      ...catalogTools.map(([name]) => name),
      ...(requestEntries ?? []).map((entry) => entry.descriptor.name),
    ].filter((name) => !isMetaToolName(name) && !alwaysOnNames.includes(name)),
  );
  /**
   * The SDK checks a step's tool calls (through this repair) before it runs any of them, so a
   * call of a tool that a `load_tool` (or autoLoad `search_tools`) of the same step loads is
   * refused before that load happens: its refusal says so, or the model would load the tool
   * again. It is added for a catalog or request tool, and, with a filter, for every name but a
   * meta-tool: the engine answers a filtered tool exactly as an unknown name, so must we.
   */
  const sameStepNote = (name: string): string =>
    !stepsReplaced && !isMetaToolName(name) && (binding.filtered || loadableNames.has(name))
      ? ' If you loaded this tool in this same step, it could not be called yet: a tool can be called from the step after the one that loads it, so call it again now, without loading it again.'
      : '';

  /** Refuses a call with the engine's message, which the SDK hands to the model as a tool error. */
  const refuse = (name: string, decision: GuardDecision): never => {
    throw new Error((decision.message ?? `Tool "${name}" is not available.`) + sameStepNote(name));
  };

  // The SDK hands the repair a call that names no active tool (NoSuchToolError) or has invalid
  // input (InvalidToolInputError), and checks what it returns against the step's active tools.
  const repairToolCall: ToolCallRepairFunction<ToolSet> = async (options) => {
    const { toolCall, error, messages } = options;
    noteSignal(options.abortSignal);
    repairedCalls.add(toolCall.toolCallId);
    noteStep(messages);
    const name = toolCall.toolName;
    const missing = NoSuchToolError.isInstance(error);
    const active = await current(messages);
    // A tool of this call that is not active (a catalog tool not loaded, or filtered): the
    // engine's to answer, never the user's repair to redirect. With the app's prepareStep in
    // place of ours, a tool we would show may be missing too: the engine tells the model so.
    if (missing && tools.has(name)) {
      const decision = await active.guard(name, stepsReplaced ? { offered: false } : undefined);
      if (!decision.allowed) refuse(name, decision);
    }
    const repaired = userRepair === undefined ? null : await userRepair(options);
    if (repaired != null) {
      // The repaired call may run only if the engine allows it this step.
      if (!visible?.has(repaired.toolName)) {
        const decision = await active.guard(repaired.toolName);
        if (!decision.allowed) refuse(repaired.toolName, decision);
      }
      return repaired;
    }
    // A name that is no tool of this call (and that the user's repair did not fix).
    if (missing && !tools.has(name)) {
      const decision = await active.guard(name);
      if (!decision.allowed) refuse(name, decision);
    }
    return null;
  };

  return {
    tools: toToolSet(tools) as ToolSet,
    activeTools: [...firstStep] as Array<ToolName<ToolSet>>,
    toolOrder: [...firstStep] as Array<ToolName<ToolSet>>,
    prepareStep,
    repairToolCall,
  };
}

/** `forCall`'s optional `abortSignal`: absent (undefined or null), or an `AbortSignal`. */
function optionalSignal(value: unknown): AbortSignal | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isAbortSignal(value)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `forCall's abortSignal must be an AbortSignal, got ${Array.isArray(value) ? 'an array' : typeof value}`,
    );
  }
  return value;
}

/** An optional function option of `forCall`: absent (undefined or null), or a function. */
function optionalFunction<F>(value: F | null | undefined, name: string): F | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'function') {
    throw new ToolSearchError('INVALID_OPTIONS', `forCall's ${name} must be a function, got ${typeof value}`);
  }
  return value;
}
