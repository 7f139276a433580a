import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ToolSearchEvent } from '@tool-search/core';
import { createFakeClock } from '@tool-search/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Caller, engineOver, entriesOf, httpConnect } from './__fixtures__/engine';
import { type FixtureServer, type FixtureTool, startFixtureServer } from './__fixtures__/http-server';
import { createMcpToolSource, type McpToolSource, type McpToolSourceEvent } from './mcp-tool-source';

const ann: Caller = { user: 'ann', token: 'token-ann' };
const bob: Caller = { user: 'bob', token: 'token-bob' };

const crmTools: FixtureTool[] = [
  {
    name: 'search',
    description: 'Search customers in the CRM by name.',
    annotations: { readOnlyHint: true },
  },
  {
    name: 'deleteCustomer',
    description: 'Delete a customer record.',
    annotations: { destructiveHint: true },
  },
];
const docsTools: FixtureTool[] = [
  { name: 'search', description: 'Search the documentation pages.', annotations: { readOnlyHint: true } },
  { name: 'readPage', description: 'Read one documentation page.' },
];

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.allSettled(opened.splice(0).map((item) => item.close()));
});

async function server(options: Parameters<typeof startFixtureServer>[0]): Promise<FixtureServer> {
  const started = await startFixtureServer(options);
  opened.push(started);
  return started;
}

function source(options: Parameters<typeof createMcpToolSource<Caller>>[0]): McpToolSource<Caller> {
  const made = createMcpToolSource<Caller>({ callerKey: (caller) => caller?.user, ...options });
  opened.push(made);
  return made;
}

const tokens = [ann.token, bob.token];

describe('createMcpToolSource over Streamable HTTP', () => {
  it('lists every page, keeps schemas out of what search sees, and resolves the schema on load', async () => {
    const many = Array.from({ length: 25 }, (_, index) => ({
      name: `tool${index}`,
      description: `Tool number ${index}.`,
    }));
    const crm = await server({ name: 'crm', tools: many, tokens, pageSize: 10 });
    const events: McpToolSourceEvent[] = [];
    const mcp = source({
      servers: { crm: { connect: httpConnect(crm.url) } },
      onEvent: (event) => events.push(event),
    });
    const { tools, unavailable } = await mcp.tools({ requestContext: ann });
    expect(unavailable).toEqual([]);
    expect(tools.map((tool) => tool.name)).toEqual(many.map((tool) => tool.name));
    expect(crm.lists.map((list) => list.cursor)).toEqual([undefined, '10', '20']);
    expect(events).toMatchObject([{ type: 'list', server: 'crm', toolCount: 25, pages: 3 }]);
    // What search reads: a name, a description, the server as a tag; no schema anywhere.
    expect(Object.keys(tools[0]!).sort()).toEqual(['description', 'metadata', 'name', 'resolve', 'tags']);
    expect(JSON.stringify(tools)).not.toContain('properties');
    expect(tools[0]!.tags).toEqual(['crm']);

    const engine = engineOver();
    const request = engine.startRequest({
      threadId: 't',
      requestContext: ann,
      requestTools: entriesOf(tools),
    });
    await request.prepareStep();
    expect((await request.searchTools({ query: 'tool number 7' })).results[0]?.name).toBe('tool7');
    expect(crm.lists).toHaveLength(3); // search listed nothing more
    expect((await request.loadTool({ toolName: 'tool7' })).success).toBe(true);
    const plan = await request.prepareStep();
    expect(plan.loaded[0]?.tool.inputSchema).toEqual({
      type: 'object',
      properties: { query: { type: 'string' } },
    });
    await engine.dispose();
  });

  it('uses a listing for its ttlMs, shares a public one between callers, and never a private one', async () => {
    const clock = createFakeClock();
    const shared = await server({
      name: 'docs',
      tools: docsTools,
      tokens,
      ttlMs: 1_000,
      cacheScope: 'public',
    });
    const own = await server({ name: 'crm', tools: crmTools, tokens, ttlMs: 1_000, cacheScope: 'private' });
    const mcp = source({
      clock,
      servers: { docs: httpConnect(shared.url), crm: httpConnect(own.url) },
    });
    await mcp.tools({ requestContext: ann });
    await mcp.tools({ requestContext: ann });
    await mcp.tools({ requestContext: bob });
    expect(shared.lists.map((list) => list.token)).toEqual(['token-ann']); // public: one listing for all
    expect(own.lists.map((list) => list.token)).toEqual(['token-ann', 'token-bob']); // private: one per caller
    clock.advance(1_000);
    await mcp.tools({ requestContext: bob });
    expect(shared.lists.map((list) => list.token)).toEqual(['token-ann', 'token-bob']);
    expect(own.lists.map((list) => list.token)).toEqual(['token-ann', 'token-bob', 'token-bob']);
  });

  it('relists on every request when the server sends no ttlMs, and keeps a listing without cacheScope private', async () => {
    const crm = await server({ name: 'crm', tools: crmTools, tokens });
    const mcp = source({ servers: { crm: httpConnect(crm.url) } });
    await mcp.tools({ requestContext: ann });
    await mcp.tools({ requestContext: ann });
    expect(crm.lists).toHaveLength(2);
    const withDefault = source({ servers: { crm: httpConnect(crm.url) }, defaultTtlMs: 60_000 });
    await withDefault.tools({ requestContext: ann });
    await withDefault.tools({ requestContext: bob });
    await withDefault.tools({ requestContext: ann });
    expect(crm.lists.slice(2).map((list) => list.token)).toEqual(['token-ann', 'token-bob']);
  });

  it('lists again after notifications/tools/list_changed', async () => {
    const crm = await server({
      name: 'crm',
      tools: crmTools,
      tokens,
      ttlMs: 3_600_000,
      cacheScope: 'public',
    });
    const events: McpToolSourceEvent[] = [];
    const mcp = source({ servers: { crm: httpConnect(crm.url) }, onEvent: (event) => events.push(event) });
    expect((await mcp.tools({ requestContext: ann })).tools.map((tool) => tool.name)).toEqual([
      'search',
      'deleteCustomer',
    ]);
    crm.setTools([...crmTools, { name: 'mergeCustomers', description: 'Merge two customer records.' }]);
    expect((await mcp.tools({ requestContext: ann })).tools).toHaveLength(2); // still cached
    await crm.notifyToolsChanged();
    await vi.waitFor(() => expect(events.some((event) => event.type === 'list-changed')).toBe(true));
    expect((await mcp.tools({ requestContext: ann })).tools.map((tool) => tool.name)).toContain(
      'mergeCustomers',
    );
  });

  it('settles name collisions between servers predictably', async () => {
    const crm = await server({ name: 'crm', tools: crmTools, tokens });
    const docs = await server({ name: 'docs', tools: docsTools, tokens });
    const mcp = source({ servers: { crm: httpConnect(crm.url), docs: httpConnect(docs.url) } });
    const { tools } = await mcp.tools({ requestContext: ann });
    expect(tools.map((tool) => tool.name)).toEqual([
      'crm_search',
      'deleteCustomer',
      'docs_search',
      'readPage',
    ]);
    expect(tools[0]!.metadata).toMatchObject({ server: 'crm', mcpName: 'search' });

    const prefixed = source({
      servers: { crm: httpConnect(crm.url), docs: httpConnect(docs.url) },
      toolNaming: 'prefix-all',
    });
    expect((await prefixed.tools({ requestContext: ann })).tools.map((tool) => tool.name)).toEqual([
      'crm_search',
      'crm_deleteCustomer',
      'docs_search',
      'docs_readPage',
    ]);

    // The prefixed name runs the tool of its own server.
    const engine = engineOver();
    const request = engine.startRequest({
      threadId: 't',
      requestContext: ann,
      requestTools: entriesOf(tools),
    });
    await request.loadTool({ toolNames: ['crm_search', 'docs_search'] });
    await request.prepareStep();
    const result = (await request.resolve('docs_search')!.tool.execute({ query: 'x' }, {})) as {
      structuredContent: unknown;
    };
    expect(result.structuredContent).toEqual({ server: 'docs', tool: 'search', token: 'token-ann' });
    await engine.dispose();
  });

  it('shows the annotations to the filter', async () => {
    const crm = await server({ name: 'crm', tools: crmTools, tokens });
    const mcp = source({ servers: { crm: httpConnect(crm.url) } });
    const { tools } = await mcp.tools({ requestContext: ann });
    const engine = engineOver({
      // Read-only tools only, from the MCP annotations.
      filter: ({ metadata }) =>
        (metadata?.annotations as { readOnlyHint?: boolean } | undefined)?.readOnlyHint === true,
    });
    const request = engine.startRequest({
      threadId: 't',
      requestContext: ann,
      requestTools: entriesOf(tools),
    });
    const found = await request.searchTools({ query: 'customer' });
    expect(found.results.map((result) => result.name)).toEqual(['search']);
    expect((await request.loadTool({ toolName: 'deleteCustomer' })).success).toBe(false);
    expect((await request.loadTool({ toolName: 'search' })).success).toBe(true);
    await engine.dispose();
  });

  it('runs each call with its own caller’s connection: two tokens, one tool name', async () => {
    const crm = await server({ name: 'crm', tools: crmTools, tokens });
    const mcp = source({ servers: { crm: httpConnect(crm.url) } });
    const engine = engineOver();
    for (const caller of [ann, bob]) {
      const { tools } = await mcp.tools({ requestContext: caller });
      const request = engine.startRequest({
        threadId: 'shared-thread',
        requestContext: caller,
        requestTools: entriesOf(tools),
      });
      await request.loadTool({ toolName: 'search' });
      await request.prepareStep();
      expect((await request.guard('search')).allowed).toBe(true);
      await request.resolve('search')!.tool.execute({ query: caller.user }, {});
    }
    expect(crm.calls).toEqual([
      { token: 'token-ann', tool: 'search', arguments: { query: 'ann' } },
      { token: 'token-bob', tool: 'search', arguments: { query: 'bob' } },
    ]);
    await engine.dispose();
  });

  it('withholds a loaded tool once the caller’s token is revoked between two requests', async () => {
    const crm = await server({ name: 'crm', tools: crmTools, tokens });
    const mcp = source({ servers: { crm: httpConnect(crm.url) } });
    const events: ToolSearchEvent[] = [];
    const engine = engineOver({ onEvent: (event) => events.push(event) });
    const first = await mcp.tools({ requestContext: ann });
    const request = engine.startRequest({
      threadId: 't',
      requestContext: ann,
      requestTools: entriesOf(first.tools),
    });
    await request.loadTool({ toolName: 'search' });
    expect((await request.prepareStep()).visible).toContain('search');

    crm.revoke(ann.token);
    // The app's tools from the last listing (its own cache, say): the engine resolves per request.
    const next = engine.startRequest({
      threadId: 't',
      requestContext: ann,
      requestTools: entriesOf(first.tools),
    });
    const plan = await next.prepareStep();
    expect(plan.visible).not.toContain('search');
    expect((await next.guard('search')).allowed).toBe(false);
    const withheld = events.find((event) => event.type === 'resolve-error');
    expect(withheld).toMatchObject({ toolName: 'search', phase: 'active' });
    // And the source itself no longer lists the server for this caller; the other caller keeps it.
    const again = await mcp.tools({ requestContext: ann });
    expect(again.tools).toEqual([]);
    expect(again.unavailable).toMatchObject([{ server: 'crm' }]);
    expect((await mcp.tools({ requestContext: bob })).tools).toHaveLength(2);
    await engine.dispose();
  });

  it('makes the tools of a server that is down unavailable with a clear message, the others keep working', async () => {
    const crm = await server({ name: 'crm', tools: crmTools, tokens });
    const docs = await server({ name: 'docs', tools: docsTools, tokens });
    const mcp = source({ servers: { crm: httpConnect(crm.url), docs: httpConnect(docs.url) } });
    const before = await mcp.tools({ requestContext: ann });
    const engine = engineOver();
    const first = engine.startRequest({
      threadId: 't',
      requestContext: ann,
      requestTools: entriesOf(before.tools),
    });
    await first.loadTool({ toolNames: ['deleteCustomer', 'readPage'] });
    await crm.close();

    const after = await mcp.tools({ requestContext: ann });
    expect(after.tools.map((tool) => tool.name)).toEqual(['search', 'readPage']);
    expect(after.unavailable).toHaveLength(1);
    expect(after.unavailable[0]!.server).toBe('crm');
    expect(after.unavailable[0]!.message).toMatch(
      /^The tools of MCP server "crm" are unavailable right now: /,
    );

    // A tool of the down server, still in the app's catalog: not loaded, and the model is told why.
    const second = engine.startRequest({
      threadId: 't2',
      requestContext: ann,
      requestTools: entriesOf(before.tools),
    });
    const answer = await second.loadTool({ toolName: 'deleteCustomer' });
    expect(answer.success).toBe(false);
    expect(answer.message).toContain('MCP server "crm" are unavailable right now');
    const third = engine.startRequest({
      threadId: 't',
      requestContext: ann,
      requestTools: entriesOf(before.tools),
    });
    const plan = await third.prepareStep();
    expect(plan.visible).toContain('readPage');
    expect(plan.visible).not.toContain('deleteCustomer');
    const page = (await third.resolve('readPage')!.tool.execute({}, {})) as { structuredContent: unknown };
    expect(page.structuredContent).toMatchObject({ server: 'docs', tool: 'readPage' });
    await engine.dispose();
  });

  it('keeps callers apart by request context object when no callerKey is given', async () => {
    const crm = await server({ name: 'crm', tools: crmTools, tokens, ttlMs: 60_000, cacheScope: 'private' });
    const mcp = createMcpToolSource<Caller>({ servers: { crm: httpConnect(crm.url) } });
    opened.push(mcp);
    await mcp.tools({ requestContext: ann });
    await mcp.tools({ requestContext: ann });
    await mcp.tools({ requestContext: { ...ann } });
    expect(crm.lists).toHaveLength(2);
  });
});

describe('createMcpToolSource over stdio', () => {
  it('lists and calls the tools of a child process server, with the caller in the environment', async () => {
    const script = fileURLToPath(new URL('./__fixtures__/stdio-server.mjs', import.meta.url));
    const mcp = source({
      servers: {
        files: ({ requestContext }) =>
          new StdioClientTransport({
            command: process.execPath,
            args: [script],
            env: { FILES_TOKEN: requestContext?.token ?? '' },
            stderr: 'ignore',
          }),
      },
    });
    const { tools } = await mcp.tools({ requestContext: ann });
    expect(tools.map((tool) => [tool.name, tool.metadata?.annotations])).toEqual([
      ['readFile', { readOnlyHint: true }],
      ['deleteFile', { destructiveHint: true }],
    ]);
    const engine = engineOver();
    const request = engine.startRequest({
      threadId: 't',
      requestContext: ann,
      requestTools: entriesOf(tools),
    });
    await request.loadTool({ toolName: 'readFile' });
    await request.prepareStep();
    const resolved = request.resolve('readFile')!.tool;
    expect(resolved.inputSchema).toMatchObject({ properties: { path: { type: 'string' } } });
    const result = (await resolved.execute({ path: 'a.txt' }, {})) as { content: { text: string }[] };
    expect(result.content[0]!.text).toBe('contents of a.txt for token-ann');
    await engine.dispose();
  });

  it('takes a connected SDK client from connect, and refuses one that is not connected', async () => {
    const script = fileURLToPath(new URL('./__fixtures__/stdio-server.mjs', import.meta.url));
    const mcp = source({
      servers: {
        files: async () => {
          const client = new Client({ name: 'app', version: '1.0.0' });
          await client.connect(
            new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'ignore' }),
          );
          return client;
        },
        broken: () => new Client({ name: 'app', version: '1.0.0' }),
      },
    });
    const { tools, unavailable } = await mcp.tools({ requestContext: ann });
    expect(tools.map((tool) => tool.name)).toEqual(['readFile', 'deleteFile']);
    expect(unavailable).toMatchObject([{ server: 'broken' }]);
    expect(unavailable[0]!.message).toContain('not connected');
  });
});
