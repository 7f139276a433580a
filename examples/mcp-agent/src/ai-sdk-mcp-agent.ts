import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import { createToolSearch } from '@tool-search/ai-sdk';
import { type ModelOption, resolveModel } from '@tool-search/example-ai-sdk-agent';
import type { ToolDefinitionForTokens, ToolRunListener } from '@tool-search/example-catalog';
import { generateText, isStepCount, type Tool, type ToolSet } from 'ai';
import { connectEach, type UnavailableServer, unavailableInstructions } from './connections';
import { createTracedMcpRequests, type McpExampleAgent } from './traced-mcp-requests';

export interface McpAgentOptions<MODEL> {
  /** The servers by name: `{ travel: 'http://127.0.0.1:…/mcp', … }` (Streamable HTTP). */
  readonly urls: Readonly<Record<string, string>>;
  readonly model?: MODEL;
  readonly maxSteps?: number;
}

/** Reports each run of an MCP tool to the trace (the framework's tool, same name and schema). */
function traced(name: string, tool: Tool, onRun: ToolRunListener): Tool {
  const execute = tool.execute;
  if (!execute) return tool;
  return {
    ...tool,
    execute: async (input, callOptions) => {
      try {
        const output = await execute(input, callOptions);
        onRun({ toolName: name, input, output });
        return output;
      } catch (error) {
        onRun({ toolName: name, input, error });
        throw error;
      }
    },
  } as Tool;
}

/**
 * One AI SDK request with tool search's call settings (the caller's MCP tools in them), told which
 * servers are unavailable: the call both AI SDK agents make.
 */
export async function generateWithToolSearch(options: {
  readonly model: Parameters<typeof generateText>[0]['model'];
  readonly settings: ReturnType<ReturnType<typeof createToolSearch>['forCall']>;
  readonly unavailable: readonly UnavailableServer[];
  readonly maxSteps: number | undefined;
  readonly prompt: string;
}): Promise<string> {
  const result = await generateText({
    model: options.model,
    ...options.settings,
    instructions: [
      'You are a helpful assistant with access to many tools.',
      unavailableInstructions(options.unavailable),
    ]
      .filter(Boolean)
      .join('\n\n'),
    stopWhen: isStepCount(options.maxSteps ?? 10),
    telemetry: { isEnabled: false },
    prompt: options.prompt,
  });
  return result.text;
}

/**
 * The AI SDK with its own MCP client (`@ai-sdk/mcp`): per request, one client per server with the
 * caller's bearer token; `client.listTools()` lists every tool with its input schema (eagerly: the
 * listing's size and tokens go in the trace), and the tools go to `forCall({ requestTools })`, so
 * they are searchable and hidden until loaded, and a loaded name runs this caller's own client.
 */
export async function createAiSdkMcpAgent(options: McpAgentOptions<ModelOption>): Promise<McpExampleAgent> {
  const { model, label, offline } = await resolveModel(options.model);
  const toolSearch = createToolSearch({
    tools: {},
    onEvent: (event) => requests.active()?.onEvent(event),
  });
  const onRun: ToolRunListener = (run) => requests.active()?.recordCall(run);
  const requests = createTracedMcpRequests<ToolSet>({
    framework: 'AI SDK + @ai-sdk/mcp',
    model: label,
    threadPrefix: 'ai-sdk-mcp',
    metaTools: toolSearch.engine.metaTools,
    instructions: toolSearch.instructions,
    connect: (token) =>
      connectEach<{ client: MCPClient; listed: Awaited<ReturnType<MCPClient['listTools']>> }, ToolSet>({
        urls: options.urls,
        connect: async (_name, url) => {
          const client = await createMCPClient({
            transport: { type: 'http', url, headers: { authorization: `Bearer ${token}` } },
          });
          try {
            return { client, listed: await client.listTools() };
          } catch (error) {
            await client.close();
            throw error;
          }
        },
        describe: ({ listed }) => ({
          definitions: listed.tools.map(
            (tool): ToolDefinitionForTokens => ({
              name: tool.name,
              description: tool.description,
              inputSchema: tool.inputSchema as ToolDefinitionForTokens['inputSchema'],
            }),
          ),
          bytes: Buffer.byteLength(JSON.stringify(listed)),
        }),
        join: (servers) =>
          Object.fromEntries(
            servers.flatMap(({ server }) =>
              Object.entries(server.client.toolsFromDefinitions(server.listed)).map(([name, tool]) => [
                name,
                traced(name, tool as Tool, onRun),
              ]),
            ),
          ),
        close: ({ client }) => client.close(),
      }),
    answer: (request, threadId, connection) =>
      generateWithToolSearch({
        model,
        settings: toolSearch.forCall({ threadId, requestTools: connection.tools }),
        unavailable: connection.unavailable,
        maxSteps: options.maxSteps,
        prompt: request,
      }),
  });
  return {
    framework: 'AI SDK + @ai-sdk/mcp',
    model: label,
    offline,
    ask: requests.ask,
    dispose: () => toolSearch.dispose(),
  };
}
