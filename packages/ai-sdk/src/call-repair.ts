/**
 * The `repairToolCall` of one AI SDK call: a call of a tool of this call that is not active
 * gets the engine's tool error (never the app's repair), the rest goes to the app's repair,
 * whose answer must name a tool the engine allows in this step. Reads the call's state only
 * through its functions (call-state.ts).
 */
import { type GuardDecision, isMetaToolName } from '@tool-search/core';
import { NoSuchToolError, type Tool, type ToolCallRepairFunction, type ToolSet } from 'ai';
import type { CallState } from './call-state';

export function createCallRepair(parts: {
  readonly state: CallState;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly loadableNames: ReadonlySet<string>;
  /** Whether the engine has a filter (which answers a filtered tool as an unknown name). */
  readonly filtered: boolean;
  readonly userRepair: ToolCallRepairFunction<ToolSet> | undefined;
}): ToolCallRepairFunction<ToolSet> {
  const { state, tools, loadableNames, filtered, userRepair } = parts;
  /**
   * The SDK checks a step's tool calls (through this repair) before it runs any of them, so a
   * call of a tool that a `load_tool` (or autoLoad `search_tools`) of the same step loads is
   * refused before that load happens: its refusal says so, or the model would load the tool
   * again. It is added for a catalog or request tool, and, with a filter, for every name but a
   * meta-tool: the engine answers a filtered tool exactly as an unknown name, so must we.
   */
  const sameStepNote = (name: string): string =>
    !state.stepsReplaced() && !isMetaToolName(name) && (filtered || loadableNames.has(name))
      ? ' If you loaded this tool in this same step, it could not be called yet: a tool can be called from the step after the one that loads it, so call it again now, without loading it again.'
      : '';

  /** Refuses a call with the engine's message, which the SDK hands to the model as a tool error. */
  const refuse = (name: string, decision: GuardDecision): never => {
    throw new Error((decision.message ?? `Tool "${name}" is not available.`) + sameStepNote(name));
  };

  // The SDK hands the repair a call that names no active tool (NoSuchToolError) or has invalid
  // input (InvalidToolInputError), and checks what it returns against the step's active tools.
  return async (options) => {
    const { toolCall, error, messages } = options;
    state.noteSignal(options.abortSignal);
    state.noteRepair(toolCall.toolCallId);
    state.noteStep(messages);
    const name = toolCall.toolName;
    const missing = NoSuchToolError.isInstance(error);
    const active = await state.current(messages);
    // A tool of this call that is not active (a catalog tool not loaded, or filtered): the
    // engine's to answer, never the user's repair to redirect. With the app's prepareStep in
    // place of ours, a tool we would show may be missing too: the engine tells the model so.
    if (missing && tools.has(name)) {
      const decision = await active.guard(name, state.stepsReplaced() ? { offered: false } : undefined);
      if (!decision.allowed) refuse(name, decision);
    }
    const repaired = userRepair === undefined ? null : await userRepair(options);
    if (repaired != null) {
      // The repaired call may run only if the engine allows it this step.
      if (!state.isVisible(repaired.toolName)) {
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
}
