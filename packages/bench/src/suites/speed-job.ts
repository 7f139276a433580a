import type { DatasetSource } from '../datasets';
import { settledMemory } from '../gc';
import { quantile } from '../quantile';
import { generateCatalog, generateQueries } from '../synthetic/catalog';
import { type BuiltSystem, type SystemId, systemById } from '../systems';
import { realRequestCatalog } from './real-requests';

/** One system on one synthetic catalog size. */
export interface SpeedJob {
  readonly systemId: SystemId;
  readonly size: number;
  readonly seed: number;
  /** Timed builds at most (the median is reported); each is a fresh build. */
  readonly runs: number;
  /** No further build once the builds so far took this long (the quadratic ones). */
  readonly buildBudgetMs: number;
  /** Queries timed one by one, after `warmup` untimed ones. */
  readonly queries: number;
  readonly warmup: number;
  /** Stop warming up, then timing, queries after this long each (the slow peers at large sizes). */
  readonly queryBudgetMs: number;
  /** Measure the memory held (two full GCs around each build; the quick run skips them). */
  readonly measureMemory: boolean;
  /** Real tools and requests from these sets ({@link realRequestCatalog}); absent: generated ones. */
  readonly requests?: readonly DatasetSource[];
}

export interface SpeedRow {
  readonly systemId: SystemId;
  readonly tools: number;
  /** Generated tools and requests, or the eval sets' own ({@link SpeedJob.requests}). */
  readonly requests: 'generated' | 'real';
  /** Median time from the user's tools to a searchable system (index built). */
  readonly buildMs: number;
  readonly builds: number;
  readonly medianQueryMs: number;
  readonly p99QueryMs: number;
  /** Queries actually timed (fewer than asked when the budget ran out). */
  readonly queriesTimed: number;
  /** Memory (JS heap + array buffers) the built system holds beyond the user's own tool objects. */
  readonly memoryBytesPerTool: number;
  /** Set when the measurement was cut short (a build past its time limit). */
  readonly stopped?: string;
}

/**
 * Times a system as its users meet it: the build (from their tool objects to the first query
 * that can run), then one search per query at the systems' shared default topK of 5, and the
 * memory the built system holds (after a full GC, its tool objects excluded).
 */
export async function runSpeedJob(
  job: SpeedJob,
  onProgress: (done: number) => void = () => {},
): Promise<SpeedRow> {
  const system = await systemById(job.systemId);
  const count = job.queries + job.warmup;
  const { tools, queries } = job.requests
    ? await realRequestCatalog({ sources: job.requests, size: job.size, count, seed: job.seed })
    : generated(job.size, job.seed, count);
  // Warm the code paths on a small catalog first, so the JIT is not what the first build measures.
  const small = generateCatalog({ size: 200, seed: job.seed + 7 });
  const warm = await system.build(await system.prepare(small), small, { topK: 5 });
  for (const query of queries.slice(0, 20)) await warm.search(query);
  await warm.dispose?.();

  const prepared = await system.prepare(tools);
  const builds: number[] = [];
  let built: BuiltSystem | undefined;
  let heapBytes = 0;
  for (let run = 0; run < job.runs; run++) {
    await built?.dispose?.();
    built = undefined;
    const before = job.measureMemory ? await settledMemory() : 0;
    const start = performance.now();
    built = await system.build(prepared, tools, { topK: 5 });
    builds.push(performance.now() - start);
    heapBytes = job.measureMemory ? (await settledMemory()) - before : Number.NaN;
    onProgress(run + 1);
    if (builds.reduce((sum, time) => sum + time, 0) > job.buildBudgetMs) break;
  }
  const system_ = built!;
  const warmupStarted = performance.now();
  for (const query of queries.slice(0, job.warmup)) {
    await system_.search(query);
    if (performance.now() - warmupStarted > job.queryBudgetMs / 4) break;
  }
  const times: number[] = [];
  const started = performance.now();
  for (const query of queries.slice(job.warmup)) {
    const start = performance.now();
    await system_.search(query);
    times.push(performance.now() - start);
    if (performance.now() - started > job.queryBudgetMs) break;
  }
  await system_.dispose?.();
  times.sort((left, right) => left - right);
  builds.sort((left, right) => left - right);
  return {
    systemId: job.systemId,
    tools: job.size,
    requests: job.requests ? 'real' : 'generated',
    buildMs: quantile(builds, 0.5),
    builds: builds.length,
    medianQueryMs: quantile(times, 0.5),
    p99QueryMs: quantile(times, 0.99),
    queriesTimed: times.length,
    memoryBytesPerTool: Number.isNaN(heapBytes) ? Number.NaN : Math.max(0, heapBytes) / job.size,
  };
}

function generated(size: number, seed: number, count: number) {
  const tools = generateCatalog({ size, seed });
  const queries = generateQueries(tools, { count, seed: seed + 1 }).map((query) => query.query);
  return { tools, queries };
}
