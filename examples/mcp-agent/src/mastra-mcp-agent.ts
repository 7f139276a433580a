import { Agent } from '@mastra/core/agent';
import { noopLogger } from '@mastra/core/logger';
import { RequestContext } from '@mastra/core/request-context';
import { MCPClient } from '@mastra/mcp';
import { createMetaToolDefinitions, toolSearchInstructions } from '@tool-search/core';
import { type ModelOption, resolveModel } from '@tool-search/example-ai-sdk-agent';
import {
  countToolDefinitionTokens,
  type JsonSchemaObject,
  type ToolDefinitionForTokens,
  type ToolRunListener,
} from '@tool-search/example-catalog';
import { ToolSearchProcessor } from '@tool-search/mastra';
import { z } from 'zod';
import type { McpAgentOptions } from './ai-sdk-mcp-agent';
import { type CallerConnection, describeConnectError, unavailableInstructions } from './connections';
import { createTracedMcpRequests, type McpExampleAgent } from './traced-mcp-requests';

process.env.MASTRA_TELEMETRY_DISABLED ??= '1';

type MastraTools = Awaited<ReturnType<MCPClient['listTools']>>;
type MastraTool = MastraTools[string];

/** The request context key under which this request's MCP tools ride to the agent's `tools` function. */
const mcpToolsKey = 'mcpTools';

/** A Mastra MCP tool's JSON Schema, as the model is sent it (its input schema is a zod or Standard Schema). */
function inputJsonSchema(tool: MastraTool): JsonSchemaObject {
  const schema = (tool as { inputSchema?: unknown }).inputSchema;
  try {
    return z.toJSONSchema(schema as z.ZodType, { target: 'draft-7', io: 'input' }) as JsonSchemaObject;
  } catch {
    const standard = (schema as { '~standard'?: { jsonSchema?: { input?: (o: object) => unknown } } })?.[
      '~standard'
    ];
    return (standard?.jsonSchema?.input?.({ target: 'draft-07' }) as JsonSchemaObject) ?? { type: 'object' };
  }
}

/** Reports each run of a Mastra MCP tool to the trace. */
function traced(name: string, tool: MastraTool, onRun: ToolRunListener): MastraTool {
  const execute = tool.execute;
  if (!execute) return tool;
  const wrapped = Object.create(tool) as MastraTool;
  wrapped.execute = (async (input: unknown, context: unknown) => {
    try {
      const output = await (execute as (input: unknown, context: unknown) => Promise<unknown>)(
        input,
        context,
      );
      onRun({ toolName: name, input, output });
      return output;
    } catch (error) {
      onRun({ toolName: name, input, error });
      throw error;
    }
  }) as MastraTool['execute'];
  return wrapped;
}

/**
 * Connects to every server with Mastra's `MCPClient` and the caller's token (a client per request:
 * its id names the request, since Mastra refuses two clients of one configuration without one).
 * `listToolsWithErrors()` lists every tool with its schema (eagerly) and says which servers failed.
 */
async function connectMastra(
  urls: Readonly<Record<string, string>>,
  token: string,
  id: string,
  onRun: ToolRunListener,
): Promise<CallerConnection<MastraTools>> {
  const client = new MCPClient({
    id,
    servers: Object.fromEntries(
      Object.entries(urls).map(([name, url]) => [
        name,
        { url: new URL(url), requestInit: { headers: { authorization: `Bearer ${token}` } } },
      ]),
    ),
  });
  // Each failing server is reported in the trace and to the model; Mastra would also log its stack.
  client.__setLogger(noopLogger);
  const started = performance.now();
  const { tools, errorDetails } = await client.listToolsWithErrors();
  const ms = performance.now() - started;
  const definitions = Object.entries(tools).map(
    ([name, tool]): ToolDefinitionForTokens => ({
      name,
      description: tool.description,
      inputSchema: inputJsonSchema(tool),
    }),
  );
  return {
    tools: Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, traced(name, tool, onRun)])),
    definitions,
    unavailable: Object.entries(errorDetails).map(([server, error]) => ({
      server,
      message: describeConnectError(error),
    })),
    listing: {
      tools: definitions.length,
      bytes: Buffer.byteLength(JSON.stringify(definitions)),
      tokens: countToolDefinitionTokens(definitions),
      ms,
    },
    close: () => client.disconnect(),
  };
}

/**
 * A Mastra `Agent` with Mastra's own MCP client (`@mastra/mcp`): per request an `MCPClient` with
 * the caller's bearer token; the tools reach the agent through a dynamic `tools({ requestContext })`
 * function, and `ToolSearchProcessor` with `includeResolvedTools` makes them searchable and hidden
 * until loaded (a loaded name runs this request's own instance). Mastra names MCP tools
 * `server_tool` (`travel_get_weather_forecast`).
 */
export async function createMastraMcpAgent(options: McpAgentOptions<ModelOption>): Promise<McpExampleAgent> {
  const { model, label, offline } = await resolveModel(options.model);
  const toolSearch = new ToolSearchProcessor({
    tools: {},
    includeResolvedTools: true,
    onEvent: (event) => requests.active()?.onEvent(event),
  });
  const agent = new Agent({
    id: 'mcp-assistant',
    name: 'mcp-assistant',
    instructions: 'You are a helpful assistant with access to many tools.',
    model: model as never,
    tools: ({ requestContext }) => (requestContext.get(mcpToolsKey) ?? {}) as MastraTools,
    inputProcessors: [toolSearch],
  });
  const onRun: ToolRunListener = (run) => requests.active()?.recordCall(run);
  let connections = 0;
  const requests = createTracedMcpRequests<MastraTools>({
    framework: 'Mastra + @mastra/mcp',
    model: label,
    threadPrefix: 'mastra-mcp',
    metaTools: createMetaToolDefinitions(),
    instructions: toolSearchInstructions(),
    connect: (token) => connectMastra(options.urls, token, `mcp-agent-request-${++connections}`, onRun),
    answer: async (request, threadId, connection) => {
      const requestContext = new RequestContext();
      requestContext.set('mastra__threadId', threadId);
      requestContext.set(mcpToolsKey, connection.tools);
      const note = unavailableInstructions(connection.unavailable);
      const result = await agent.generate(request, {
        requestContext,
        maxSteps: options.maxSteps ?? 10,
        ...(note ? { system: note } : {}),
      });
      return result.text;
    },
  });
  return {
    framework: 'Mastra + @mastra/mcp',
    model: label,
    offline,
    ask: requests.ask,
    dispose: async () => toolSearch.dispose(),
  };
}
