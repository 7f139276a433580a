export { createOfflineHybridRanker } from './hybrid-ranker';
export type { LangChainAgentOptions } from './langchain-agent';
export { createLangChainAgent } from './langchain-agent';
export type { ModelChoice, ModelOption } from './model';
export { resolveModel } from './model';
export { OfflinePlannerChatModel } from './offline-model';
