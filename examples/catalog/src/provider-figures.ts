/**
 * The figures of one request's model calls, read from the request bodies the provider package
 * sent: per call, the tool definitions the model's context held and their tokens, and whether the
 * `tools` array changed from the previous call (a change invalidates the provider's cached
 * prompt from the tools on). Shared by `pnpm demo -- --native` and the bench.
 */
import { type NativeProvider, readProviderRequest } from './provider-requests';
import { countToolDefinitionTokens } from './tokens';

export interface ProviderCallFigures {
  /** The tools whose definitions the model's context held on this call (deferred ones not referred: not). */
  readonly inContext: readonly string[];
  /** Tokens of those definitions (OpenAI function format, o200k). */
  readonly toolDefinitionTokens: number;
  /** Tools in the request's `tools` array, deferred ones included. */
  readonly toolsSent: number;
  /** The `tools` array differs from the previous call's (on a request's first call: from `previous`'s, if given). */
  readonly toolListChanged: boolean;
}

export interface ProviderRequestFigures {
  readonly calls: readonly ProviderCallFigures[];
  readonly modelCalls: number;
  /** Calls whose `tools` array differs from the previous call's. */
  readonly toolListChanges: number;
  /** Tool-definition tokens in context, summed over the calls. */
  readonly toolDefinitionTokens: number;
}

/**
 * The figures of the model calls of one request, from their request bodies in order. `previous`:
 * the body of the call before the first (the thread's previous request), to compare the first with.
 */
export function providerRequestFigures(
  provider: NativeProvider,
  bodies: readonly unknown[],
  options: { readonly previous?: unknown } = {},
): ProviderRequestFigures {
  let previous =
    options.previous === undefined ? undefined : readProviderRequest(provider, options.previous).toolList;
  const calls = bodies.map((body): ProviderCallFigures => {
    const request = readProviderRequest(provider, body);
    const changed = previous !== undefined && previous !== request.toolList;
    previous = request.toolList;
    return {
      inContext: request.inContext.map((tool) => tool.name),
      toolDefinitionTokens: countToolDefinitionTokens(request.inContext),
      toolsSent: request.tools.length,
      toolListChanged: changed,
    };
  });
  return {
    calls,
    modelCalls: calls.length,
    toolListChanges: calls.filter((call) => call.toolListChanged).length,
    toolDefinitionTokens: calls.reduce((total, call) => total + call.toolDefinitionTokens, 0),
  };
}
