export type { McpConnect, McpConnectArgs } from './connections';
export type { McpCacheScope } from './list-tools';
export type {
  McpServerOptions,
  McpToolMetadata,
  McpToolSource,
  McpToolSourceEvent,
  McpToolSourceOptions,
  McpTools,
  McpToolsOptions,
  McpUnavailableServer,
} from './mcp-tool-source';
export { createMcpToolSource, mcpToolMetadata } from './mcp-tool-source';
export type { McpToolNaming } from './tool-names';
