export type { ModelChoice, ModelOption } from '@tool-search/example-ai-sdk-agent';
export { createOfflineModel, resolveModel } from '@tool-search/example-ai-sdk-agent';
export { createOfflineHybridRanker } from '@tool-search/example-catalog';
export type { MastraAgentOptions } from './mastra-agent';
export { createMastraAgent } from './mastra-agent';
