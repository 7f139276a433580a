export type { LoadStateStore, StoreStats, ToolSearchEvent, ToolSearchEventListener } from '@tool-search/core';
export { toCatalogEntries } from './catalog-entries';
export { toConversationRecords } from './conversation-records';
export type { MastraEmbedderOptions, MastraEmbeddingModel } from './mastra-embedder';
export { createMastraEmbedder } from './mastra-embedder';
export { resolveThreadId } from './thread-id';
export type {
  StateResult,
  ToolSearchFilterArgs,
  ToolSearchFilterPhase,
  ToolSearchProcessorOptions,
  ToolSearchStorage,
} from './tool-search-processor';
export { ToolSearchProcessor } from './tool-search-processor';
