// What a user of this adapter reaches for from the core, so that the adapter alone is enough:
// the hybrid ranker, learning, the error type, the meta-tools' names and shapes, the store and event types.
export type {
  Embedder,
  EvidenceStore,
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
export type { AiSdkEmbedderOptions } from './ai-sdk-embedder';
export { createAiSdkEmbedder } from './ai-sdk-embedder';
export { composePrepareStep } from './compose-prepare-step';
export type {
  MetaToolSet,
  RuntimeContext,
  ToolSearchCallOptions,
  ToolSearchCallSettings,
  ToolSearchPrepareStep,
  ToolSearchToolSet,
} from './create-call-settings';
export type { CreateToolSearchOptions, ToolSearch } from './create-tool-search';
export { createToolSearch } from './create-tool-search';
export { toCatalogEntry } from './to-catalog-entry';
export { toConversationRecords } from './to-conversation-records';
