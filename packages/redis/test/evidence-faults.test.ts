import {
  createLearning,
  createToolSearchEngine,
  type LearningEvent,
  type StoredToolUse,
  ToolSearchError,
} from '@tool-search/core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRedisEvidenceStore } from '../src/redis-evidence-store';
import { type RedisServer, startRedisServer } from '../src/testing';
import { closeClients, connectClient, whenDown, whenReady } from './clients';

// The evidence store against a real server that stalls (SIGSTOP) or crashes (SIGKILL): every
// call settles within the store's bound with a typed error, acknowledged evidence survives, and
// a learning over the store goes on ranking (without the store's evidence) meanwhile.
const commandTimeoutMs = 200;
/** How late a failure may come: the bound plus scheduling slack on a busy two-core machine. */
const bound = commandTimeoutMs + 500;
/** "At once": well under the bound, so a failure that waited for it cannot pass. */
const atOnce = commandTimeoutMs / 2;

const servers: RedisServer[] = [];
async function server(options?: Parameters<typeof startRedisServer>[0]) {
  const started = await startRedisServer(options);
  servers.push(started);
  return started;
}
afterEach(async () => {
  await closeClients();
});
afterAll(async () => {
  await Promise.all(servers.map((started) => started.dispose()));
});

async function failure(call: () => Promise<unknown>) {
  const started = performance.now();
  const error = await call().then(
    () => new Error('the call succeeded'),
    (reason: unknown) => reason,
  );
  const elapsed = performance.now() - started;
  if (!ToolSearchError.isInstance(error)) throw new Error(`expected a ToolSearchError, got ${String(error)}`);
  return { code: error.code, elapsed };
}

const use = (seed: number): StoredToolUse => ({
  id: `use-${seed}`,
  query: `do I need an umbrella in town ${seed}`,
  toolName: 'getWeather',
  time: 1_700_000_000_000 + seed,
});

const tools = [
  { name: 'getWeather', description: 'Current conditions for a city' },
  { name: 'sendEmail', description: 'Send a message to a recipient' },
];

describe('an evidence store whose Redis stops answering (SIGSTOP) mid-operation', () => {
  it('fails add, list and clear with STORE_TIMEOUT within the bound, then serves the same evidence', async () => {
    const redis = await server();
    const client = await connectClient(redis.url);
    const store = createRedisEvidenceStore({ client, keyPrefix: 'stall:', commandTimeoutMs });
    await store.add('shop', [use(1), use(2)]);
    await store.list('shop'); // caches both scripts (EVALSHA would need a second trip)

    // Frozen while an add of several chunks is under way: the first chunk's script is sent.
    const many = Array.from({ length: 2_500 }, (_, index) => use(100 + index));
    const adding = failure(() => store.add('shop', many));
    redis.freeze();
    try {
      const results = await Promise.all([
        adding,
        failure(() => store.list('shop')),
        failure(() => store.add('shop', [use(3)])),
        failure(() => store.clear('other')),
      ]);
      for (const { code, elapsed } of results) {
        expect(code).toBe('STORE_TIMEOUT');
        expect(elapsed).toBeLessThan(bound);
      }
    } finally {
      redis.thaw();
    }
    // What was on the wire runs once Redis wakes up (a timeout means "outcome unknown"); each
    // script ran whole or not at all, and a chunk not sent yet never runs.
    const listed = await store.list('shop');
    expect(listed.slice(0, 2)).toEqual([use(1), use(2)]);
    expect(listed.length % 1_000).toBeLessThanOrEqual(3);
    expect(new Set(listed.map((entry) => entry.id)).size).toBe(listed.length);
  });

  it('leaves the engine searching without the store: search_tools answers at once, a store-error is reported', async () => {
    const redis = await server();
    const client = await connectClient(redis.url);
    const store = createRedisEvidenceStore({ client, keyPrefix: 'learning:', commandTimeoutMs });
    // A recent use: one years old has decayed to nothing (the learning's clock is the system's).
    await store.add('shop', [{ ...use(1), toolName: 'getWeather', time: Date.now() }]);
    const events: LearningEvent[] = [];
    const learning = createLearning({ store, catalogId: 'shop', onEvent: (event) => events.push(event) });
    await learning.ready;
    const engine = createToolSearchEngine({
      catalog: tools.map((descriptor) => ({ descriptor, tool: null })),
      learning,
    });
    redis.freeze();
    try {
      // A use recorded while Redis is stalled: its write fails within the bound, in the background.
      learning.recordUse({ query: 'should I pack a raincoat', toolName: 'getWeather', threadId: 't1' });
      const flushed = learning.flush().then(
        () => 'settled',
        () => 'rejected',
      );
      const started = performance.now();
      const found = await engine.startRequest({ threadId: 't2' }).searchTools({ query: 'umbrella in town' });
      expect(performance.now() - started).toBeLessThan(atOnce);
      // The evidence read before the stall still ranks: the tool's own text has neither word.
      expect(found.results.map((result) => result.name)).toEqual(['getWeather']);
      await flushed;
      expect(events).toContainEqual(
        expect.objectContaining({ type: 'store-error', operation: 'evidence.add' }),
      );
    } finally {
      redis.thaw();
      engine.dispose();
    }
  });
});

describe('an evidence store whose Redis crashes (SIGKILL) and comes back', () => {
  it('fails fast while it is down and keeps every acknowledged use across the restart', async () => {
    const redis = await server({ appendonly: true });
    const client = await connectClient(redis.url);
    const store = createRedisEvidenceStore({ client, keyPrefix: 'crash:', commandTimeoutMs });
    for (let index = 0; index < 30; index++) await store.add(`catalog-${index % 3}`, [use(index)]);
    const acknowledged = await Promise.all([0, 1, 2].map((index) => store.list(`catalog-${index}`)));

    await redis.stop({ signal: 'SIGKILL' });
    await whenDown(client);
    for (const call of [
      () => store.add('catalog-0', [use(99)]),
      () => store.list('catalog-0'),
      () => store.clear('catalog-0'),
    ]) {
      const { code, elapsed } = await failure(call);
      expect(code).toBe('STORE_UNAVAILABLE');
      expect(elapsed).toBeLessThan(atOnce);
    }

    // A process starting meanwhile: its learning is ready (without the evidence), and searches.
    const events: LearningEvent[] = [];
    const learning = createLearning({
      store,
      catalogId: 'catalog-0',
      onEvent: (event) => events.push(event),
    });
    await learning.ready;
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'store-error', operation: 'evidence.list' }),
    );
    const engine = createToolSearchEngine({
      catalog: tools.map((descriptor) => ({ descriptor, tool: null })),
      learning,
    });
    const found = await engine.startRequest({ threadId: 't' }).searchTools({ query: 'weather in a city' });
    expect(found.results.map((result) => result.name)).toEqual(['getWeather']);
    engine.dispose();

    await redis.restart();
    await whenReady(client);
    expect(await Promise.all([0, 1, 2].map((index) => store.list(`catalog-${index}`)))).toEqual(acknowledged);
    // Once Redis is back, reload() brings the evidence in.
    await learning.reload();
    expect(learning.stats().useCount).toBe(10);
    expect(acknowledged[0]).toHaveLength(10);
    // A new server process has no cached scripts: the store sends their source again.
    await store.add('catalog-0', [use(99)]);
    expect((await store.list('catalog-0')).at(-1)).toEqual(use(99));
  });
});
