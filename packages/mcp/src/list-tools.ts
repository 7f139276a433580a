/**
 * One `tools/list` of one server through one client: every page (following `nextCursor`, bounded
 * by `maxPages` and `maxTools`), and the cache hints of SEP-2549 (`ttlMs`, `cacheScope`), which
 * the MCP specification adds after 2025-11-25. The SDK (1.32.x, protocol 2025-11-25) has no
 * field for them, but keeps a result's unknown fields: they are read from the raw result.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ToolSearchError } from '@tool-search/core';

/** Who may reuse a listing: `'private'` belongs to the caller whose connection listed it. */
export type McpCacheScope = 'private' | 'public';

export interface McpListing {
  readonly tools: readonly Tool[];
  /** How long the listing may be used, from the server's `ttlMs` (the smallest of its pages). */
  readonly ttlMs: number | undefined;
  /** `'public'` only when every page is (a page without `cacheScope` counts as `defaultScope`). */
  readonly cacheScope: McpCacheScope;
  readonly pages: number;
}

export interface ListToolsOptions {
  readonly server: string;
  readonly maxPages: number;
  readonly maxTools: number;
  readonly timeoutMs: number;
  /** The scope of a page that sends no `cacheScope`. */
  readonly defaultScope: McpCacheScope;
  readonly signal?: AbortSignal;
}

export async function listAllTools(client: Client, options: ListToolsOptions): Promise<McpListing> {
  const tools: Tool[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  let ttlMs: number | undefined;
  let allPublic = true;
  let pages = 0;
  do {
    if (pages >= options.maxPages) {
      throw new ToolSearchError(
        'INVALID_INPUT',
        `MCP server "${options.server}" listed more than ${options.maxPages} pages of tools (maxPages).`,
      );
    }
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, {
      timeout: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    pages++;
    const raw = result as { ttlMs?: unknown; cacheScope?: unknown; nextCursor?: unknown };
    if (typeof raw.ttlMs === 'number' && Number.isFinite(raw.ttlMs) && raw.ttlMs >= 0) {
      ttlMs = ttlMs === undefined ? raw.ttlMs : Math.min(ttlMs, raw.ttlMs);
    }
    const scope =
      raw.cacheScope === 'public' || raw.cacheScope === 'private' ? raw.cacheScope : options.defaultScope;
    if (scope !== 'public') allPublic = false;
    for (const tool of result.tools) {
      if (tools.length >= options.maxTools) {
        throw new ToolSearchError(
          'INVALID_INPUT',
          `MCP server "${options.server}" listed more than ${options.maxTools} tools (maxTools).`,
        );
      }
      tools.push(tool);
    }
    const next = raw.nextCursor;
    cursor = typeof next === 'string' && next.length > 0 ? next : undefined;
    // A server that hands back a cursor it gave before would page for ever.
    if (cursor !== undefined) {
      if (seenCursors.has(cursor)) {
        throw new ToolSearchError(
          'INVALID_INPUT',
          `MCP server "${options.server}" repeated the cursor ${JSON.stringify(cursor.slice(0, 40))} while listing its tools.`,
        );
      }
      seenCursors.add(cursor);
    }
  } while (cursor !== undefined);
  return { tools, ttlMs, cacheScope: allPublic ? 'public' : 'private', pages };
}
