import type { StructuredToolInterface } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { createMetaToolDefinitions, toolSearchInstructions } from '@tool-search/core';
import {
  countToolDefinitionTokens,
  type JsonSchemaObject,
  type ToolDefinitionForTokens,
  type ToolRunListener,
} from '@tool-search/example-catalog';
import { type ModelOption, resolveModel } from '@tool-search/example-langchain-agent';
import { toolSearchMiddleware } from '@tool-search/langchain';
import { createAgent, createMiddleware, HumanMessage, SystemMessage, ToolMessage } from 'langchain';
import type { McpAgentOptions } from './ai-sdk-mcp-agent';
import {
  type CallerConnection,
  describeConnectError,
  type UnavailableServer,
  unavailableInstructions,
} from './connections';
import { createTracedMcpRequests, type McpExampleAgent } from './traced-mcp-requests';

/**
 * Connects to every server with LangChain's `MultiServerMCPClient` and the caller's token:
 * `getTools()` lists every tool with its schema (eagerly); a server that fails is reported through
 * `onConnectionError` and skipped.
 */
async function connectLangChain(
  urls: Readonly<Record<string, string>>,
  token: string,
): Promise<CallerConnection<StructuredToolInterface[]>> {
  const unavailable: UnavailableServer[] = [];
  const client = new MultiServerMCPClient({
    mcpServers: Object.fromEntries(
      Object.entries(urls).map(([name, url]) => [
        name,
        { transport: 'http' as const, url, headers: { authorization: `Bearer ${token}` } },
      ]),
    ),
    onConnectionError: ({ serverName, error }) => {
      unavailable.push({ server: serverName, message: describeConnectError(error) });
    },
  });
  const started = performance.now();
  const tools = await client.getTools();
  const ms = performance.now() - started;
  const definitions = tools.map(
    (tool): ToolDefinitionForTokens => ({
      name: tool.name,
      description: tool.description,
      inputSchema: toJsonSchema(tool.schema as never) as JsonSchemaObject,
    }),
  );
  return {
    tools,
    definitions,
    unavailable,
    listing: {
      tools: tools.length,
      bytes: Buffer.byteLength(JSON.stringify(definitions)),
      tokens: countToolDefinitionTokens(definitions),
      ms,
    },
    close: () => client.close(),
  };
}

/** Reports each MCP tool run to the trace, from LangChain's own tool-call hook. */
function traceToolRuns(onRun: () => ToolRunListener | undefined) {
  return createMiddleware({
    name: 'TraceMcpToolRuns',
    wrapToolCall: async (request, handler) => {
      const { name, args } = request.toolCall;
      const result = await handler(request);
      if (ToolMessage.isInstance(result) && !['search_tools', 'load_tool'].includes(name)) {
        if (result.status === 'error')
          onRun()?.({ toolName: name, input: args, error: new Error(result.text) });
        else onRun()?.({ toolName: name, input: args, output: result.content });
      }
      return result;
    },
  });
}

/**
 * A LangChain `createAgent` with LangChain's own MCP client (`@langchain/mcp-adapters`): per
 * request a `MultiServerMCPClient` with the caller's bearer token, its tools given to an agent made
 * for that request (`createAgent` takes its tools when it is made), and one `toolSearchMiddleware`
 * with `includeResolvedTools` shared by every request, so the tools are searchable and hidden until
 * loaded and a thread's loads outlive the request.
 */
export async function createLangChainMcpAgent(
  options: McpAgentOptions<ModelOption>,
): Promise<McpExampleAgent> {
  const { model, label, offline } = await resolveModel(options.model);
  const toolSearch = toolSearchMiddleware({
    tools: [],
    includeResolvedTools: true,
    onEvent: (event) => requests.active()?.onEvent(event),
  });
  const trace = traceToolRuns(() => requests.active()?.recordCall);
  const requests = createTracedMcpRequests<StructuredToolInterface[]>({
    framework: 'LangChain + @langchain/mcp-adapters',
    model: label,
    threadPrefix: 'langchain-mcp',
    metaTools: createMetaToolDefinitions(),
    instructions: toolSearchInstructions(),
    connect: (token) => connectLangChain(options.urls, token),
    answer: async (request, threadId, connection) => {
      const agent = createAgent({
        model,
        tools: connection.tools,
        systemPrompt: 'You are a helpful assistant with access to many tools.',
        middleware: [toolSearch, trace],
      });
      const note = unavailableInstructions(connection.unavailable);
      const result = await agent.invoke(
        { messages: [...(note ? [new SystemMessage(note)] : []), new HumanMessage(request)] },
        { configurable: { thread_id: threadId }, recursionLimit: 2 * (options.maxSteps ?? 10) + 1 },
      );
      return result.messages.at(-1)?.text ?? '';
    },
  });
  return {
    framework: 'LangChain + @langchain/mcp-adapters',
    model: label,
    offline,
    ask: requests.ask,
    dispose: async () => {
      await toolSearch.dispose();
    },
  };
}
