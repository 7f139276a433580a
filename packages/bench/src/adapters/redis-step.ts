import { type CatalogEntry, createToolSearchEngine, type LoadStateStore } from '@tool-search/core';
import { createRedisStore } from '@tool-search/redis';
import { commandStats, countRoundTrips, startRedisServer } from '@tool-search/redis/testing';
import { createClient } from 'redis';
import { generateCatalog } from '../synthetic/catalog';
import { type StepMeasureOptions, stepMeasureDefaults, timeRuns } from './step-timing';

export interface RedisStepRow {
  readonly store: 'in-memory' | 'redis';
  readonly tools: number;
  /** Tools the measured thread has loaded. */
  readonly loaded: number;
  readonly iterations: number;
  /** One `prepareStep` of an open request through the engine (the store read included): median and p99. */
  readonly medianMs: number;
  readonly p99Ms: number;
  /** Requests sent to Redis per step, counted at the client (0 for the in-memory store). */
  readonly roundTripsPerStep: number;
  /**
   * Commands Redis executed per step by its own count (INFO commandstats), those inside the Lua
   * script included (EVALSHA, ZRANGE, PEXPIRE); null for the in-memory store.
   */
  readonly redisCommandsPerStep: number | null;
  /** Requests sent to Redis by one `load_tool` call, once the store's scripts are cached (the engine reads, then adds). */
  readonly roundTripsPerLoad: number;
}

/** Calls Redis has executed so far, all commands but INFO itself. */
async function serverCalls(client: { info(section: string): Promise<unknown> }): Promise<number> {
  let calls = 0;
  for (const [command, count] of await commandStats(client)) if (command !== 'info') calls += count;
  return calls;
}

/**
 * The per-step cost of keeping load state in Redis rather than in memory, on loopback: the same
 * engine (a synthetic catalog of `size` tools, a thread with `loaded` tools loaded through
 * `load_tool`) times `prepareStep` of an open request, once over the in-memory store and once over
 * `createRedisStore`, and counts the round trips each step makes (at most one is the target).
 * Starts its own `redis-server` unless `url` names a running one.
 */
export async function measureRedisStep(
  options: Omit<StepMeasureOptions, 'mode'> & { url?: string } = {},
): Promise<RedisStepRow[]> {
  const { size, loaded: loadedCount, iterations, warmup, seed, now } = stepMeasureDefaults(options);
  const catalog: CatalogEntry<null>[] = generateCatalog({ size, seed }).map((descriptor) => ({
    descriptor,
    tool: null,
  }));
  const toLoad = catalog.slice(0, loadedCount).map((entry) => entry.descriptor.name);

  const server = options.url ? undefined : await startRedisServer();
  const url = options.url ?? server!.url;
  const client = createClient({ url });
  client.on('error', () => {}); // a failure shows up as a typed store error in the run itself
  await client.connect();
  const keyPrefix = `tool-search-bench:${process.pid}:`;

  async function measure(store: 'in-memory' | 'redis'): Promise<RedisStepRow> {
    const counted = countRoundTrips(client);
    const redisStore: LoadStateStore | undefined =
      store === 'redis' ? createRedisStore({ client: counted.client, keyPrefix }) : undefined;
    const engine = createToolSearchEngine({ catalog, storage: redisStore ?? 'in-memory' });
    const threadId = `bench-${store}`;

    // First use of each store script on this server sends its source once: not the steady state.
    await engine.startRequest({ threadId: 'warm-up' }).loadTool({ toolNames: toLoad });
    await engine.clearState('warm-up');
    const before = counted.commands.length;
    const load = await engine.startRequest({ threadId }).loadTool({ toolNames: toLoad });
    if (!load.success) throw new Error(`load_tool failed: ${load.message}`);
    const roundTripsPerLoad = counted.commands.length - before;

    const request = engine.startRequest({ threadId });
    for (let index = 0; index < warmup; index++) await request.prepareStep();
    const tripsBefore = counted.commands.length;
    const serverBefore = store === 'redis' ? await serverCalls(client) : 0;
    let visible = 0;
    const timed = await timeRuns(
      async () => {
        const plan = await request.prepareStep();
        if (plan.degraded) throw new Error('a step was degraded: the store failed during the bench');
        visible = plan.visible.length;
      },
      { iterations, warmup: 0, now },
    );
    const redisCommandsPerStep =
      store === 'redis' ? ((await serverCalls(client)) - serverBefore) / iterations : null;
    const roundTripsPerStep = (counted.commands.length - tripsBefore) / iterations;
    if (visible !== 2 + loadedCount)
      throw new Error(`expected ${2 + loadedCount} visible tools, got ${visible}`);

    await engine.clearState(threadId);
    await engine.dispose();
    return {
      store,
      tools: size,
      loaded: loadedCount,
      iterations,
      ...timed,
      roundTripsPerStep,
      redisCommandsPerStep,
      roundTripsPerLoad,
    };
  }

  try {
    return [await measure('in-memory'), await measure('redis')];
  } finally {
    await client.close();
    await server?.dispose();
  }
}
