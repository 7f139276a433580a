import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createToolSearch } from '@tool-search/ai-sdk';
import { type LazyTool, lazyTool } from '@tool-search/core';
import { type ModelOption, resolveModel } from '@tool-search/example-ai-sdk-agent';
import {
  countToolDefinitionTokens,
  type ToolDefinitionForTokens,
  type ToolRunListener,
} from '@tool-search/example-catalog';
import { createMcpToolSource, type McpToolSourceOptions } from '@tool-search/mcp';
import { generateWithToolSearch, type McpAgentOptions } from './ai-sdk-mcp-agent';
import { describeConnectError } from './connections';
import { createTracedMcpRequests, type McpExampleAgent } from './traced-mcp-requests';

/** Who is asking, as the MCP source and the engine's filter see it. */
export interface McpCaller {
  readonly token: string;
}

export interface OwnMcpAgentOptions extends McpAgentOptions<ModelOption> {
  /** Passed on to `createMcpToolSource` (`defaultTtlMs`, `clock`, `onEvent`, …). */
  readonly source?: Omit<McpToolSourceOptions<McpCaller>, 'servers' | 'callerKey'>;
}

/** Reports each run of a resolved MCP tool to the trace. */
function traced(tool: LazyTool<McpCaller>, onRun: ToolRunListener): LazyTool<McpCaller> {
  return lazyTool<McpCaller>({
    name: tool.name,
    description: tool.description,
    tags: tool.tags,
    metadata: tool.metadata,
    resolve: async (args) => {
      const resolved = await tool.resolve(args);
      return {
        ...resolved,
        execute: async (input, executeOptions) => {
          try {
            const output = await resolved.execute(input, executeOptions);
            onRun({ toolName: tool.name, input, output });
            return output;
          } catch (error) {
            onRun({ toolName: tool.name, input, error });
            throw error;
          }
        },
      };
    },
  });
}

/**
 * Ours: the AI SDK with `@tool-search/mcp` in place of `@ai-sdk/mcp`. Each caller keeps a
 * connection per server (made with the caller's token, never shared); a request lists the
 * caller's tools (reusing a listing while the server's `ttlMs` allows) as lazily resolved tools:
 * search reads their names and descriptions only, and a tool's schema is read when it is loaded,
 * for this caller.
 */
export async function createOwnMcpAgent(options: OwnMcpAgentOptions): Promise<McpExampleAgent> {
  const { model, label, offline } = await resolveModel(options.model);
  const source = createMcpToolSource<McpCaller>({
    ...options.source,
    servers: Object.fromEntries(
      Object.entries(options.urls).map(([name, url]) => [
        name,
        ({ requestContext }) =>
          new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers: { authorization: `Bearer ${requestContext?.token ?? ''}` } },
          }),
      ]),
    ),
    // The token is the caller here: a connection made with one token is never used with another.
    callerKey: (caller) => caller?.token,
  });
  const toolSearch = createToolSearch({ tools: {}, onEvent: (event) => requests.active()?.onEvent(event) });
  const onRun: ToolRunListener = (run) => requests.active()?.recordCall(run);
  const requests = createTracedMcpRequests<{ tools: LazyTool<McpCaller>[]; caller: McpCaller }>({
    framework: 'AI SDK + @tool-search/mcp',
    model: label,
    threadPrefix: 'own-mcp',
    metaTools: toolSearch.engine.metaTools,
    instructions: toolSearch.instructions,
    connect: async (token) => {
      const caller = { token };
      const started = performance.now();
      const listed = await source.tools({ requestContext: caller });
      const ms = performance.now() - started;
      // What search indexes: a name, a description and the server's name; no schema.
      const definitions = listed.tools.map(
        (tool): ToolDefinitionForTokens => ({ name: tool.name, description: tool.description }),
      );
      return {
        tools: { tools: listed.tools.map((tool) => traced(tool, onRun)), caller },
        // The trace counts a loaded tool's tokens from the schema it was sent with: none known up front.
        definitions: [],
        unavailable: listed.unavailable.map(({ server, message }) => ({
          server,
          message: describeConnectError(message),
        })),
        listing: {
          tools: listed.tools.length,
          bytes: Buffer.byteLength(JSON.stringify(definitions)),
          tokens: countToolDefinitionTokens(definitions),
          ms,
        },
        // The source keeps the caller's connections for the next request.
        close: async () => {},
      };
    },
    answer: (request, threadId, connection) =>
      generateWithToolSearch({
        model,
        settings: toolSearch.forCall({
          threadId,
          requestContext: connection.tools.caller,
          requestTools: Object.fromEntries(connection.tools.tools.map((tool) => [tool.name, tool])),
        }),
        unavailable: connection.unavailable,
        maxSteps: options.maxSteps,
        prompt: request,
      }),
  });
  return {
    framework: 'AI SDK + @tool-search/mcp',
    model: label,
    offline,
    ask: requests.ask,
    dispose: async () => {
      await toolSearch.dispose();
      await source.close();
    },
  };
}
