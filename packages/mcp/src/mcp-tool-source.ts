/**
 * `createMcpToolSource`: the tools of one or more MCP servers as lazily resolved tools
 * (`LazyTool` of `@tool-search/core`), which every tool-search adapter accepts. Search reads a
 * tool's name, description and server; its input schema is handed over only when the tool is
 * loaded, by `resolve`, for the caller of that request, through that caller's own connection.
 * See docs/how-it-works.md.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  type Clock,
  checkOptionNames,
  clockOption,
  type LazyTool,
  lazyTool,
  MAX_TIMER_DELAY_MS,
  optionsObject,
  type ResolvedTool,
  type ResolveToolArgs,
  sizeOption,
  ToolSearchError,
} from '@tool-search/core';
import { type Connections, createConnections, type McpConnect } from './connections';
import { listAllTools, type McpCacheScope, type McpListing } from './list-tools';
import { catalogNames, type McpToolNaming } from './tool-names';

/** One server: how to connect to it for a caller. */
export interface McpServerOptions<TContext = unknown> {
  readonly connect: McpConnect<TContext>;
}

export type McpToolSourceEvent =
  | {
      readonly type: 'list';
      readonly server: string;
      readonly toolCount: number;
      readonly pages: number;
      readonly cacheScope: McpCacheScope;
      readonly ttlMs: number;
      readonly durationMs: number;
    }
  | { readonly type: 'list-error'; readonly server: string; readonly error: unknown }
  | { readonly type: 'list-changed'; readonly server: string };

export interface McpToolSourceOptions<TContext = unknown> {
  /** The servers by name (the name is each tool's tag, and its prefix on a collision). */
  readonly servers: Readonly<Record<string, McpServerOptions<TContext> | McpConnect<TContext>>>;
  /**
   * Who the caller of a request is: connections and private listings are kept per key, never
   * shared between keys. Default: the request context object itself (two requests share a
   * caller only when they pass the same object); no context is one anonymous caller.
   */
  readonly callerKey?: (requestContext: TContext | undefined) => string | undefined;
  /** How tools of one name on several servers are named (default `'prefix-colliding'`). */
  readonly toolNaming?: McpToolNaming;
  /** How long a listing that sends no `ttlMs` is used (default 0: relisted on every request). */
  readonly defaultTtlMs?: number;
  /** The scope of a listing that sends no `cacheScope` (default `'private'`: one caller's). */
  readonly defaultCacheScope?: McpCacheScope;
  /** Bound on connecting to a server (default 10,000 ms). */
  readonly connectTimeoutMs?: number;
  /** Bound on each page of `tools/list` (default 10,000 ms). */
  readonly listTimeoutMs?: number;
  /** Bound on one `tools/call` (default 60,000 ms, the SDK's). */
  readonly callTimeoutMs?: number;
  /** At most this many pages per listing (default 100). */
  readonly maxPages?: number;
  /** At most this many tools per server (default 10,000). */
  readonly maxTools?: number;
  /** Connections kept per server, one per caller (default 1,000; least recently used closed first). */
  readonly maxCallers?: number;
  readonly clock?: Clock;
  readonly onEvent?: (event: McpToolSourceEvent) => void;
}

/** A server whose tools this request cannot have, and why (for the model or the logs). */
export interface McpUnavailableServer {
  readonly server: string;
  readonly message: string;
}

export interface McpTools<TContext = unknown> {
  /** The lazily resolved tools this caller may search and load. */
  readonly tools: readonly LazyTool<TContext>[];
  /** Servers that could not be listed for this caller (down, refusing the caller's credentials). */
  readonly unavailable: readonly McpUnavailableServer[];
}

export interface McpToolsOptions<TContext = unknown> {
  readonly requestContext?: TContext;
  readonly signal?: AbortSignal;
}

export interface McpToolSource<TContext = unknown> {
  /** This caller's tools from every server (each server listed through the caller's connection). */
  tools(options?: McpToolsOptions<TContext>): Promise<McpTools<TContext>>;
  /** Forgets the listings (of one server, or of all): the next request lists again. */
  refresh(server?: string): void;
  /** Closes every connection. */
  close(): Promise<void>;
}

/** What an MCP tool's entry shows the filter, as `metadata`. */
export interface McpToolMetadata extends Readonly<Record<string, unknown>> {
  readonly server: string;
  /** The tool's name on its server. */
  readonly mcpName: string;
  readonly title?: string;
  readonly annotations?: Tool['annotations'];
}

/**
 * The MCP facts of a tool's `metadata` (as the engine's filter is handed it), typed; undefined
 * for a tool that did not come from an MCP source.
 */
export function mcpToolMetadata(
  metadata: Readonly<Record<string, unknown>> | undefined,
): McpToolMetadata | undefined {
  return typeof metadata?.server === 'string' && typeof metadata.mcpName === 'string'
    ? (metadata as McpToolMetadata)
    : undefined;
}

const OPTION_NAMES = {
  servers: true,
  callerKey: true,
  toolNaming: true,
  defaultTtlMs: true,
  defaultCacheScope: true,
  connectTimeoutMs: true,
  listTimeoutMs: true,
  callTimeoutMs: true,
  maxPages: true,
  maxTools: true,
  maxCallers: true,
  clock: true,
  onEvent: true,
} as const satisfies { readonly [K in keyof McpToolSourceOptions]-?: true };

interface CachedListing {
  readonly listing: McpListing;
  readonly fetchedAt: number;
  readonly ttlMs: number;
}

const ANONYMOUS = 'anonymous';

export function createMcpToolSource<TContext = unknown>(
  options: McpToolSourceOptions<TContext>,
): McpToolSource<TContext> {
  const given = optionsObject(options, 'createMcpToolSource');
  checkOptionNames(given, OPTION_NAMES, 'createMcpToolSource');
  const settings = readSettings(given);
  const { clock, emit } = settings;

  // Private listings by server and caller; public ones by server. A listing under way is shared
  // by the requests of the same caller (or, public, of every caller) that ask for it meanwhile.
  const listings = new Map<string, CachedListing>();
  const listing = new Map<string, Promise<McpListing>>();
  const publicServers = new Set<string>();
  const lazyTools = new Map<string, LazyTool<TContext>>();
  const generation = new Map<string, number>();

  const connections: Connections<TContext> = createConnections({
    connectors: settings.connectors,
    maxCallers: settings.maxCallers,
    connectTimeoutMs: settings.connectTimeoutMs,
    onListChanged: (server) => {
      forget(server);
      emit({ type: 'list-changed', server });
    },
  });

  const identities = new WeakMap<object, string>();
  let nextIdentity = 0;
  function callerOf(requestContext: TContext | undefined): string {
    if (settings.callerKey) return `key:${settings.callerKey(requestContext) ?? ANONYMOUS}`;
    if (requestContext === undefined || requestContext === null) return ANONYMOUS;
    if (typeof requestContext !== 'object' && typeof requestContext !== 'function') {
      return `value:${typeof requestContext}:${String(requestContext)}`;
    }
    let identity = identities.get(requestContext as object);
    if (identity === undefined) {
      identity = `object:${nextIdentity++}`;
      identities.set(requestContext as object, identity);
    }
    return identity;
  }

  function forget(server?: string) {
    for (const key of [...listings.keys()])
      if (server === undefined || key.split('\u0000')[0] === server) listings.delete(key);
    for (const name of server === undefined ? settings.connectors.keys() : [server]) {
      generation.set(name, (generation.get(name) ?? 0) + 1);
      publicServers.delete(name);
    }
  }

  const fresh = (cached: CachedListing | undefined) =>
    cached !== undefined && clock.now() - cached.fetchedAt < cached.ttlMs;

  /** The caller's listing of a server: cached while fresh, else listed through the caller's client. */
  async function listingFor(
    server: string,
    caller: string,
    requestContext: TContext | undefined,
    signal?: AbortSignal,
  ) {
    const privateKey = `${server}\u0000${caller}`;
    const publicKey = `${server}\u0000`;
    const cached = publicServers.has(server) ? listings.get(publicKey) : listings.get(privateKey);
    if (cached && fresh(cached)) return cached.listing;
    const flightKey = publicServers.has(server) ? publicKey : privateKey;
    let pending = listing.get(flightKey);
    if (!pending) {
      pending = listNow(server, caller, requestContext, signal);
      listing.set(flightKey, pending);
      const done = () => {
        if (listing.get(flightKey) === pending) listing.delete(flightKey);
      };
      pending.then(done, done);
    }
    return pending;
  }

  async function listNow(
    server: string,
    caller: string,
    requestContext: TContext | undefined,
    signal?: AbortSignal,
  ) {
    const started = clock.now();
    const startedGeneration = generation.get(server) ?? 0;
    let client: Client | undefined;
    try {
      client = await connections.client(server, caller, requestContext, signal);
      const result = await listAllTools(client, {
        server,
        maxPages: settings.maxPages,
        maxTools: settings.maxTools,
        timeoutMs: settings.listTimeoutMs,
        defaultScope: settings.defaultCacheScope,
        ...(signal ? { signal } : {}),
      });
      const ttlMs = result.ttlMs ?? settings.defaultTtlMs;
      // A list_changed that came while listing makes this listing stale at once.
      const stale = (generation.get(server) ?? 0) !== startedGeneration;
      const entry = { listing: result, fetchedAt: clock.now(), ttlMs: stale ? 0 : ttlMs };
      if (result.cacheScope === 'public') {
        publicServers.add(server);
        listings.set(`${server}\u0000`, entry);
      } else {
        // The server says the listing is one caller's: never reuse a shared one for it again.
        publicServers.delete(server);
        listings.delete(`${server}\u0000`);
        listings.set(`${server}\u0000${caller}`, entry);
      }
      emit({
        type: 'list',
        server,
        toolCount: result.tools.length,
        pages: result.pages,
        cacheScope: result.cacheScope,
        ttlMs,
        durationMs: clock.now() - started,
      });
      return result;
    } catch (error) {
      if (client !== undefined && !(error instanceof McpError)) connections.drop(server, caller, client);
      else if (client === undefined) connections.drop(server, caller);
      emit({ type: 'list-error', server, error });
      throw error;
    }
  }

  function unavailableMessage(server: string, error: unknown): string {
    const detail = error instanceof Error ? error.message : String(error);
    return `The tools of MCP server "${server}" are unavailable right now: ${detail.slice(0, 300)}`;
  }

  async function resolveFor(
    server: string,
    mcpName: string,
    args: ResolveToolArgs<TContext>,
  ): Promise<ResolvedTool> {
    const caller = callerOf(args.requestContext);
    let found: McpListing;
    try {
      found = await listingFor(server, caller, args.requestContext, args.signal);
    } catch (error) {
      throw new ToolSearchError('RESOLVE_FAILED', unavailableMessage(server, error), { cause: error });
    }
    const tool = found.tools.find((candidate) => candidate.name === mcpName);
    if (!tool) {
      throw new ToolSearchError(
        'RESOLVE_FAILED',
        `MCP server "${server}" no longer offers the tool "${mcpName}" to this caller.`,
      );
    }
    return {
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema as ResolvedTool['inputSchema'],
      execute: async (input, executeOptions) => {
        // The caller's own connection, with the caller's credentials: never another caller's.
        const client = await connections.client(server, caller, args.requestContext, executeOptions.signal);
        try {
          return await client.callTool(
            { name: mcpName, arguments: (input ?? {}) as Record<string, unknown> },
            undefined,
            {
              timeout: settings.callTimeoutMs,
              ...(executeOptions.signal ? { signal: executeOptions.signal } : {}),
            },
          );
        } catch (error) {
          if (!(error instanceof McpError)) connections.drop(server, caller, client);
          throw error;
        }
      },
    };
  }

  /** One lazy tool object per (server, tool, name, description, annotations): the same across requests. */
  function lazyFor(server: string, tool: Tool, name: string): LazyTool<TContext> {
    const metadata: McpToolMetadata = {
      server,
      mcpName: tool.name,
      ...(tool.title !== undefined ? { title: tool.title } : {}),
      ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
    };
    const key = JSON.stringify([server, tool.name, name, tool.description ?? null, metadata]);
    let made = lazyTools.get(key);
    if (!made) {
      made = lazyTool<TContext>({
        name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        tags: [server],
        metadata,
        resolve: (args) => resolveFor(server, tool.name, args),
      });
      lazyTools.set(key, made);
    }
    return made;
  }

  return {
    async tools(toolsOptions) {
      const { requestContext, signal } = optionsObject(toolsOptions, 'tools');
      const caller = callerOf(requestContext);
      const servers = [...settings.connectors.keys()];
      const outcomes = await Promise.allSettled(
        servers.map((server) => listingFor(server, caller, requestContext, signal)),
      );
      const listed: { server: string; tool: Tool }[] = [];
      const unavailable: McpUnavailableServer[] = [];
      outcomes.forEach((outcome, index) => {
        const server = servers[index]!;
        if (outcome.status === 'rejected') {
          unavailable.push({ server, message: unavailableMessage(server, outcome.reason) });
          return;
        }
        for (const tool of outcome.value.tools) listed.push({ server, tool });
      });
      const names = catalogNames(
        listed.map(({ server, tool }) => ({ server, mcpName: tool.name })),
        settings.toolNaming,
      );
      return {
        tools: listed.map(({ server, tool }, index) => lazyFor(server, tool, names[index]!)),
        unavailable,
      };
    },
    refresh: (server) => forget(server),
    close: () => connections.close(),
  };
}

function readSettings<TContext>(options: McpToolSourceOptions<TContext>) {
  const servers = options.servers;
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'createMcpToolSource needs `servers`: an object of servers by name.',
    );
  }
  const connectors = new Map<string, McpConnect<TContext>>();
  for (const [name, server] of Object.entries(servers)) {
    const connect =
      typeof server === 'function' ? server : (server as McpServerOptions<TContext> | null)?.connect;
    if (typeof connect !== 'function') {
      throw new ToolSearchError('INVALID_OPTIONS', `MCP server "${name}" needs a connect function.`);
    }
    if (name.length === 0 || name.includes('\u0000')) {
      throw new ToolSearchError('INVALID_OPTIONS', `MCP server name ${JSON.stringify(name)} is not valid.`);
    }
    connectors.set(name, connect);
  }
  const toolNaming = options.toolNaming ?? 'prefix-colliding';
  if (toolNaming !== 'prefix-colliding' && toolNaming !== 'prefix-all') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `toolNaming must be 'prefix-colliding' or 'prefix-all', got ${String(toolNaming)}`,
    );
  }
  const defaultCacheScope = options.defaultCacheScope ?? 'private';
  if (defaultCacheScope !== 'private' && defaultCacheScope !== 'public') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `defaultCacheScope must be 'private' or 'public', got ${String(defaultCacheScope)}`,
    );
  }
  if (options.callerKey !== undefined && typeof options.callerKey !== 'function') {
    throw new ToolSearchError('INVALID_OPTIONS', 'callerKey must be a function (requestContext) => string.');
  }
  const onEvent = options.onEvent;
  return {
    connectors,
    toolNaming,
    defaultCacheScope,
    callerKey: options.callerKey,
    clock: clockOption(options.clock, 'createMcpToolSource'),
    defaultTtlMs: sizeOption(options.defaultTtlMs, 'defaultTtlMs', 0),
    // The SDK's own timers bound these; past the longest a timer can wait, a timer fires at once.
    connectTimeoutMs: Math.min(
      sizeOption(options.connectTimeoutMs, 'connectTimeoutMs', 10_000),
      MAX_TIMER_DELAY_MS,
    ),
    listTimeoutMs: Math.min(sizeOption(options.listTimeoutMs, 'listTimeoutMs', 10_000), MAX_TIMER_DELAY_MS),
    callTimeoutMs: Math.min(sizeOption(options.callTimeoutMs, 'callTimeoutMs', 60_000), MAX_TIMER_DELAY_MS),
    maxPages: sizeOption(options.maxPages, 'maxPages', 100),
    maxTools: sizeOption(options.maxTools, 'maxTools', 10_000),
    maxCallers: sizeOption(options.maxCallers, 'maxCallers', 1_000),
    emit: (event: McpToolSourceEvent) => {
      try {
        onEvent?.(event);
      } catch {
        // A listener's error is its own: listing goes on.
      }
    },
  };
}
