/**
 * A real MCP server of the SDK (its low-level `Server`, so that a test can page its listing and
 * send the cache hints of SEP-2549) over Streamable HTTP on a loopback port, behind a bearer
 * token check. It records every listing and call with the token it came with.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

export interface FixtureTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: Tool['inputSchema'];
  readonly annotations?: Tool['annotations'];
}

export interface FixtureServerOptions {
  readonly name: string;
  /** The tools each token may see (every token sees the same ones when a list is given). */
  readonly tools: readonly FixtureTool[] | ((token: string) => readonly FixtureTool[]);
  /** Tokens accepted (checked on every HTTP request). */
  readonly tokens: readonly string[];
  readonly pageSize?: number;
  readonly ttlMs?: number;
  readonly cacheScope?: 'private' | 'public';
}

export interface FixtureServer {
  readonly url: URL;
  /** Each `tools/list` page served, with its token. */
  readonly lists: { token: string; cursor: string | undefined }[];
  /** Each `tools/call`, with the token of the HTTP request it came in. */
  readonly calls: { token: string; tool: string; arguments: unknown }[];
  revoke(token: string): void;
  setTools(tools: readonly FixtureTool[]): void;
  /** Sends `notifications/tools/list_changed` on every open session. */
  notifyToolsChanged(): Promise<void>;
  close(): Promise<void>;
}

const objectSchema: Tool['inputSchema'] = { type: 'object', properties: { query: { type: 'string' } } };

function bearer(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' && header.startsWith('Bearer ')
    ? header.slice('Bearer '.length)
    : undefined;
}

export async function startFixtureServer(options: FixtureServerOptions): Promise<FixtureServer> {
  const tokens = new Set(options.tokens);
  let tools = options.tools;
  const lists: FixtureServer['lists'] = [];
  const calls: FixtureServer['calls'] = [];
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();

  const toolsFor = (token: string): Tool[] =>
    (typeof tools === 'function' ? tools(token) : tools).map((tool) => ({
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema ?? objectSchema,
      ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
    }));

  function mcpServer(): Server {
    const server = new Server(
      { name: options.name, version: '1.0.0' },
      { capabilities: { tools: { listChanged: true } } },
    );
    server.setRequestHandler(ListToolsRequestSchema, (request, extra) => {
      const token = extra.authInfo?.token ?? '';
      const cursor = request.params?.cursor;
      lists.push({ token, cursor });
      const all = toolsFor(token);
      const size = options.pageSize ?? all.length;
      const start = cursor === undefined ? 0 : Number(cursor);
      const next = start + size < all.length ? String(start + size) : undefined;
      return {
        tools: all.slice(start, start + size),
        ...(next !== undefined ? { nextCursor: next } : {}),
        ...(options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {}),
        ...(options.cacheScope !== undefined ? { cacheScope: options.cacheScope } : {}),
      };
    });
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const token = extra.authInfo?.token ?? '';
      calls.push({ token, tool: request.params.name, arguments: request.params.arguments });
      if (!toolsFor(token).some((tool) => tool.name === request.params.name)) {
        return { content: [{ type: 'text', text: `Unknown tool ${request.params.name}` }], isError: true };
      }
      return {
        content: [{ type: 'text', text: `${options.name}:${request.params.name} for ${token}` }],
        structuredContent: { server: options.name, tool: request.params.name, token },
      };
    });
    return server;
  }

  const http: HttpServer = createServer(async (request, response) => {
    const token = bearer(request);
    if (token === undefined || !tokens.has(token)) {
      response
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    (request as IncomingMessage & { auth?: unknown }).auth = { token, clientId: token, scopes: [] };
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) {
      await existing.transport.handleRequest(request, response);
      return;
    }
    if (request.method !== 'POST') {
      response.writeHead(400).end();
      return;
    }
    const server = mcpServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;

  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    lists,
    calls,
    revoke: (token) => {
      tokens.delete(token);
    },
    setTools: (next) => {
      tools = next;
    },
    notifyToolsChanged: async () => {
      await Promise.all([...sessions.values()].map(({ server }) => server.sendToolListChanged()));
    },
    close: async () => {
      await Promise.allSettled([...sessions.values()].map(({ server }) => server.close()));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
