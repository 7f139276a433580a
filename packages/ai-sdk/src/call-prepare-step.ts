/**
 * The `prepareStep` of one AI SDK call: each step planned by the engine (its `activeTools` and
 * `toolOrder`, tool search's instructions added once), the app's own prepareStep run after
 * ours, and the step's tool choice noted for the repair. Reads and updates the call's state
 * only through its functions (call-state.ts).
 */
import { abortable, type NativeProvider, ToolSearchError } from '@tool-search/core';
import type { ModelMessage, PrepareStepFunction, ToolSet } from 'ai';
import type { CallState } from './call-state';
import { composePrepareStep } from './compose-prepare-step';
import type { ToolSearchPrepareStep } from './create-call-settings';
import { restoreMessage } from './native-tools';
import { withInstructions } from './with-instructions';

/** A call in native mode: every tool is sent on every step, in one order; earlier loads are restored. */
export interface NativePrepareStep {
  readonly provider: NativeProvider;
  /** Every tool of the call, in the order sent. */
  readonly allNames: readonly string[];
  readonly definitionsOf: (names: readonly string[]) => Record<string, unknown>[];
  /** The app allows system messages in its own messages (the call's settings allow them for ours). */
  readonly allowSystemInMessages: boolean;
}

type ToolName<TOOLS extends ToolSet> = keyof TOOLS & string;

export function createCallPrepareStep(parts: {
  readonly state: CallState;
  /** The call's `abortSignal`, given to `forCall`. */
  readonly givenSignal: AbortSignal | undefined;
  /** Tool search's system-prompt paragraph; none when turned off. */
  readonly instructions: string | undefined;
  readonly userPrepareStep: PrepareStepFunction<ToolSet> | undefined;
  readonly native?: NativePrepareStep;
}): ToolSearchPrepareStep<ToolSet> {
  const { state, givenSignal, instructions, userPrepareStep, native } = parts;
  // Native mode: the message restoring the thread's earlier loads, made once per call (null: none),
  // and where it sits (after the first step's input, before every step's responses).
  let restore: ModelMessage | null | undefined;
  let restoreAt: number | undefined;
  const withRestore = (messages: ModelMessage[]): ModelMessage[] | undefined => {
    const plan = state.nativePlan();
    if (native === undefined || plan === undefined) return undefined;
    // The settings turn the SDK's allowSystemInMessages on for our message only: the SDK's rule
    // still holds for the app's (a system message from a client is not trusted).
    if (
      !native.allowSystemInMessages &&
      messages.some((message) => message.role === 'system' && message !== restore)
    ) {
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        'System messages are not allowed in the prompt or messages fields. Use the instructions option instead, or, if your messages hold system messages on purpose, pass allowSystemInMessages: true to forCall.',
      );
    }
    restore ??= restoreMessage(native.provider, plan.restore, native.definitionsOf) ?? null;
    if (restore === null || messages.includes(restore)) return undefined;
    restoreAt ??= messages.length;
    const at = Math.min(restoreAt, messages.length);
    return [...messages.slice(0, at), restore, ...messages.slice(at)];
  };
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
    // Native mode sends the same tools, in the same order, on every step (the plan still guards calls).
    const sent = (native?.allNames ?? names) as Array<ToolName<ToolSet>>;
    const messages = withRestore(step.messages);
    return {
      activeTools: [...sent],
      toolOrder: [...sent],
      ...(messages === undefined ? {} : { messages }),
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
