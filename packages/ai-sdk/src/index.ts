export { composePrepareStep } from './compose-prepare-step';
export type {
  CreateToolSearchOptions,
  MetaToolSet,
  RuntimeContext,
  ToolSearch,
  ToolSearchCallOptions,
  ToolSearchCallSettings,
  ToolSearchPrepareStep,
  ToolSearchToolSet,
} from './create-tool-search';
export { createToolSearch, toCatalogEntry } from './create-tool-search';
export { toConversationRecords } from './to-conversation-records';
