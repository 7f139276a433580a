import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { RankerFactory } from '@tool-search/core';
import {
  type NativeProvider,
  openAIToolSearchName,
  type PlannedToolCall,
  type PlannerAction,
  type ProviderRequest,
  type ProviderRequestFigures,
  planProviderCall,
  providerRequestFigures,
  type RequestTrace,
  readProviderRequest,
} from '@tool-search/example-catalog';
import { type FakeReply, startFakeProviderServer } from '@tool-search/fake-providers';
import { createAiSdkAgent } from './ai-sdk-agent';

/** How the agent sends the catalog: today's `activeTools` (`'default'`), or behind the provider's deferred loading (`'native'`). */
export type AgentMode = 'default' | 'native';

export interface ModeRun {
  readonly mode: AgentMode;
  readonly trace: RequestTrace;
  /** Per model call, read from the request bodies the provider package sent. */
  readonly figures: ProviderRequestFigures;
  /** Per model call, what the model did: the tools it called (`search_tools`, `load_tool`, a catalog tool) or `answer`. */
  readonly actions: readonly string[];
}

export interface NativeComparisonRow {
  readonly request: string;
  readonly default: ModeRun;
  readonly native: ModeRun;
}

export interface NativeComparison {
  readonly provider: NativeProvider;
  /** The provider package and the model id it was asked for. */
  readonly model: string;
  readonly rows: readonly NativeComparisonRow[];
  /**
   * The AI SDK's warnings during the run, each distinct message once (with every catalog tool sent
   * on every call, the SDK would otherwise print the same schema warning on each).
   */
  readonly warnings: readonly string[];
}

export interface NativeComparisonOptions {
  readonly provider: NativeProvider;
  readonly requests: readonly string[];
  /** Replaces the keyword ranker (both modes). */
  readonly ranker?: RankerFactory;
  /**
   * Ask every request on one thread per mode, in order: the tools earlier requests loaded come
   * back at the start of the next (native: Anthropic `tool_addition`, OpenAI `additional_tools`),
   * and a request's first call is compared with the previous request's last. Default: a new
   * thread per request.
   */
  readonly oneThread?: boolean;
  /** Called before each request runs in each mode. */
  readonly onProgress?: (request: string, mode: AgentMode) => void;
}

const providerModels: Readonly<Record<NativeProvider, { readonly label: string; readonly modelId: string }>> =
  {
    anthropic: { label: '@ai-sdk/anthropic', modelId: 'claude-haiku-4-5' },
    openai: { label: '@ai-sdk/openai', modelId: 'gpt-5-mini' },
  };

/**
 * The planner's action as the fake server's scripted reply: text, or tool calls (a call of
 * OpenAI's client-executed tool search is a `tool_search_call` item).
 */
function toReply(action: PlannerAction, request: ProviderRequest): FakeReply {
  if (action.type === 'text') return action.text;
  const isToolSearch = (call: PlannedToolCall) =>
    request.searchToolName === openAIToolSearchName && call.toolName === openAIToolSearchName;
  const toolCalls = action.calls.filter((call) => !isToolSearch(call));
  const toolSearchCalls = action.calls.filter(isToolSearch);
  return {
    ...(toolCalls.length > 0
      ? {
          toolCalls: toolCalls.map((call) => ({
            id: call.toolCallId,
            toolName: call.toolName,
            input: call.input,
          })),
        }
      : {}),
    ...(toolSearchCalls.length > 0
      ? { toolSearchCalls: toolSearchCalls.map((call) => ({ id: call.toolCallId, arguments: call.input })) }
      : {}),
  };
}

const describeAction = (action: PlannerAction): string =>
  action.type === 'text' ? 'answer' : action.calls.map((call) => call.toolName).join(', ');

/**
 * Runs each request through the AI SDK example agent twice, in the default mode and in the native
 * mode, with the REAL provider package (`@ai-sdk/anthropic` or `@ai-sdk/openai`) talking to a
 * local fake provider server on a loopback port. The server answers every model call with the
 * offline planner's decision on the request body it received, so the whole loop runs offline and
 * the figures come from the bodies the provider package really sent.
 */
export async function runNativeComparison(options: NativeComparisonOptions): Promise<NativeComparison> {
  const { provider } = options;
  const actions: string[] = [];
  const server = await startFakeProviderServer({
    script: (recorded) => {
      const request = readProviderRequest(provider, recorded.body, { servedItems: recorded.servedItems });
      const action = planProviderCall(request);
      actions.push(describeAction(action));
      return toReply(action, request);
    },
  });
  const { label, modelId } = providerModels[provider];
  const model =
    provider === 'anthropic'
      ? createAnthropic({ baseURL: server.anthropicBaseURL, apiKey: 'fake-key' })(modelId)
      : createOpenAI({ baseURL: server.openaiBaseURL, apiKey: 'fake-key' })(modelId);
  const agents = {
    default: await createAiSdkAgent({ model, ranker: options.ranker }),
    native: await createAiSdkAgent({ model, ranker: options.ranker, native: provider }),
  };
  const lastBody: Partial<Record<AgentMode, unknown>> = {};
  const run = async (request: string, mode: AgentMode): Promise<ModeRun> => {
    options.onProgress?.(request, mode);
    const first = server.requests.length;
    const trace = await agents[mode].ask(
      request,
      options.oneThread ? { threadId: `native-comparison-${mode}` } : {},
    );
    if (server.failures.length > 0)
      throw new Error(`the fake ${provider} server refused a call: ${server.failures.join('; ')}`);
    const bodies = server.requests.slice(first).map((recorded) => recorded.body);
    const previous = options.oneThread ? lastBody[mode] : undefined;
    lastBody[mode] = bodies.at(-1);
    return {
      mode,
      trace,
      figures: providerRequestFigures(provider, bodies, previous === undefined ? {} : { previous }),
      actions: actions.slice(first, first + bodies.length),
    };
  };
  // The SDK's warning hook (`AI_SDK_LOG_WARNINGS`, a global) collects them while this runs.
  const warnings = new Set<string>();
  const sdkGlobal = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  const logger = sdkGlobal.AI_SDK_LOG_WARNINGS;
  sdkGlobal.AI_SDK_LOG_WARNINGS = (log: { warnings: readonly { message?: string; type?: string }[] }) => {
    for (const warning of log.warnings) warnings.add(warning.message ?? JSON.stringify(warning));
  };
  try {
    const rows: NativeComparisonRow[] = [];
    for (const request of options.requests) {
      rows.push({ request, default: await run(request, 'default'), native: await run(request, 'native') });
    }
    return { provider, model: `${label} ${modelId}`, rows, warnings: [...warnings] };
  } finally {
    sdkGlobal.AI_SDK_LOG_WARNINGS = logger;
    await Promise.all([agents.default.dispose(), agents.native.dispose()]);
    await server.close();
  }
}
