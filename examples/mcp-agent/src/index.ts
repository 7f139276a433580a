export type { McpAgentOptions } from './ai-sdk-mcp-agent';
export { createAiSdkMcpAgent } from './ai-sdk-mcp-agent';
export type { CallerConnection, ListingCost, UnavailableServer } from './connections';
export { connectEach, describeConnectError, unavailableInstructions } from './connections';
export { createLangChainMcpAgent } from './langchain-mcp-agent';
export { createMastraMcpAgent } from './mastra-mcp-agent';
export type { McpCaller, OwnMcpAgentOptions } from './own-mcp-agent';
export { createOwnMcpAgent } from './own-mcp-agent';
export type {
  McpAskOptions,
  McpExampleAgent,
  McpRequestTrace,
  TracedMcpRequestsOptions,
} from './traced-mcp-requests';
export { createTracedMcpRequests } from './traced-mcp-requests';
