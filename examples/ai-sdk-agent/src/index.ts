export { createOfflineHybridRanker } from '@tool-search/example-catalog';
export type { AiSdkAgentOptions } from './ai-sdk-agent';
export { createAiSdkAgent } from './ai-sdk-agent';
export type { ModelChoice, ModelOption } from './model';
export { resolveModel } from './model';
export { createOfflineModel } from './offline-model';
