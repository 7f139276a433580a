// What a user of this adapter reaches for from the core, so that the adapter alone is enough:
// the hybrid ranker, learning from use, the error type, the meta-tools' names and shapes, the store and event types.
export type {
  Embedder,
  HybridRankerOptions,
  Learning,
  LearningOptions,
  LoadStateStore,
  LoadToolInput,
  LoadToolOutput,
  RankerFactory,
  SearchToolsInput,
  SearchToolsOutput,
  StoreStats,
  ToolSearchErrorCode,
  ToolSearchEvent,
  ToolSearchEventListener,
} from '@tool-search/core';
export {
  createHybridRanker,
  createLearning,
  createStoredEmbedder,
  isMetaToolName,
  LOAD_TOOL_NAME,
  SEARCH_TOOLS_NAME,
  ToolSearchError,
} from '@tool-search/core';
export type { LangChainEmbedderOptions } from './langchain-embedder';
export { createLangChainEmbedder } from './langchain-embedder';
export type { BindableTool } from './langchain-tool-search';
export type { NativeOption, NativeProvider } from './native-mode';
export type { LangChainTool, LangChainToolSet, ToolSearchOptions, ToolSearchStateControls } from './options';
export { toCatalogEntries, toCatalogEntry } from './to-catalog-entries';
export { toConversationRecords } from './to-conversation-records';
export type {
  BindInput,
  BoundStep,
  ToolBindingModel,
  ToolSearchBinder,
  ToolSearchBinderOptions,
} from './tool-search-binder';
export { createToolSearchBinder } from './tool-search-binder';
export type { ToolSearchMiddleware, ToolSearchMiddlewareOptions } from './tool-search-middleware';
export { toolSearchMiddleware } from './tool-search-middleware';
