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
