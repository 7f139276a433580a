import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ExampleTool } from '@tool-search/example-catalog';

/** A call one of our servers ran: which tool, with which token, for which user. */
export interface RecordedCall {
  readonly server: string;
  readonly toolName: string;
  readonly token: string;
  readonly user: string;
  readonly input: unknown;
}

/** What a server serves: its name (also its MCP `serverInfo.name`) and its tools. */
export interface CatalogServerSpec {
  readonly name: string;
  readonly description: string;
  readonly tools: readonly ExampleTool[];
}

export interface CatalogServerCaller {
  readonly token: string;
  readonly user: string;
}

const readOnlyVerbs = new Set([
  'get',
  'list',
  'search',
  'find',
  'read',
  'check',
  'lookup',
  'convert',
  'calculate',
]);
const destructiveVerbs = new Set([
  'delete',
  'remove',
  'cancel',
  'drop',
  'close',
  'archive',
  'revoke',
  'refund',
]);

/** Hints a client's filter can read (MCP `annotations`), from the tool's leading verb. */
export function annotationsFor(tool: ExampleTool): ToolAnnotations {
  const verb = tool.name.split('_')[0] ?? '';
  return {
    title: tool.name.replaceAll('_', ' '),
    readOnlyHint: readOnlyVerbs.has(verb),
    destructiveHint: destructiveVerbs.has(verb),
    openWorldHint: false,
  };
}

/**
 * One MCP server (the SDK's `McpServer`) over the given tools, for one caller: every call is
 * recorded with the caller's token before it runs. The input is validated by the SDK against the
 * tool's zod schema; an executor that throws answers with `isError` and its message.
 */
export function createCatalogServer(
  spec: CatalogServerSpec,
  caller: CatalogServerCaller,
  record: (call: RecordedCall) => void,
): McpServer {
  const server = new McpServer(
    { name: spec.name, version: '1.0.0', description: spec.description },
    { capabilities: { tools: {} }, instructions: spec.description },
  );
  for (const tool of spec.tools) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input, annotations: annotationsFor(tool) },
      async (input: Record<string, unknown>) => {
        record({ server: spec.name, toolName: tool.name, token: caller.token, user: caller.user, input });
        const output = tool.execute(input as never);
        return { content: [{ type: 'text', text: JSON.stringify(output) }] };
      },
    );
  }
  return server;
}
