import type { PrepareStepFunction, PrepareStepResult, ToolSet } from 'ai';

type Context = Record<string, unknown>;

type PrepareStepOptions<TOOLS extends ToolSet, RUNTIME_CONTEXT extends Context> = Parameters<
  PrepareStepFunction<TOOLS, RUNTIME_CONTEXT>
>[0];

/**
 * Runs several `prepareStep` functions as one, in the order given.
 *
 * Each function sees what the earlier ones changed for this step (`runtimeContext`,
 * `toolsContext`, `messages`, `instructions`, `model`). Their results are merged,
 * later fields winning, except `activeTools`: when several functions return it, a
 * tool stays active only if every one of them keeps it (in the first one's order),
 * so a later function can narrow what tool search made visible but never widen it, and
 * `toolOrder`: a later function's order comes first, then the tools it does not list in the
 * earlier order (not alphabetically, as the SDK would send them), so a partial order such as
 * `['myTool']` keeps each step's tool list a prefix of the next one's. A later `system` (the
 * SDK's older name for `instructions`) replaces an earlier `instructions`.
 * A `toolChoice` that names one tool (`{ type: 'tool', toolName }`) which is not among the
 * step's `activeTools` is dropped (the call's own `toolChoice` applies): that tool is not sent
 * this step, and providers refuse a request that forces a tool they were not sent.
 *
 * ```ts
 * prepareStep: composePrepareStep(call.prepareStep, myPrepareStep)
 * ```
 */
export function composePrepareStep<TOOLS extends ToolSet, RUNTIME_CONTEXT extends Context = Context>(
  ...functions: ReadonlyArray<PrepareStepFunction<TOOLS, RUNTIME_CONTEXT> | undefined>
): PrepareStepFunction<TOOLS, RUNTIME_CONTEXT> {
  const steps = functions.filter(
    (fn): fn is PrepareStepFunction<TOOLS, RUNTIME_CONTEXT> => typeof fn === 'function',
  );
  return async (options) => {
    let current: PrepareStepOptions<TOOLS, RUNTIME_CONTEXT> = options;
    let merged: NonNullable<PrepareStepResult<TOOLS, RUNTIME_CONTEXT>> | undefined;
    for (const step of steps) {
      const result = await step(current);
      if (result == null) continue;
      const activeTools =
        merged?.activeTools != null && result.activeTools != null
          ? intersect(merged.activeTools, result.activeTools)
          : (result.activeTools ?? merged?.activeTools);
      const toolOrder =
        merged?.toolOrder != null && result.toolOrder != null
          ? followedBy(result.toolOrder, merged.toolOrder)
          : (result.toolOrder ?? merged?.toolOrder);
      // `system` is the SDK's older name for `instructions`, which it prefers: a later `system`
      // replaces an earlier `instructions`.
      const instructions = result.instructions ?? result.system;
      const previous =
        result.instructions === undefined && result.system !== undefined
          ? withoutInstructions(merged)
          : merged;
      merged = {
        ...previous,
        ...result,
        ...(activeTools === undefined ? {} : { activeTools }),
        ...(toolOrder === undefined ? {} : { toolOrder }),
      };
      current = {
        ...current,
        ...(result.runtimeContext !== undefined ? { runtimeContext: result.runtimeContext } : {}),
        ...(result.toolsContext !== undefined ? { toolsContext: result.toolsContext } : {}),
        ...(result.messages !== undefined ? { messages: result.messages } : {}),
        ...(instructions !== undefined ? { instructions } : {}),
        ...(result.model !== undefined ? { model: result.model } : {}),
      };
    }
    return merged === undefined ? undefined : withoutInactiveToolChoice(merged);
  };
}

/** The result without a `toolChoice` naming a tool that is not active in this step. */
function withoutInactiveToolChoice<
  RESULT extends { toolChoice?: unknown; activeTools?: ReadonlyArray<string> },
>(result: RESULT): RESULT {
  const choice = result.toolChoice as { type?: unknown; toolName?: unknown } | undefined;
  if (
    result.activeTools == null ||
    choice === null ||
    typeof choice !== 'object' ||
    choice.type !== 'tool' ||
    result.activeTools.includes(choice.toolName as string)
  ) {
    return result;
  }
  const { toolChoice: _inactive, ...rest } = result;
  return rest as RESULT;
}

/** The merged result without its `instructions`, which a later `system` replaces. */
function withoutInstructions<RESULT extends { instructions?: unknown }>(
  result: RESULT | undefined,
): RESULT | undefined {
  if (result === undefined) return undefined;
  const { instructions: _replaced, ...rest } = result;
  return rest as RESULT;
}

/** `first`, then the names of `rest` it does not list, in their order. */
function followedBy<T>(first: ReadonlyArray<T>, rest: ReadonlyArray<T>): T[] {
  const listed = new Set(first);
  return [...first, ...rest.filter((name) => !listed.has(name))];
}

function intersect<T>(first: ReadonlyArray<T>, second: ReadonlyArray<T>): T[] {
  const keep = new Set(second);
  return first.filter((name) => keep.has(name));
}
