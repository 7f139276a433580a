export type { AiSdkAgentOptions } from './ai-sdk-agent';
export { createAiSdkAgent } from './ai-sdk-agent';
export { createOfflineHybridRanker } from './hybrid-ranker';
export type { ModelChoice, ModelOption } from './model';
export { resolveModel } from './model';
export { createOfflineModel } from './offline-model';
