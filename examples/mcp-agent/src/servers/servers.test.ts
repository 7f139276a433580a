import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exampleTools } from '@tool-search/example-catalog';
import { afterAll, describe, expect, it } from 'vitest';
import { exampleServerSpecs, exampleUsers, startExampleServers, stdioServerCommand } from './index';

const servers = await startExampleServers();
afterAll(() => servers.close());

async function connect(url: string, token: string | undefined) {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describe('the example MCP servers', () => {
  it('serve every catalog tool exactly once, split by domain', () => {
    const names = exampleServerSpecs().flatMap((spec) => spec.tools.map((tool) => tool.name));
    expect(names.toSorted()).toEqual(exampleTools.map((tool) => tool.name).toSorted());
  });

  it('list their tools and run a call over Streamable HTTP, recording the token it came with', async () => {
    const client = await connect(servers.urls.travel!, exampleUsers.alice);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('get_weather_forecast');
    expect(tools.find((tool) => tool.name === 'get_weather_forecast')?.annotations?.readOnlyHint).toBe(true);
    const result = await client.callTool({
      name: 'get_weather_forecast',
      arguments: { city: 'Oslo', startDate: '2025-06-17' },
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(servers.server('travel').calls.at(-1)).toMatchObject({
      server: 'travel',
      toolName: 'get_weather_forecast',
      token: exampleUsers.alice,
      user: 'alice',
      input: { city: 'Oslo', startDate: '2025-06-17', days: 3 },
    });
    await client.close();
  });

  it('answer 401 to a request without a token, with an unknown one, and with a revoked one', async () => {
    const refusedBefore = servers.server('money').refused();
    await expect(connect(servers.urls.money!, undefined)).rejects.toThrow(/401|bearer token/i);
    await expect(connect(servers.urls.money!, 'token-mallory')).rejects.toThrow(/401|revoked/i);
    servers.tokens.grant('token-carol', 'carol');
    const client = await connect(servers.urls.money!, 'token-carol');
    servers.tokens.revoke('token-carol');
    await expect(client.listTools()).rejects.toThrow(/401|revoked/i);
    // The client may also open its event stream (GET) after the revocation: that is refused too.
    expect(servers.server('money').refused()).toBeGreaterThanOrEqual(refusedBefore + 3);
    await client.close();
  });

  it('refuse arguments that do not match the schema, with the reason', async () => {
    const client = await connect(servers.urls.travel!, exampleUsers.bob);
    const result = await client.callTool({ name: 'get_weather_forecast', arguments: { city: 42 } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/city/);
    await client.close();
  });

  it('go down (connection refused) and come back up on the same port', async () => {
    const code = servers.server('code');
    await code.down();
    await expect(connect(code.url, exampleUsers.alice)).rejects.toThrow();
    await code.up();
    const client = await connect(code.url, exampleUsers.alice);
    expect((await client.listTools()).tools.length).toBeGreaterThan(50);
    await client.close();
  });

  it('serve one server over stdio with the token from the environment, logging each call', async () => {
    const callLog = join(mkdtempSync(join(tmpdir(), 'mcp-stdio-')), 'calls.jsonl');
    const command = stdioServerCommand({
      server: 'money',
      token: exampleUsers.bob,
      tokens: servers.tokens.entries(),
      callLog,
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StdioClientTransport(command));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('convert_currency');
    await client.callTool({ name: 'convert_currency', arguments: { amount: 10, from: 'USD', to: 'EUR' } });
    await client.close();
    expect(JSON.parse(readFileSync(callLog, 'utf8').trim())).toMatchObject({
      server: 'money',
      toolName: 'convert_currency',
      token: exampleUsers.bob,
      user: 'bob',
    });
  }, 30_000);

  it('over stdio, refuse to start for an unknown token', async () => {
    const command = stdioServerCommand({
      server: 'money',
      token: 'token-mallory',
      tokens: servers.tokens.entries(),
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await expect(client.connect(new StdioClientTransport({ ...command, stderr: 'pipe' }))).rejects.toThrow();
  }, 30_000);
});
