import { demoRequests } from '@tool-search/example-catalog';
import { evalSources, ownSource } from './datasets';
import type { BenchConfig } from './run-bench';
import { defaultParallel } from './run-bench';
import { HELD_APART_REQUESTS, type LearningPlan } from './suites/learning';
import type { McpPlan } from './suites/mcp';
import type { NativePlan } from './suites/native';
import { hasRedisServer } from './suites/steps';

/** The learning protocol of issue 55 on every query; `maxQueries` subsamples each half. */
export function learningPlan(options: { maxQueries?: number } = {}): LearningPlan {
  return {
    curve: [10, 100, 1_000],
    kinds: ['keyword', 'hybrid'],
    maxQueries: options.maxQueries,
    timedSearches: options.maxQueries ? 200 : 1_000,
    heldApart: HELD_APART_REQUESTS,
  };
}

/** `pnpm bench`: every query of every set, 1k/10k/100k tools, 2,000 steps per adapter; under ten minutes here. */
export function fullConfig(
  options: { maxQueries?: number; scanMaxQueries?: number; parallel?: number } = {},
): BenchConfig {
  const sources = evalSources();
  return {
    mode: 'full',
    sources,
    maxQueries: options.maxQueries,
    // Mastra's and the AI SDK's searches scan the catalog (50-150 ms each on the larger sets):
    // 500 queries per set keep the run under ten minutes; ours and BM25 rank every query.
    scanMaxQueries: options.scanMaxQueries ?? 500,
    parallel: options.parallel ?? defaultParallel(),
    choose: { sets: sources.map((source) => source.name), maxQueries: 300 },
    tokenSizes: [50, 200, 1_000, 5_000],
    speed: {
      sizes: [1_000, 10_000, 100_000],
      realRequestSizes: [10_000],
      runs: (size) => (size <= 1_000 ? 5 : size <= 10_000 ? 3 : 1),
      queries: (size) => (size <= 1_000 ? 2_000 : size <= 10_000 ? 1_000 : 300),
      warmup: 100,
      buildBudgetMs: 20_000,
      queryBudgetMs: 4_000,
      jobTimeoutMs: 180_000,
      peerTimeoutMs: 30_000,
      seed: 1,
      isolate: true,
      measureMemory: true,
    },
    steps: { size: 1_000, iterations: 2_000, warmup: 200, slowIterations: 40, redis: hasRedisServer() },
    worstCase: { size: 10_000, queries: 300, runs: 5, nameLength: 9_000, seed: 1 },
    native: nativePlan(),
    learning: learningPlan(options.maxQueries ? { maxQueries: options.maxQueries } : {}),
    mcp: mcpPlan(5),
  };
}

/**
 * `pnpm bench -- --quick`: a deterministic subsample of everything (30 queries per set, the 1k
 * catalog, no memory figure), under a minute; never writes docs/.
 */
export function quickConfig(options: { parallel?: number; redis?: boolean } = {}): BenchConfig {
  return {
    mode: 'quick',
    sources: evalSources(),
    maxQueries: 30,
    scanMaxQueries: undefined,
    parallel: options.parallel ?? defaultParallel(),
    choose: { sets: ['bfcl'], maxQueries: 40 },
    tokenSizes: [50, 200, 1_000],
    speed: {
      sizes: [1_000],
      realRequestSizes: [1_000],
      runs: () => 1,
      queries: () => 200,
      warmup: 30,
      buildBudgetMs: 2_000,
      queryBudgetMs: 2_000,
      jobTimeoutMs: 30_000,
      peerTimeoutMs: 30_000,
      seed: 1,
      isolate: false,
      measureMemory: false,
    },
    steps: {
      size: 1_000,
      iterations: 150,
      warmup: 20,
      slowIterations: 5,
      redis: options.redis ?? hasRedisServer(),
    },
    worstCase: { size: 2_100, queries: 100, runs: 3, nameLength: 9_000, seed: 1 },
    native: nativePlan(),
    learning: learningPlan({ maxQueries: 30 }),
    mcp: mcpPlan(1),
  };
}

/** `pnpm bench -- --tools FILE --queries FILE`: quality and the topK × minScore grid on a user's catalog. */
export function ownConfig(options: {
  tools: string;
  queries: string;
  maxQueries?: number;
  scanMaxQueries?: number;
  parallel?: number;
}): BenchConfig {
  const source = ownSource(options.tools, options.queries);
  return {
    mode: 'own',
    sources: [source],
    maxQueries: options.maxQueries,
    scanMaxQueries: options.scanMaxQueries,
    parallel: options.parallel ?? defaultParallel(),
    choose: { sets: [source.name], maxQueries: options.maxQueries },
    tokenSizes: [],
    speed: null,
    steps: null,
    worstCase: null,
    native: null,
    learning: null,
  };
}

/** The native suite's requests: the demo's five (`pnpm demo -- --native`), in both modes, for each provider. */
function nativePlan(): NativePlan {
  return { requests: demoRequests.map((request) => request.text) };
}

/**
 * A run of one suite alone: every other suite off, no eval sets. `suite` switches on the one
 * suite (`{ native: … }` or `{ mcp: … }`).
 */
function suiteAloneConfig(suite: Pick<BenchConfig, 'native' | 'mcp'>): BenchConfig {
  return {
    mode: 'quick',
    sources: [],
    maxQueries: undefined,
    scanMaxQueries: undefined,
    parallel: 1,
    choose: { sets: [], maxQueries: undefined },
    tokenSizes: [],
    speed: null,
    steps: null,
    worstCase: null,
    learning: null,
    ...suite,
  };
}

/** `pnpm bench -- --only native`: the native deferred-loading suite alone (a few seconds); writes .reports/benchmarks-native.md. */
export function nativeOnlyConfig(): BenchConfig {
  return suiteAloneConfig({ native: nativePlan() });
}

/** The MCP suite: 1,000 tools from five local servers (200 each), timed `repeats` times. */
function mcpPlan(repeats: number): McpPlan {
  return { servers: 5, toolsPerServer: 200, repeats };
}

/** `pnpm bench -- --only mcp`: the MCP suite alone (seconds); writes .reports/benchmarks-mcp.md. */
export function mcpOnlyConfig(): BenchConfig {
  return suiteAloneConfig({ native: null, mcp: mcpPlan(5) });
}
