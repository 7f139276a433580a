/**
 * MCP: the tools of five local MCP servers of ours (Streamable HTTP on loopback, a bearer token
 * per caller, the example catalog's tools renamed to 1,000), listed and indexed per request.
 * - time to list and index them with `@tool-search/mcp` on a caller's first request (connect,
 *   `tools/list` on each server, the index, one search) and on a later one (the listing reused
 *   while fresh), next to `@ai-sdk/mcp` listing them eagerly (every schema turned into a tool);
 * - tokens per request with tool search against sending every MCP tool on each model call;
 * - a check that no schema is read before a load: nothing resolved while listing and searching,
 *   no descriptor with a schema, one resolve on load, and the loaded tool sent with its schema.
 */
import { createMCPClient } from '@ai-sdk/mcp';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  createMetaToolDefinitions,
  createToolSearchEngine,
  type JsonSchema,
  type LazyTool,
  lazyTool,
  lazyToolEntry,
  type ResolvedTool,
} from '@tool-search/core';
import { type ExampleTool, exampleTools } from '@tool-search/example-catalog';
import {
  createTokenTable,
  type HttpCatalogServer,
  startHttpCatalogServer,
} from '@tool-search/example-mcp-agent/servers';
import { createMcpToolSource } from '@tool-search/mcp';
import type { Progress } from '../progress';
import { quantile } from '../quantile';
import { countToolsTokens, type SentTool } from '../tokens/tool-tokens';

export interface McpPlan {
  readonly servers: number;
  readonly toolsPerServer: number;
  /** Timed runs of each measurement (the median is reported). */
  readonly repeats: number;
}

export interface McpTiming {
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  readonly runs: number;
}

export interface McpResults {
  readonly servers: number;
  readonly tools: number;
  /** `@tool-search/mcp`, a caller's first request: connect, list every server, index, search. */
  readonly oursFirst: McpTiming;
  /** The same caller's next request: the listing reused (fresh for `defaultTtlMs`), index, search. */
  readonly oursCached: McpTiming;
  /** `@ai-sdk/mcp`: connect, `listTools()` and `toolsFromDefinitions()` on every server (no cache). */
  readonly aiSdkEager: McpTiming;
  readonly tokens: {
    /** Every MCP tool's definition, schema included: each model call without tool search. */
    readonly everyToolPerCall: number;
    /** The meta-tools: a model call with tool search before a load. */
    readonly metaToolsPerCall: number;
    /** The meta-tools and one loaded tool. */
    readonly afterOneLoadPerCall: number;
    /** A request with tool search: search, load, call, answer (4 model calls, 2 of them after the load). */
    readonly perRequestWithSearch: number;
    /** The same request without tool search: call, answer (2 model calls) with every tool. */
    readonly perRequestEveryTool: number;
    /** Bytes of the `tools/list` results, every schema included. */
    readonly listingBytes: number;
  };
  readonly schemaCheck: {
    readonly resolvesBeforeLoad: number;
    readonly descriptorsWithSchema: number;
    readonly resolvesAfterLoad: number;
    readonly loadedToolHasSchema: boolean;
    readonly passed: boolean;
  };
}

/** The example catalog's tools, renamed so that five servers serve `total` distinct tools. */
function benchTools(server: number, count: number): ExampleTool[] {
  return Array.from({ length: count }, (_, index) => {
    const number = server * count + index;
    const tool = exampleTools[number % exampleTools.length]!;
    return { ...tool, name: `${tool.name}_${number}` };
  });
}

const timing = (samples: number[]): McpTiming => {
  const sorted = samples.toSorted((left, right) => left - right);
  return { medianMs: quantile(sorted, 0.5), minMs: sorted[0]!, maxMs: sorted.at(-1)!, runs: sorted.length };
};

type Caller = { token: string };
const standIn: ResolvedTool = { inputSchema: { type: 'object' }, execute: async () => undefined };
const query = 'weather forecast for a city';

/** One request of ours: the caller's tools from the source, the engine's index over them, one search. */
async function oursRequest(
  source: ReturnType<typeof createMcpToolSource<Caller>>,
  caller: Caller,
  wrap: (tool: LazyTool<Caller>) => LazyTool<Caller> = (tool) => tool,
) {
  const { tools, unavailable } = await source.tools({ requestContext: caller });
  if (unavailable.length > 0)
    throw new Error(`MCP bench: ${unavailable.map((entry) => entry.message).join('; ')}`);
  const engine = createToolSearchEngine<ResolvedTool, Caller>({ catalog: [] });
  const requestTools = tools.map((tool) =>
    lazyToolEntry(wrap(tool), { standIn, toTool: (resolved) => resolved }),
  );
  const request = engine.startRequest({ threadId: caller.token, requestContext: caller, requestTools });
  const found = await request.searchTools({ query });
  return { engine, request, requestTools, found, count: tools.length };
}

function ourSource(urls: readonly string[]) {
  return createMcpToolSource<Caller>({
    servers: Object.fromEntries(
      urls.map((url, index) => [
        `server${index + 1}`,
        ({ requestContext }: { requestContext: Caller | undefined }) =>
          new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers: { authorization: `Bearer ${requestContext?.token ?? ''}` } },
          }),
      ]),
    ),
    callerKey: (caller) => caller?.token,
    // Our servers send no ttlMs: a minute's reuse, as an app would set for its own servers.
    defaultTtlMs: 60_000,
    maxTools: 10_000,
  });
}

async function timeOurs(urls: readonly string[], plan: McpPlan, expected: number) {
  const first: number[] = [];
  const cached: number[] = [];
  // One run first, untimed: module and JIT warm-up belongs to no request.
  for (let run = -1; run < plan.repeats; run++) {
    const source = ourSource(urls);
    const caller = { token: 'token-bench' };
    try {
      let started = performance.now();
      const cold = await oursRequest(source, caller);
      if (run >= 0) first.push(performance.now() - started);
      if (cold.count !== expected) throw new Error(`MCP bench: listed ${cold.count} tools, not ${expected}`);
      await cold.engine.dispose();
      started = performance.now();
      const warm = await oursRequest(source, caller);
      if (run >= 0) cached.push(performance.now() - started);
      await warm.engine.dispose();
    } finally {
      await source.close();
    }
  }
  return { first: timing(first), cached: timing(cached) };
}

async function timeAiSdk(urls: readonly string[], plan: McpPlan) {
  const samples: number[] = [];
  let definitions: SentTool[] = [];
  let bytes = 0;
  for (let run = -1; run < plan.repeats; run++) {
    const started = performance.now();
    const clients = await Promise.all(
      urls.map((url) =>
        createMCPClient({
          transport: { type: 'http', url, headers: { authorization: 'Bearer token-bench' } },
        }),
      ),
    );
    const listed = await Promise.all(clients.map((client) => client.listTools()));
    // The tools a request hands generateText: every schema made into an AI SDK tool.
    const toolSets = clients.map((client, index) => client.toolsFromDefinitions(listed[index]!));
    if (toolSets.reduce((sum, set) => sum + Object.keys(set).length, 0) === 0)
      throw new Error('MCP bench: @ai-sdk/mcp listed no tools');
    if (run >= 0) samples.push(performance.now() - started);
    definitions = listed.flatMap((result) =>
      result.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: tool.inputSchema as JsonSchema,
      })),
    );
    bytes = listed.reduce((sum, result) => sum + Buffer.byteLength(JSON.stringify(result)), 0);
    await Promise.all(clients.map((client) => client.close()));
  }
  return { timing: timing(samples), definitions, bytes };
}

/** Lists and searches with resolves counted, then loads one tool: what was read, and when. */
async function checkSchemas(urls: readonly string[]) {
  const source = ourSource(urls);
  let resolves = 0;
  const counted = (tool: LazyTool<Caller>) =>
    lazyTool<Caller>({
      ...tool,
      resolve: (args) => {
        resolves += 1;
        return tool.resolve(args);
      },
    });
  try {
    const { engine, request, requestTools, found } = await oursRequest(
      source,
      { token: 'token-bench' },
      counted,
    );
    const resolvesBeforeLoad = resolves;
    const descriptorsWithSchema = requestTools.filter(
      (entry) => entry.descriptor.parameters !== undefined,
    ).length;
    // The top result (on a small catalog with no weather tool, the first tool listed).
    const toolName = found.results[0]?.name ?? requestTools[0]?.descriptor.name ?? '';
    await request.loadTool({ toolName });
    const plan = await request.prepareStep();
    const loaded = plan.loaded.find((entry) => entry.descriptor.name === toolName);
    const schema = (loaded?.tool as ResolvedTool | undefined)?.inputSchema as
      | { properties?: object }
      | undefined;
    const loadedToolHasSchema = Object.keys(schema?.properties ?? {}).length > 0;
    await engine.dispose();
    const check = {
      resolvesBeforeLoad,
      descriptorsWithSchema,
      resolvesAfterLoad: resolves,
      loadedToolHasSchema,
    };
    return {
      ...check,
      passed:
        resolvesBeforeLoad === 0 && descriptorsWithSchema === 0 && resolves === 1 && loadedToolHasSchema,
      loadedDefinition: {
        name: toolName,
        description: loaded?.descriptor.description,
        parameters: schema as JsonSchema,
      },
    };
  } finally {
    await source.close();
  }
}

export async function runMcpSuite(options: { plan: McpPlan; progress?: Progress }): Promise<McpResults> {
  const { plan, progress } = options;
  const tokens = createTokenTable({ 'token-bench': 'bench' });
  const servers: HttpCatalogServer[] = [];
  try {
    for (let index = 0; index < plan.servers; index++) {
      servers.push(
        await startHttpCatalogServer({
          spec: {
            name: `server${index + 1}`,
            description: 'bench',
            tools: benchTools(index, plan.toolsPerServer),
          },
          tokens,
        }),
      );
    }
    const urls = servers.map((server) => server.url);
    const total = plan.servers * plan.toolsPerServer;
    progress?.phase(`MCP: ${total} tools from ${plan.servers} local servers`, 3);
    const ours = await timeOurs(urls, plan, total);
    progress?.advance(1, 'ours timed');
    const eager = await timeAiSdk(urls, plan);
    progress?.advance(1, '@ai-sdk/mcp timed');
    const { loadedDefinition, ...schemaCheck } = await checkSchemas(urls);
    progress?.advance(1, 'schema check');
    const metaTools = createMetaToolDefinitions().map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema as JsonSchema,
    }));
    const everyToolPerCall = countToolsTokens(eager.definitions);
    const metaToolsPerCall = countToolsTokens(metaTools);
    const afterOneLoadPerCall = countToolsTokens([...metaTools, loadedDefinition]);
    return {
      servers: plan.servers,
      tools: total,
      oursFirst: ours.first,
      oursCached: ours.cached,
      aiSdkEager: eager.timing,
      tokens: {
        everyToolPerCall,
        metaToolsPerCall,
        afterOneLoadPerCall,
        perRequestWithSearch: 2 * metaToolsPerCall + 2 * afterOneLoadPerCall,
        perRequestEveryTool: 2 * everyToolPerCall,
        listingBytes: eager.bytes,
      },
      schemaCheck,
    };
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}
