import type { BaseMessage } from '@langchain/core/messages';
import type { ClientTool } from '@langchain/core/tools';
import {
  FORWARDED_ENGINE_OPTION_NAMES,
  type LazyTool,
  type OptionNamesOf,
  type StateControls,
  type ToolSearchEngineOptions,
} from '@tool-search/core';

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
 * signingSecret, ranker, clock, onEvent, storeTimeoutMs, searchTimeoutMs, filterTimeoutMs), forwarded
 * unchanged.
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
}

/** The option names of {@link ToolSearchOptions}: the catalog, and the engine's options it forwards. */
export const TOOL_SEARCH_OPTION_NAMES = {
  ...FORWARDED_ENGINE_OPTION_NAMES,
  tools: true,
  includeResolvedTools: true,
} as const satisfies OptionNamesOf<ToolSearchOptions>;

/** What tool search keeps per thread, and the housekeeping the seed behaviour promises. */
export interface ToolSearchStateControls extends StateControls {
  /** The names a thread has loaded, in load order (with 'context' storage, pass its messages). */
  getLoadedToolNames(
    threadId?: string | number | bigint | null,
    messages?: readonly BaseMessage[],
  ): Promise<readonly string[]>;
}
