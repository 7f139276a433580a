/**
 * The core engine over an MCP source's tools, as an adapter would drive it: each lazy tool made an
 * entry whose resolved tool is the neutral `ResolvedTool` itself (no framework in these tests).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CatalogEntry,
  createToolSearchEngine,
  type LazyTool,
  lazyToolEntry,
  type ResolvedTool,
  type ToolSearchEngineOptions,
} from '@tool-search/core';

export type Caller = { readonly user: string; readonly token: string };

const standIn: ResolvedTool = {
  inputSchema: {},
  execute: async () => {
    throw new Error('not resolved');
  },
};

/** One entry per lazy tool, made once per tool (the engine caches a request catalog by tool identity). */
export function entriesOf(tools: readonly LazyTool<Caller>[]): CatalogEntry<ResolvedTool>[] {
  return tools.map((tool) => {
    let entry = made.get(tool);
    if (!entry) {
      entry = lazyToolEntry<ResolvedTool, Caller>(tool, { standIn, toTool: (resolved) => resolved });
      made.set(tool, entry);
    }
    return entry;
  });
}
const made = new WeakMap<LazyTool<Caller>, CatalogEntry<ResolvedTool>>();

export function engineOver(options: Omit<ToolSearchEngineOptions<ResolvedTool, Caller>, 'catalog'> = {}) {
  return createToolSearchEngine<ResolvedTool, Caller>({ catalog: [], ...options });
}

/** A Streamable HTTP connection with the caller's own bearer token. */
export function httpConnect(url: URL) {
  return async ({ requestContext }: { requestContext: Caller | undefined }) => {
    const client = new Client({ name: 'test-app', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${requestContext?.token ?? 'none'}` } },
      }),
    );
    return client;
  };
}
