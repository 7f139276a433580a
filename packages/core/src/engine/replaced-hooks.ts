// Owns what one request knows of the adapter hooks the app replaced (`hookReplaced`), and the
// wording that follows from it: when a loaded tool can be called, and what a timed-out load means.
import { ToolSearchError } from '../errors';
import type { Clock, ReplacedHook, ToolSearchEvent } from '../types';

export interface ReplacedHooks {
  /** The adapter tells the engine the app replaced one of its hooks (reported once per hook). */
  hookReplaced(hook: ReplacedHook): void;
  /** The app chooses the tools of each step itself (it replaced the adapter's step preparation). */
  stepsReplaced(): boolean;
  /** When a loaded tool can be called: from the next step, or, once the app chooses the tools, only if it does. */
  fromNextStep(): string;
  /** A store write that timed out: whether it landed is unknown until the next step reads the store. */
  mayHaveLoadedMessage(names: readonly string[]): string;
}

export function createReplacedHooks(options: {
  readonly threadId: string;
  readonly clock: Clock;
  readonly emit: (event: ToolSearchEvent) => void;
}): ReplacedHooks {
  const { threadId, clock, emit } = options;
  const replacedHooks = new Set<ReplacedHook>();
  let stepsReplaced = false;

  function fromNextStep(): string {
    return stepsReplaced
      ? 'from your next step if offered: this app chooses your tools itself, not tool search, so a loaded tool may never be offered (then do not load it again)'
      : 'from your next step';
  }

  return {
    hookReplaced(hook) {
      if (hook !== 'step-preparation' && hook !== 'call-repair') {
        throw new ToolSearchError(
          'INVALID_INPUT',
          `hookReplaced takes 'step-preparation' or 'call-repair', got ${JSON.stringify(String(hook))}.`,
        );
      }
      if (replacedHooks.has(hook)) return;
      replacedHooks.add(hook);
      if (hook === 'step-preparation') stepsReplaced = true;
      emit({ type: 'hook-replaced', threadId, time: clock.now(), hook });
    },
    stepsReplaced: () => stepsReplaced,
    fromNextStep,
    mayHaveLoadedMessage(names) {
      return (
        `Tool state did not answer in time, so these tools may have been loaded: ${names.join(', ')}. ` +
        `Each that was will be offered ${fromNextStep()}; load again any that is not offered then.`
      );
    },
  };
}
