// What a user of this adapter reaches for from the core, so that the adapter alone is enough:
// the hybrid ranker, learning from use, the error type, the meta-tools' names and shapes, the store
// and event types.
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
export { toCatalogEntries } from './catalog-entries';
export { toConversationRecords } from './conversation-records';
export type { MastraEmbedderOptions, MastraEmbeddingModel } from './mastra-embedder';
export { createMastraEmbedder } from './mastra-embedder';
export type { NativeOption } from './native-mode';
export { resolveThreadId } from './thread-id';
export type {
  StateResult,
  ToolSearchFilterArgs,
  ToolSearchFilterPhase,
  ToolSearchProcessorOptions,
  ToolSearchStorage,
} from './tool-search-processor';
export { ToolSearchProcessor } from './tool-search-processor';
