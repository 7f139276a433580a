export { createOfflineHybridRanker } from './hybrid-ranker';
export type { MastraAgentOptions } from './mastra-agent';
export { createMastraAgent } from './mastra-agent';
export type { ModelChoice, ModelOption } from './model';
export { resolveModel } from './model';
export { createOfflineModel } from './offline-model';
