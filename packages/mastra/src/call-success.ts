// When Mastra counts a catalog tool's call a success, for learning from use: the processor runs
// the tool's `execute` through `runReportingSuccess`, which tells the engine (`toolCallSucceeded`)
// and hands Mastra the call's result or error as they were.
import { isValidationError } from '@mastra/core/tools';

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** Whether the execution context's abort signal (Mastra passes the run's) has fired. */
function aborted(context: unknown): boolean {
  const signal =
    typeof context === 'object' && context !== null
      ? (context as { abortSignal?: unknown }).abortSignal
      : undefined;
  return typeof signal === 'object' && signal !== null && (signal as { aborted?: unknown }).aborted === true;
}

/**
 * Runs a catalog tool's `execute` with Mastra's arguments (input, execution context) and calls
 * `succeeded` when the call ends as a success: it returned (or its promise resolved), not with
 * Mastra's validation error (`isValidationError`: Mastra's answer for input or output that fails
 * the tool's schema), and not after the run's abort signal fired. A throw or a rejection reaches
 * Mastra as it was, and `succeeded` is not called. The context is passed on as given (Mastra
 * knows it by identity), so a tool that suspends is not told apart: see docs/advanced.md.
 */
export function runReportingSuccess(
  execute: (...args: unknown[]) => unknown,
  self: unknown,
  callArgs: unknown[],
  succeeded: () => void,
): unknown {
  const settle = (value: unknown): unknown => {
    if (!aborted(callArgs[1]) && !isValidationError(value)) succeeded();
    return value;
  };
  const result = execute.apply(self, callArgs);
  return isThenable(result) ? Promise.resolve(result).then(settle) : settle(result);
}
