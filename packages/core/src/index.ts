export { abortable, isAbortSignal } from './abortable';
export type { RejectedToolReason } from './catalog';
export { isWellFormedText } from './catalog';
export { clockOption, MAX_TIMER_DELAY_MS, systemClock } from './clock';
export type { ReceiptSigner, ReceiptSignerOptions } from './context-state';
export {
  activatedNames,
  catalogFingerprint,
  createReceiptSigner,
  deriveLoadedNames,
  loadProof,
  normalizeToolOutput,
  receiptGrant,
} from './context-state';
export { withoutDeferLoading } from './defer-loading';
export { createToolSearchEngine, DEFAULT_THREAD_ID, normalizeThreadId } from './engine';
export type { ToolSearchErrorCode } from './errors';
export { optionsObject, sizeOption, ToolSearchError, toolRecord } from './errors';
export type {
  LazyTool,
  LazyToolFields,
  ResolvedTool,
  ResolvedToolExecuteOptions,
  ResolveToolArgs,
  ToolResolver,
} from './lazy-tools';
export { catalogEntryOf, isLazyTool, lazyTool, lazyToolEntry } from './lazy-tools';
export type { EvidenceSnapshot, EvidenceStore, StoredToolUse, ToolUse } from './learning/evidence';
export { MAX_USE_NAME_LENGTH, MAX_USE_QUERY_LENGTH, readStoredUse } from './learning/evidence';
export type { EvidenceLimits, EvidenceRejection } from './learning/evidence-index';
export type {
  EvidenceImport,
  EvidenceImportOptions,
  EvidenceOutcome,
  EvidenceSource,
  Learning,
  LearningEvent,
  LearningOptions,
} from './learning/learning';
export { createLearning, DEFAULT_LEARNING_WEIGHT } from './learning/learning';
export type { MemoryEvidenceStoreOptions } from './learning/memory-evidence-store';
export { createMemoryEvidenceStore, DEFAULT_MAX_STORED_USES } from './learning/memory-evidence-store';
export { fuseEvidence, withLearning } from './learning/with-learning';
export type { MemoryStore, MemoryStoreEvictReason, MemoryStoreOptions } from './memory-store';
export { checkRemoveOptions, createMemoryStore } from './memory-store';
export type { MetaToolOptions } from './meta-tools';
export {
  createMetaToolDefinitions,
  isMetaToolName,
  LOAD_TOOL_NAME,
  MAX_LOAD_NAMES,
  MAX_QUERY_LENGTH,
  META_TOOL_NAMES,
  SEARCH_TOOLS_NAME,
  toolSearchInstructions,
} from './meta-tools';
export type {
  NativeDeferralOptions,
  NativeModeDecision,
  NativeModeReason,
  NativeProvider,
} from './native-deferral';
export {
  anthropicToolAdditions,
  anthropicToolReferences,
  decideNativeMode,
  nativeProviderOf,
  openaiFunctionDefinition,
} from './native-deferral';
export type { OptionNames, OptionNamesOf } from './option-names';
export {
  checkOptionNames,
  ENGINE_OPTION_NAMES,
  FORWARDED_ENGINE_OPTION_NAMES,
  REQUEST_OPTION_NAMES,
} from './option-names';
export type { Embedder, EmbeddingVector } from './ranking/embedder';
export { settingsHash, settingsIdPart } from './ranking/embedder';
export type { HybridRankerOptions } from './ranking/hybrid-ranker';
export { createHybridRanker, STALE_EMBEDDING_MS } from './ranking/hybrid-ranker';
export type { FieldWeights, KeywordRanker, KeywordRankerOptions } from './ranking/keyword-ranker';
export { createKeywordRanker } from './ranking/keyword-ranker';
export { splitClauses } from './ranking/split-clauses';
export type { StoredEmbedderOptions } from './ranking/stored-embedder';
export { createStoredEmbedder } from './ranking/stored-embedder';
export type { WordSink } from './ranking/tokenizer';
export { forEachWord, hashWord, normalizeText, tokenize } from './ranking/tokenizer';
export type { ToolIndexOptions } from './ranking/tool-index';
export { createToolIndex } from './ranking/tool-index';
export type {
  MemoryVectorStore,
  MemoryVectorStoreOptions,
  VectorStore,
  VectorStoreEntry,
} from './ranking/vector-store';
export { checkVectorStoreArguments, createMemoryVectorStore, vectorOfEntry } from './ranking/vector-store';
export type { WordVectors } from './ranking/word-neighbours';
export type { WordTable } from './ranking/word-table';
export { createWordTable } from './ranking/word-table';
export type { StateControls } from './state-controls';
export { createStateControls } from './state-controls';
export { checkThreadId } from './thread-id';
export type {
  CatalogEntry,
  Clock,
  ConversationRecord,
  FilterArgs,
  FilterPhase,
  GuardDecision,
  GuardOptions,
  JsonSchema,
  LoadStateStore,
  LoadToolInput,
  LoadToolOutput,
  MaybePromise,
  MetaToolCallOptions,
  MetaToolDefinition,
  NativePlan,
  Ranker,
  RankerFactory,
  ReplacedHook,
  RequestOptions,
  SearchOptions,
  SearchResult,
  SearchToolsInput,
  SearchToolsOutput,
  StepInput,
  StepPlan,
  StoreRemoveOptions,
  StoreStats,
  ToolDescriptor,
  ToolFilter,
  ToolIndex,
  ToolSearchEngine,
  ToolSearchEngineOptions,
  ToolSearchEvent,
  ToolSearchEventListener,
  ToolSearchRequest,
} from './types';
export { withFields } from './with-fields';
