export { createOfflineHybridRanker } from '@tool-search/example-catalog';
export type { AiSdkAgentOptions } from './ai-sdk-agent';
export { createAiSdkAgent } from './ai-sdk-agent';
export type { ModelChoice, ModelOption } from './model';
export { resolveModel } from './model';
export type {
  AgentMode,
  ModeRun,
  NativeComparison,
  NativeComparisonOptions,
  NativeComparisonRow,
} from './native-comparison';
export { runNativeComparison } from './native-comparison';
export { createOfflineModel } from './offline-model';
export type { ProviderPrompt } from './prompt-capture';
export { capturePrompts, toOpenAIChatMessages } from './prompt-capture';
