import type { BaseMessage } from '@langchain/core/messages';
import type { ClientTool } from '@langchain/core/tools';
import {
  FORWARDED_ENGINE_OPTION_NAMES,
  type LazyTool,
  type OptionNamesOf,
  type StateControls,
  type ToolSearchEngineOptions,
} from '@tool-search/core';
import type { NativeOption } from './native-mode';

/** A LangChain tool that can be executed: `tool()`, a `StructuredTool`, a `DynamicTool` or a runnable tool. */
export type LangChainTool = ClientTool;

/**
 * The searchable catalog: an array of LangChain tools (each known by its `name`), or a
 * record keyed by tool name, as the other tool-search adapters take it. A lazily resolved tool
 * (`LazyTool` from `@tool-search/core`, such as an MCP tool of `@tool-search/mcp`) is resolved
 * per request, for the run's context, when it is loaded.
 */
export type LangChainToolSet =
  | readonly (LangChainTool | LazyTool<never>)[]
  | Readonly<Record<string, LangChainTool | LazyTool<never>>>;

/**
 * Options shared by `toolSearchMiddleware` and `createToolSearchBinder`: the catalog plus
 * every option of the core engine (search, storage, ttl, maxThreads, maxLoadedTools, filter,
 * signingSecret, ranker, learning, clock, onEvent, storeTimeoutMs, searchTimeoutMs, filterTimeoutMs,
 * resolveTimeoutMs), forwarded unchanged. With `learning` (`createLearning()` of
 * `@tool-search/core`), a catalog tool's call that succeeded (not an error `ToolMessage`, not
 * thrown, not aborted) records the query of the thread's latest search that found the tool.
 */
export interface ToolSearchOptions<TContext = unknown>
  extends Omit<ToolSearchEngineOptions<LangChainTool, TContext>, 'catalog'> {
  /** The searchable tools: hidden from the model until it loads them, then executed by tool search. */
  readonly tools?: LangChainToolSet;
  /**
   * Also make the tools given for each model call searchable and hidden until loaded, instead
   * of always sent: in the middleware, every tool that reaches the model call (the agent's own
   * `tools`, tools other middleware register, tools an earlier middleware added); in the binder,
   * the `tools` passed to `bind()`.
   */
  readonly includeResolvedTools?: boolean;
  /**
   * Provider-native deferred loading (off by default). Every catalog tool is bound on every model
   * call with `extras.defer_loading: true`, so the bound tool list never changes; `search_tools`
   * refers what it finds to the provider (Anthropic `tool_reference` blocks, OpenAI
   * `additional_tools` items), so the model calls a found tool in the same turn. `'auto'` reads
   * the provider from the chat model (`ChatAnthropic`; `ChatOpenAI` with `useResponsesApi: true`);
   * any other model runs in the default mode (the `mode` event says which mode each call runs in).
   */
  readonly native?: NativeOption;
}

/** The option names of {@link ToolSearchOptions}: the catalog, and the engine's options it forwards. */
export const TOOL_SEARCH_OPTION_NAMES = {
  ...FORWARDED_ENGINE_OPTION_NAMES,
  tools: true,
  includeResolvedTools: true,
  native: true,
} as const satisfies OptionNamesOf<ToolSearchOptions>;

/** What tool search keeps per thread, and the housekeeping the seed behaviour promises. */
export interface ToolSearchStateControls extends StateControls {
  /** The names a thread has loaded, in load order (with 'context' storage, pass its messages). */
  getLoadedToolNames(
    threadId?: string | number | bigint | null,
    messages?: readonly BaseMessage[],
  ): Promise<readonly string[]>;
}
