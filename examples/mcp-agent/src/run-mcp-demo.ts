import { demoRequests, oneLine } from '@tool-search/example-catalog';
import { renderListing, renderMcpTrace } from './render';
import { type ExampleServers, exampleUsers, startExampleServers } from './servers';
import type { McpExampleAgent, McpRequestTrace } from './traced-mcp-requests';

/** The MCP example's agents: each framework's own MCP client, and ours. */
export const mcpDemoFrameworks = ['ai-sdk', 'mastra', 'langchain', 'ours'] as const;
export type McpDemoFramework = (typeof mcpDemoFrameworks)[number];

type Factory = (options: {
  urls: Readonly<Record<string, string>>;
  model: 'auto' | 'offline';
}) => Promise<McpExampleAgent>;

/** Each agent is imported only when chosen (a framework takes seconds to load). */
const factories: Record<McpDemoFramework, () => Promise<Factory>> = {
  'ai-sdk': async () => (await import('./ai-sdk-mcp-agent')).createAiSdkMcpAgent,
  mastra: async () => (await import('./mastra-mcp-agent')).createMastraMcpAgent,
  langchain: async () => (await import('./langchain-mcp-agent')).createLangChainMcpAgent,
  ours: async () => (await import('./own-mcp-agent')).createOwnMcpAgent,
};

export interface RunMcpDemoOptions {
  /** Which agents (default: all four). */
  readonly frameworks?: readonly McpDemoFramework[];
  /** The requests each agent runs for alice (default: the demo requests). */
  readonly requests?: readonly string[];
  /** A real model when a provider key is set (default: the offline planner). */
  readonly real?: boolean;
  readonly color?: boolean;
  readonly write?: (text: string) => void;
  readonly writeError?: (text: string) => void;
  /** Said while something runs (`pnpm demo`'s spinner). */
  readonly progress?: (text: string) => void;
}

const weather = "what's the weather forecast in Lisbon this weekend";
const issue = 'create a github issue in the payments repo about failed refunds';

/**
 * The MCP demo: starts our four servers, runs the requests through each chosen agent as alice,
 * then, with the first agent, the per-caller story: alice and bob call the same tool (the server
 * records each call's token), bob's token is revoked, and a server goes down. Returns the exit
 * code (1 when a request failed).
 */
export async function runMcpDemo(options: RunMcpDemoOptions = {}): Promise<number> {
  const write = options.write ?? ((text: string) => console.log(text));
  const writeError = options.writeError ?? ((text: string) => console.error(text));
  const color = options.color ?? false;
  const bold = (text: string) => (color ? `\u001b[1m${text}\u001b[0m` : text);
  const dim = (text: string) => (color ? `\u001b[2m${text}\u001b[0m` : text);
  const chosen = options.frameworks ?? mcpDemoFrameworks;
  const requests = options.requests?.length ? options.requests : demoRequests.map((request) => request.text);
  const servers = await startExampleServers();
  let failed = 0;
  const summary: { framework: string; traces: McpRequestTrace[] }[] = [];
  try {
    write(bold('tool-search demo · MCP · the example catalog served by four MCP servers of ours'));
    for (const server of servers.servers) write(dim(`  ${server.name.padEnd(10)} ${server.url}`));
    write(
      `Each request connects with its caller's bearer token (alice: ${exampleUsers.alice}, bob: ${exampleUsers.bob}); ` +
        'a server refuses any other token with 401.\n',
    );
    for (const [index, framework] of chosen.entries()) {
      options.progress?.(`starting the ${framework} MCP agent…`);
      const agent = await (await factories[framework]())({
        urls: servers.urls,
        model: options.real ? 'auto' : 'offline',
      });
      const traces: McpRequestTrace[] = [];
      try {
        write(bold(`── ${agent.framework} · model: ${agent.model} ──\n`));
        for (const request of requests) {
          options.progress?.(`${agent.framework}: "${oneLine(request, 120)}"`);
          try {
            const trace = await agent.ask(request, { token: exampleUsers.alice });
            traces.push(trace);
            write(`${renderMcpTrace(trace, { color })}\n`);
          } catch (error) {
            failed++;
            writeError(
              `"${oneLine(request, 200)}" failed: ${oneLine(error instanceof Error ? error.message : String(error), 300)}\n`,
            );
          }
        }
        if (index === 0) await perCallerStory(agent, servers, { write, bold, color });
      } finally {
        await agent.dispose();
      }
      summary.push({ framework: agent.framework, traces });
    }
    write(renderSummary(summary, bold, dim));
  } finally {
    await servers.close();
  }
  return failed > 0 ? 1 : 0;
}

async function perCallerStory(
  agent: McpExampleAgent,
  servers: ExampleServers,
  style: { write: (text: string) => void; bold: (text: string) => string; color: boolean },
): Promise<void> {
  const { write, bold } = style;
  const before = servers.calls.length;
  write(bold('── two callers, one tool: each call runs with its own caller’s token ──'));
  for (const [user, token] of Object.entries(exampleUsers)) {
    const trace = await agent.ask(weather, { token });
    write(`  ${user}: called ${trace.toolsCalled.join(', ') || '(nothing)'}`);
  }
  for (const call of servers.calls.slice(before))
    write(`  server ${call.server} ran ${call.toolName} with token ${call.token} (user ${call.user})`);

  write(bold('\n── bob’s token revoked: his next request gets none of the tools ──'));
  servers.tokens.revoke(exampleUsers.bob);
  try {
    write(
      `${renderMcpTrace(await agent.ask(weather, { token: exampleUsers.bob }), { color: style.color })}\n`,
    );
  } finally {
    servers.tokens.grant(exampleUsers.bob, 'bob');
  }

  write(bold('── the travel server down: its tools are unavailable, the others keep working ──'));
  const travel = servers.server('travel');
  await travel.down();
  try {
    write(
      `${renderMcpTrace(await agent.ask(issue, { token: exampleUsers.alice }), { color: style.color })}\n`,
    );
  } finally {
    await travel.up();
  }
}

function renderSummary(
  rows: readonly { framework: string; traces: readonly McpRequestTrace[] }[],
  bold: (text: string) => string,
  dim: (text: string) => string,
): string {
  const lines = [bold('What each MCP client listed per request, and what the model was sent')];
  for (const { framework, traces } of rows) {
    const first = traces[0];
    if (!first) continue;
    const sent = traces.reduce((sum, trace) => sum + trace.tokens.withToolSearch, 0);
    const every = traces.reduce(
      (sum, trace) => sum + trace.listing.tokens * trace.tokens.modelCallsWithoutSearch,
      0,
    );
    lines.push(`  ${framework}`);
    lines.push(`    ${renderListing(first)}`);
    lines.push(
      `    ${traces.length} requests: ${sent.toLocaleString('en-US')} tokens of tool definitions sent with tool search` +
        (first.framework.includes('@tool-search/mcp')
          ? ''
          : ` vs ${every.toLocaleString('en-US')} sending every MCP tool on each model call (${Math.round(every / Math.max(sent, 1))}× fewer)`),
    );
  }
  lines.push(
    dim(
      '  The frameworks’ clients turn every listed tool, schema included, into a tool before the model runs;\n' +
        '  tool search then sends only the meta-tools and what the model loads. Ours (@tool-search/mcp) does not\n' +
        '  read the schemas at all until a load, and keeps each caller’s connection for the next request.',
    ),
  );
  return lines.join('\n');
}
