export type { ArgumentContext } from './build-tool-arguments';
export { buildToolArguments } from './build-tool-arguments';
export type { ExampleDomain, ExampleToolDescriptor, JsonSchemaObject, ToolRunListener } from './catalog';
export {
  domains,
  exampleTools,
  exampleToolsByName,
  runExampleTool,
  runExampleToolReported,
  toJsonSchema,
  toToolDescriptor,
} from './catalog';
export type { DefineToolOptions, ExampleTool, ExampleToolInput } from './define-tool';
export { defineTool } from './define-tool';
export type { DemoArguments, DemoFramework, ExampleArguments, ExampleSettings } from './example-arguments';
export {
  demoFrameworks,
  exampleSettings,
  parseDemoArguments,
  parseExampleArguments,
} from './example-arguments';
export { catalogToday } from './fake-data';
export { createOfflineHybridRanker } from './hybrid-ranker';
export type {
  PlannedToolCall,
  PlannerAction,
  PlannerEvent,
  PlannerInput,
  PlannerOptions,
  PlannerTool,
} from './planner';
export { offlinePlannerLabel, planNextStep, summariseResult, unwrapToolOutput } from './planner';
export type {
  CountPromptTokensOptions,
  OpenAIChatMessage,
  OpenAIChatToolCall,
  PromptTokens,
} from './prompt-tokens';
export { countMessageTokens, countPromptTokens, searchToolNames } from './prompt-tokens';
export type { ProviderCallFigures, ProviderRequestFigures } from './provider-figures';
export { providerRequestFigures } from './provider-figures';
export type { NativeProvider, ProviderRequest, ProviderToolDefinition } from './provider-requests';
export {
  nativeProviders,
  openAIToolSearchName,
  planProviderCall,
  readProviderRequest,
} from './provider-requests';
export type { DemoRequest } from './requests';
export { demoRequests } from './requests';
export type { RunExampleRequestsOptions } from './run-example-requests';
export { runExampleRequests } from './run-example-requests';
export type { OpenAIFunctionTool, ToolDefinitionForTokens } from './tokens';
export {
  countExampleCatalogTokens,
  countTextTokens,
  countToolDefinitionTokens,
  countToolTokens,
  toOpenAIFunctionTool,
} from './tokens';
export type {
  AddedTokens,
  ExampleAgent,
  ExampleAgentOptions,
  RenderTraceOptions,
  RequestTrace,
  TokenFigures,
  TraceCall,
  TraceEvent,
  TraceLoad,
  TraceRecorder,
  TraceRecorderOptions,
  TraceSearch,
  TraceStep,
} from './trace';
export {
  createTraceRecorder,
  oneLine,
  renderAddedTokens,
  renderTokenFigures,
  renderTrace,
  wholeCatalogTokensPerCall,
} from './trace';
export type { TracedRequests, TracedRequestsOptions } from './traced-requests';
export { createTracedRequests } from './traced-requests';
