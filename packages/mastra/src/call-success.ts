// When Mastra counts a catalog tool's call a success, for learning from use: the processor runs
// the tool's `execute` through `reportingSuccess`, which tells the engine (`reportSuccess`)
// and hands Mastra the call's result or error as they were.
import { isValidationError } from '@mastra/core/tools';
import type { ToolSearchRequest } from '@tool-search/core';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (isObject(value) || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** Whether the execution context's abort signal (Mastra passes the run's) has fired. */
function aborted(context: unknown): boolean {
  const signal = isObject(context) ? context.abortSignal : undefined;
  return isObject(signal) && signal.aborted === true;
}

/**
 * The objects of an execution context that may hold a `suspend` function: the context itself
 * (a workflow step's), and its `agent` and `workflow` parts (Mastra's agent passes `agent`).
 */
function suspendHolders(context: unknown): Record<string, unknown>[] {
  if (!isObject(context)) return [];
  return [context, context.agent, context.workflow].filter(isObject);
}

/**
 * Notes a call of the context's `suspend` functions while the tool runs, and puts them back
 * after. The context itself is passed on, not a copy: Mastra marks a context by identity (that
 * its tool builder validated the input). Only a writable own `suspend` is watched; a suspension
 * through any other is not told apart.
 */
function watchSuspension(context: unknown, note: () => void): () => void {
  const restores: (() => void)[] = [];
  for (const holder of suspendHolders(context)) {
    const own = Object.getOwnPropertyDescriptor(holder, 'suspend');
    const suspend = own?.value;
    if (typeof suspend !== 'function' || own?.writable !== true) continue;
    holder.suspend = function (this: unknown, ...args: unknown[]) {
      note();
      return suspend.apply(this, args);
    };
    restores.push(() => {
      holder.suspend = suspend;
    });
  }
  return () => {
    for (const restore of restores) restore();
  };
}

/** A function of any signature, as `typeof value === 'function'` leaves it. */
type AnyFunction = Parameters<typeof Reflect.apply>[0];

/**
 * A catalog tool's `execute`, run with Mastra's arguments (input, execution context), that calls
 * `succeeded` when the call ends as a success: it returned (or its promise resolved), not with
 * Mastra's validation error (`isValidationError`: Mastra's answer for input or output that fails
 * the tool's schema), not after the tool suspended (it runs again on resume), and not after the
 * run's abort signal fired. A throw or a rejection reaches Mastra as it was, and `succeeded` is
 * not called. `succeeded` must not throw; without it (no learning) `execute` runs as it is.
 */
export function reportingSuccess(execute: AnyFunction, succeeded: (() => void) | undefined) {
  // Without learning nothing is told: the tool runs as Mastra calls it, its context untouched.
  if (succeeded === undefined)
    return (self: unknown, callArgs: unknown[]) => Reflect.apply(execute, self, callArgs);
  return (self: unknown, callArgs: unknown[]): unknown => {
    const context = callArgs[1];
    let suspended = false;
    const restore = watchSuspension(context, () => {
      suspended = true;
    });
    const settle = (value: unknown): unknown => {
      restore();
      if (!suspended && !aborted(context) && !isValidationError(value)) succeeded();
      return value;
    };
    let result: unknown;
    try {
      result = Reflect.apply(execute, self, callArgs);
    } catch (error) {
      restore();
      throw error;
    }
    if (!isThenable(result)) return settle(result);
    return Promise.resolve(result).then(settle, (error: unknown) => {
      restore();
      throw error;
    });
  };
}

/**
 * Tells the run's engine request that a call of the catalog tool `name` succeeded: with
 * `learning`, it records the query of the latest search of the run or of its thread that found
 * the tool. It never throws into Mastra's tool step.
 */
export function reportSuccess(
  request: Pick<ToolSearchRequest<unknown>, 'toolCallSucceeded'>,
  name: string,
): void {
  try {
    request.toolCallSucceeded(name);
  } catch {
    // The core's toolCallSucceeded does not throw; should it ever, the tool's result stands.
  }
}
