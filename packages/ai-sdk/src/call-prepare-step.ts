/**
 * The `prepareStep` of one AI SDK call: each step planned by the engine (its `activeTools` and
 * `toolOrder`, tool search's instructions added once), the app's own prepareStep run after
 * ours, and the step's tool choice noted for the repair. Reads and updates the call's state
 * only through its functions (call-state.ts).
 */
import { abortable } from '@tool-search/core';
import type { PrepareStepFunction, ToolSet } from 'ai';
import type { CallState } from './call-state';
import { composePrepareStep } from './compose-prepare-step';
import type { ToolSearchPrepareStep } from './create-call-settings';
import { withInstructions } from './with-instructions';

type ToolName<TOOLS extends ToolSet> = keyof TOOLS & string;

export function createCallPrepareStep(parts: {
  readonly state: CallState;
  /** The call's `abortSignal`, given to `forCall`. */
  readonly givenSignal: AbortSignal | undefined;
  /** Tool search's system-prompt paragraph; none when turned off. */
  readonly instructions: string | undefined;
  readonly userPrepareStep: PrepareStepFunction<ToolSet> | undefined;
}): ToolSearchPrepareStep<ToolSet> {
  const { state, givenSignal, instructions, userPrepareStep } = parts;
  const ownPrepareStep: ToolSearchPrepareStep<ToolSet> = async (step) => {
    const started = state.beginStep({
      first: step.stepNumber === 0 || !state.started(),
      runtimeContext: step.runtimeContext,
      previous: step.steps.at(-1),
    });
    // The SDK notices an abort only once prepareStep has answered: a slow store or filter ends with it.
    const names = (await abortable(givenSignal ?? state.signal(), () =>
      state.planStep(started, step.messages),
    )) as Array<ToolName<ToolSet>>;
    return {
      activeTools: [...names],
      toolOrder: [...names],
      ...(instructions === undefined
        ? {}
        : { instructions: withInstructions(step.instructions, instructions) }),
    };
  };
  // Ours first, so that the user's sees this step's tools and can only narrow them.
  const composed =
    userPrepareStep === undefined
      ? undefined
      : composePrepareStep(ownPrepareStep as PrepareStepFunction<ToolSet>, userPrepareStep);
  return (async (step: Parameters<PrepareStepFunction<ToolSet>>[0]) => {
    const result = composed === undefined ? await ownPrepareStep(step) : await composed(step);
    state.noteToolChoice(result?.toolChoice === 'none');
    if (composed === undefined || instructions === undefined || result == null) return result;
    // The user's may have replaced the instructions (a later `system` too): ours go after them again.
    const { system, ...rest } = result;
    return { ...rest, instructions: withInstructions(rest.instructions ?? system, instructions) };
  }) as ToolSearchPrepareStep<ToolSet>;
}
