export type { LangChainEmbedderOptions } from './langchain-embedder';
export { createLangChainEmbedder } from './langchain-embedder';
export type { BindableTool } from './langchain-tool-search';
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
