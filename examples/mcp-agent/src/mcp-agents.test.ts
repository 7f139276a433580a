// The three MCP example agents (each framework's own MCP client, tool search over the tools it
// lists) against our real SDK servers: per-caller tokens, a revoked token, a server that is down.
import { createOfflineModel } from '@tool-search/example-ai-sdk-agent';
import { OfflinePlannerChatModel } from '@tool-search/example-langchain-agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAiSdkMcpAgent } from './ai-sdk-mcp-agent';
import { createLangChainMcpAgent } from './langchain-mcp-agent';
import { createMastraMcpAgent } from './mastra-mcp-agent';
import { createOwnMcpAgent } from './own-mcp-agent';
import { exampleUsers, startExampleServers } from './servers';
import type { McpExampleAgent, McpRequestTrace } from './traced-mcp-requests';

const servers = await startExampleServers();
afterAll(() => servers.close());

const weather = "what's the weather forecast in Lisbon this weekend";
const issue = 'create a github issue in the payments repo about failed refunds';
const aiSdkModel = createOfflineModel();

const agents: [string, () => Promise<McpExampleAgent>, (tool: string, server: string) => string][] = [
  [
    'AI SDK (@ai-sdk/mcp)',
    () => createAiSdkMcpAgent({ urls: servers.urls, model: aiSdkModel }),
    (tool) => tool,
  ],
  [
    'Mastra (@mastra/mcp)',
    () => createMastraMcpAgent({ urls: servers.urls, model: createOfflineModel() }),
    // Mastra's MCPClient names a tool `server_tool`.
    (tool, server) => `${server}_${tool}`,
  ],
  [
    'LangChain (@langchain/mcp-adapters)',
    () => createLangChainMcpAgent({ urls: servers.urls, model: new OfflinePlannerChatModel() }),
    (tool) => tool,
  ],
  [
    'AI SDK (ours: @tool-search/mcp)',
    () => createOwnMcpAgent({ urls: servers.urls, model: createOfflineModel() }),
    (tool) => tool,
  ],
];

const sentTools = (trace: McpRequestTrace) => trace.steps.flatMap((step) => step.sent);
const callsOf = (toolName: string, from: number) =>
  servers.calls.slice(from).filter((call) => call.toolName === toolName);

describe.each(agents)('the %s MCP agent', (_framework, create, named) => {
  let agent: McpExampleAgent;
  beforeAll(async () => {
    agent = await create();
  });
  afterAll(() => agent.dispose());

  it('connects per request with the caller’s token: two callers load and call the same tool, each call with its own token', async () => {
    const before = servers.calls.length;
    const alice = await agent.ask(weather, { token: exampleUsers.alice });
    const bob = await agent.ask(weather, { token: exampleUsers.bob });

    for (const trace of [alice, bob]) {
      expect(trace.unavailable).toEqual([]);
      expect(trace.toolsCalled).toEqual([named('get_weather_forecast', 'travel')]);
      // Only the meta-tools until the load, then the one loaded tool: never the 224 listed.
      expect(trace.steps[0]!.sent).toEqual(['search_tools', 'load_tool']);
      expect(new Set(sentTools(trace)).size).toBe(3);
      expect(trace.listing.tools).toBe(224);
      if (_framework.includes('ours')) {
        // Ours indexes names and descriptions only: the schemas are read on load.
        expect(trace.listing.tokens).toBeLessThan(12_000);
      } else {
        // What the framework's client listed eagerly: every schema of every server.
        expect(trace.listing.tokens).toBeGreaterThan(30_000);
        expect(trace.tokens.withToolSearch).toBeLessThan(trace.listing.tokens / 10);
      }
    }
    expect(callsOf('get_weather_forecast', before).map(({ token, user }) => ({ token, user }))).toEqual([
      { token: exampleUsers.alice, user: 'alice' },
      { token: exampleUsers.bob, user: 'bob' },
    ]);
  });

  it('withholds a loaded tool once the caller’s token is revoked between two requests', async () => {
    const token = `token-carol-${_framework.length}`;
    servers.tokens.grant(token, 'carol');
    const threadId = `carol-${_framework}`;
    const before = servers.calls.length;
    const first = await agent.ask(weather, { token, threadId });
    expect(first.toolsCalled).toEqual([named('get_weather_forecast', 'travel')]);

    servers.tokens.revoke(token);
    const second = await agent.ask(weather, { token, threadId });
    // Every server refused the token: nothing listed, the thread's loaded tool is not sent again.
    expect(second.unavailable.map((entry) => entry.server).toSorted()).toEqual([
      'code',
      'money',
      'travel',
      'workspace',
    ]);
    for (const entry of second.unavailable)
      expect(entry.message).toMatch(/refused the caller’s token \(HTTP 401\)/);
    expect(second.listing.tools).toBe(0);
    expect(sentTools(second).every((name) => name === 'search_tools' || name === 'load_tool')).toBe(true);
    expect(second.toolsCalled).toEqual([]);
    expect(callsOf('get_weather_forecast', before).map((call) => call.token)).toEqual([token]);
  });

  it('says a server that is down is unavailable, and the other servers’ tools keep working', async () => {
    const travel = servers.server('travel');
    await travel.down();
    try {
      const down = await agent.ask(weather, { token: exampleUsers.alice });
      expect(down.unavailable).toEqual([{ server: 'travel', message: 'is down (connection refused)' }]);
      expect(down.listing.tools).toBe(224 - 48);
      expect(down.toolsCalled).not.toContain(named('get_weather_forecast', 'travel'));

      const before = servers.calls.length;

      const working = await agent.ask(issue, { token: exampleUsers.alice });
      expect(working.unavailable).toEqual([{ server: 'travel', message: 'is down (connection refused)' }]);
      expect(working.toolsCalled).toEqual([named('create_github_issue', 'code')]);
      expect(servers.calls.slice(before).map((call) => [call.server, call.toolName, call.user])).toEqual([
        ['code', 'create_github_issue', 'alice'],
      ]);
    } finally {
      await travel.up();
    }
  });
});

it('tells the model which servers are unavailable and why (the AI SDK agent’s system prompt)', async () => {
  const agent = await createAiSdkMcpAgent({ urls: servers.urls, model: aiSdkModel });
  const money = servers.server('money');
  await money.down();
  try {
    const before = aiSdkModel.doGenerateCalls.length;
    await agent.ask(issue, { token: exampleUsers.bob });
    const system = aiSdkModel.doGenerateCalls[before]!.prompt.find((message) => message.role === 'system');
    expect(system?.content).toContain('These tool servers are unavailable for this request');
    expect(system?.content).toContain('- money: is down (connection refused)');
  } finally {
    await money.up();
    await agent.dispose();
  }
});
