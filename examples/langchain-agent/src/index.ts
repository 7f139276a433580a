export { createOfflineHybridRanker } from '@tool-search/example-catalog';
export type { LangChainAgentOptions } from './langchain-agent';
export { createLangChainAgent } from './langchain-agent';
export type { ModelChoice, ModelOption } from './model';
export { resolveModel } from './model';
export { OfflinePlannerChatModel } from './offline-model';
export { PromptCaptureHandler, toOpenAIChatMessages } from './prompt-capture';
