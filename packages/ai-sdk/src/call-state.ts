/**
 * The state of one AI SDK call: its engine request (started at its first step, or at a call
 * the SDK replays before it), the step that request's plan is for, how a later step is told
 * apart (the SDK's messages array), whether the app's prepareStep replaced ours, the tool calls
 * our repair was asked about, and the abort signal the SDK handed a tool. Reached by the
 * prepareStep, the guarded tools and the repair only through {@link createCallState}'s functions.
 */
import {
  type CatalogEntry,
  checkThreadId,
  type NativeDeferralOptions,
  type NativePlan,
  normalizeThreadId,
  type ReplacedHook,
  ToolSearchError,
  type ToolSearchRequest,
} from '@tool-search/core';
import type { ModelMessage, StepResult, Tool, ToolSet } from 'ai';
import type { CallBinding, RuntimeContext, ToolSearchCallOptions } from './create-call-settings';
import { isApprovedReplay, refusedWithoutOurRepair, warnReplaced } from './replaced-hooks';
import { toConversationRecords } from './to-conversation-records';

export interface CallState {
  /** Whether the call's request has started. */
  readonly started: () => boolean;
  /**
   * Begins a step our prepareStep plans: the first starts the request with the call's
   * `runtimeContext`; a later one notes whether the previous step's refused calls went to
   * another repair than ours.
   */
  beginStep(step: {
    readonly first: boolean;
    readonly runtimeContext: RuntimeContext | undefined;
    readonly previous: StepResult<ToolSet> | undefined;
  }): ToolSearchRequest<Tool>;
  /** Plans a step; `modelStep: false` for one the app's prepareStep prepared (no 'step' event). */
  planStep(
    request: ToolSearchRequest<Tool>,
    messages: readonly ModelMessage[] | undefined,
    modelStep?: boolean,
  ): Promise<readonly string[]>;
  /** The request of this call, with the view of its current step (started and planned if need be). */
  current(messages: readonly ModelMessage[] | undefined): Promise<ToolSearchRequest<Tool>>;
  /**
   * Notes the step a tool call (or repair) of the SDK comes from, by its messages. A step that
   * our prepareStep did not plan (its first call, of a step after the one we planned, or of a
   * call where ours never ran) means the app's prepareStep replaced ours: the step is planned
   * again, so that the guard sees what was loaded, and the engine is told, so that no result
   * promises a loaded tool from the next step. An approved call replayed before the first step
   * is no step's.
   */
  noteStep(messages: readonly ModelMessage[] | undefined, toolCallId?: string): void;
  /** Notes the signal the SDK handed a tool or repair of this call (it hands none to `prepareStep`). */
  noteSignal(signal: AbortSignal | undefined): void;
  /** The call's abort signal as last seen (undefined before any). */
  signal(): AbortSignal | undefined;
  /** Notes a tool call our repair was asked about, in this step. */
  noteRepair(toolCallId: string): void;
  /** Notes whether this step's tool choice is 'none' (for which the SDK asks no repair). */
  noteToolChoice(none: boolean): void;
  /** Whether `name` is visible in the step planned last. */
  isVisible(name: string): boolean;
  /** Native mode: the native part of the step planned last (undefined before a plan, and in the default mode). */
  nativePlan(): NativePlan | undefined;
  /** The request whose plan is the current step's (undefined before a plan). */
  planned(): ToolSearchRequest<Tool> | undefined;
  /** Whether the app's prepareStep replaced ours (the SDK no longer sends the tools we choose). */
  stepsReplaced(): boolean;
  /** Throws what to fix when a replayed call needs the request context a filter reads, and it is unknown. */
  checkReplayContext(name: string): void;
  /** Throws what to fix when a replayed call would be judged in a thread that may not be its own. */
  checkReplayThread(name: string): void;
}

export function createCallState<REQUEST_CONTEXT>(
  binding: CallBinding<REQUEST_CONTEXT>,
  callOptions: ToolSearchCallOptions<REQUEST_CONTEXT>,
  requestEntries: readonly CatalogEntry<Tool>[] | undefined,
  /** The call's native deferral, as the engine is asked for it (undefined when the tool search has none). */
  native?: NativeDeferralOptions,
): CallState {
  const { engine, alwaysOnEntries, contextStorage } = binding;
  // One request per call. It starts at the call's first step (when the runtime context is
  // known) or, for approved tool calls the SDK replays before its first step, at that call.
  let request: ToolSearchRequest<Tool> | undefined;
  let visible: ReadonlySet<string> | undefined;
  let nativePlan: NativePlan | undefined;
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
      ...(native === undefined ? {} : { native }),
    });
    request = started;
    visible = undefined;
    return started;
  };

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
    nativePlan = plan.native;
    planned = current;
    return plan.visible;
  };

  /** The event (once per request, in the engine) and the console warning (once per tool search). */
  const reportReplaced = (active: ToolSearchRequest<Tool>, hook: ReplacedHook): void => {
    active.hookReplaced(hook);
    warnReplaced(binding.warned, hook);
  };

  return {
    started: () => request !== undefined,
    beginStep({ first, runtimeContext, previous }) {
      // A signal seen before this call's first step is its own only for a call replayed before it.
      if (first && contextUnknown !== 'replay') seenSignal = undefined;
      // The previous step's calls of no active tool went to another repair than ours.
      if (!first && !noToolChoice && refusedWithoutOurRepair(previous, repairedCalls)) {
        reportReplaced(request!, 'call-repair');
      }
      repairedCalls.clear();
      const started = first ? start(runtimeContext) : request!;
      ourStep = true;
      stepMessages = undefined;
      return started;
    },
    planStep,
    async current(messages) {
      if (request !== undefined && visible !== undefined) return request;
      const started = request ?? start(undefined, stepsReplaced ? 'replaced' : 'replay');
      if (stepsReplaced) reportReplaced(started, 'step-preparation');
      await planStep(started, messages, !stepsReplaced);
      return started;
    },
    noteStep(messages, toolCallId) {
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
    },
    noteSignal(signal) {
      if (signal != null) seenSignal = signal;
    },
    signal: () => seenSignal,
    noteRepair(toolCallId) {
      repairedCalls.add(toolCallId);
    },
    noteToolChoice(none) {
      noToolChoice = none;
    },
    isVisible: (name) => visible?.has(name) === true,
    nativePlan: () => nativePlan,
    planned: () => planned,
    stepsReplaced: () => stepsReplaced,
    /**
     * A call the SDK replays before the first step (an approval posted back with the history) is
     * judged without the call's `runtimeContext`, which reaches us only at the first step. With a
     * filter, such a call runs only when `forCall` was given the `requestContext`: the filter
     * would otherwise decide with none, and a client could replay a call its context forbids.
     */
    checkReplayContext(name) {
      if (contextUnknown === undefined || !binding.filtered || callOptions.requestContext !== undefined)
        return;
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        contextUnknown === 'replay'
          ? `Tool "${name}" was not run: an approved call replayed from the history runs before the call's first step, before its runtimeContext is known, and the filter needs the request context. Pass requestContext (and threadId) to forCall.`
          : `Tool "${name}" was not run: the app's prepareStep replaced tool search's, which alone is handed the call's runtimeContext, and the filter needs the request context. Give the prepareStep to forCall, or pass requestContext (and threadId) to forCall.`,
      );
    },
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
    checkReplayThread(name) {
      if (contextUnknown === undefined || contextStorage || callOptions.threadId !== undefined) return;
      if (!binding.threads.fromRuntimeContext && !binding.sharedStore) return;
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        contextUnknown === 'replay'
          ? `Tool "${name}" was not run: an approved call replayed from the history runs before the call's first step, before its runtimeContext is known, so it was judged in the 'default' thread, which may not be its own. Pass threadId to forCall.`
          : `Tool "${name}" was not run: the app's prepareStep replaced tool search's, which alone is handed the call's runtimeContext, so it was judged in the 'default' thread, which may not be its own. Give the prepareStep to forCall, or pass threadId to forCall.`,
      );
    },
  };
}
