import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type CatalogServerSpec, createCatalogServer, type RecordedCall } from './catalog-server';
import { bearerToken, type TokenTable } from './token-table';

export interface HttpCatalogServerOptions {
  readonly spec: CatalogServerSpec;
  readonly tokens: TokenTable;
  /** Told of every call (in addition to the server's own `calls`). */
  readonly onCall?: (call: RecordedCall) => void;
  /** 0 (the default): any free loopback port. */
  readonly port?: number;
}

/** One of our MCP servers over Streamable HTTP on a loopback port. */
export interface HttpCatalogServer {
  readonly name: string;
  /** `http://127.0.0.1:PORT/mcp` */
  readonly url: string;
  /** Every call it ran, in order, with the token it came with. */
  readonly calls: RecordedCall[];
  /** How many requests it answered with 401. */
  readonly refused: () => number;
  /** How many `tools/list` requests it answered. */
  readonly listings: () => number;
  /** Stops listening and drops open connections: clients get "connection refused". */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  readonly isUp: () => boolean;
  close(): Promise<void>;
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    ...(status === 401 ? { 'www-authenticate': 'Bearer error="invalid_token"' } : {}),
  });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

const isListing = (body: unknown) =>
  [body].flat().some((message) => (message as { method?: unknown } | null)?.method === 'tools/list');

/**
 * Serves `spec`'s tools over Streamable HTTP (stateless: a new `McpServer` and transport per HTTP
 * request, so each request runs as the caller its bearer token names). A request without a token,
 * or with one the table does not know (revoked), is answered 401 before any MCP message is read.
 */
export async function startHttpCatalogServer(options: HttpCatalogServerOptions): Promise<HttpCatalogServer> {
  const { spec, tokens } = options;
  const calls: RecordedCall[] = [];
  let refused = 0;
  let listings = 0;
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (!request.url?.startsWith('/mcp')) return refuse(response, 404, 'Not found: the MCP endpoint is /mcp');
    const token = bearerToken(request.headers.authorization);
    const user = token === undefined ? undefined : tokens.userFor(token);
    if (token === undefined || user === undefined) {
      refused += 1;
      return refuse(
        response,
        401,
        token === undefined ? 'A bearer token is required' : 'Unknown or revoked token',
      );
    }
    if (request.method !== 'POST')
      return refuse(response, 405, 'Method not allowed: this server is stateless');
    const body = await readJson(request).catch(() => null);
    if (body === null) return refuse(response, 400, 'Parse error: the body is not JSON');
    if (isListing(body)) listings += 1;
    const record = (call: RecordedCall) => {
      calls.push(call);
      options.onCall?.(call);
    };
    const server = createCatalogServer(spec, { token, user }, record);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  };
  const http: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        refuse(response, 500, error instanceof Error ? error.message : String(error));
    });
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      http.once('error', reject);
      http.listen(port, '127.0.0.1', () => {
        http.off('error', reject);
        resolve((http.address() as AddressInfo).port);
      });
    });
  const port = await listen(options.port ?? 0);
  let up = true;
  const down = async () => {
    if (!up) return;
    up = false;
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  };
  return {
    name: spec.name,
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    refused: () => refused,
    listings: () => listings,
    down,
    up: async () => {
      if (up) return;
      await listen(port);
      up = true;
    },
    isUp: () => up,
    close: down,
  };
}
