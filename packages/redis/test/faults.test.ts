import {
  createToolSearchEngine,
  type LoadStateStore,
  type LoadToolOutput,
  ToolSearchError,
} from '@tool-search/core';
import { sampleCatalog } from '@tool-search/core/testing';
import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRedisStore, type RedisStore } from '../src/redis-store';
import { type RedisServer, startRedisServer } from '../src/testing';
import { closeClients, connectClient, whenDown, whenReady } from './clients';

// Faults against a real server: a stalled one (SIGSTOP), a crashed one (SIGKILL) and one that
// refuses our password. Every call must settle within the store's bound with a typed error.
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

/** Runs a call and returns its ToolSearchError code and how long it took to fail. */
async function failure(call: () => Promise<unknown>) {
  const started = performance.now();
  const error = await call().then(
    () => new Error('the call succeeded'),
    (reason: unknown) => reason,
  );
  const elapsed = performance.now() - started;
  if (!ToolSearchError.isInstance(error)) throw new Error(`expected a ToolSearchError, got ${String(error)}`);
  return { code: error.code, elapsed, error };
}

const everyCall = (store: RedisStore) => ({
  get: () => store.get('t'),
  add: () => store.add('t', ['during-the-fault']),
  remove: () => store.remove('t', ['a']),
  delete: () => store.delete('t'),
  stats: () => store.stats(),
  clear: () => store.clear(),
});

describe('a Redis server that stops answering (SIGSTOP)', () => {
  it('fails every call with STORE_TIMEOUT within the bound, then serves the same state again', async () => {
    const redis = await server();
    const client = await connectClient(redis.url);
    const store = createRedisStore({ client, keyPrefix: 'stall:', commandTimeoutMs });
    await store.add('kept', ['a', 'b']);
    await store.add('doomed', ['c']);
    await store.remove('doomed', ['nothing']); // caches the remove script (EVALSHA would need a second trip)

    redis.freeze();
    try {
      const results = await Promise.all(
        [
          () => store.get('kept'),
          () => store.add('late', ['during-the-fault']),
          () => store.remove('kept', ['a']),
          () => store.delete('doomed'),
          () => store.stats(),
          () => store.clear(),
        ].map(failure),
      );
      for (const { code, elapsed } of results) {
        expect(code).toBe('STORE_TIMEOUT');
        expect(elapsed).toBeGreaterThanOrEqual(commandTimeoutMs - 5);
        expect(elapsed).toBeLessThan(bound);
      }
    } finally {
      redis.thaw();
    }
    // Commands already written when the bound ran out still run once Redis wakes up: a timeout
    // means "outcome unknown", as with any network call (loads are idempotent, so a retry is safe).
    // What a timed-out call had not sent yet (clear's UNLINK after its first SCAN page) never runs.
    expect(await store.get('late')).toEqual(['during-the-fault']);
    expect(await store.get('kept')).toEqual(['b']);
    expect(await store.get('doomed')).toEqual([]);
    expect((await store.stats()).threadCount).toBe(2);
  });
});

describe('a Redis server that crashes (SIGKILL) and comes back', () => {
  it('fails fast with a typed error while it is down, and keeps every acknowledged write', async () => {
    // appendfsync always: Redis acknowledges a write only once it is on disk.
    const redis = await server({ appendonly: true });
    const client = await connectClient(redis.url);
    const store = createRedisStore({ client, keyPrefix: 'crash:', commandTimeoutMs });
    for (let index = 0; index < 50; index++) await store.add(`thread-${index % 5}`, [`tool-${index}`]);
    const acknowledged = await Promise.all([0, 1, 2, 3, 4].map((index) => store.get(`thread-${index}`)));

    await redis.stop({ signal: 'SIGKILL' });
    // Right after the crash the client may not know yet: the call waits in node-redis's offline
    // queue until the bound, and is withdrawn from it (so it never runs later).
    const first = await failure(() => store.add('thread-0', ['lost-in-the-crash']));
    expect(['STORE_UNAVAILABLE', 'STORE_TIMEOUT']).toContain(first.code);
    expect(first.elapsed).toBeLessThan(bound);

    // Once it knows, every call fails at once: no waiting on a server that is gone.
    await whenDown(client);
    for (const call of Object.values(everyCall(store))) {
      const { code, elapsed, error } = await failure(call);
      expect(code).toBe('STORE_UNAVAILABLE');
      expect(error.message).toMatch(/reconnecting/);
      expect(elapsed).toBeLessThan(atOnce);
    }

    await redis.restart();
    await whenReady(client);
    const after = await Promise.all([0, 1, 2, 3, 4].map((index) => store.get(`thread-${index}`)));
    // Everything acknowledged is back, and the add that failed during the crash never ran.
    expect(after).toEqual(acknowledged);
    expect(acknowledged[0]).toEqual([
      'tool-0',
      'tool-5',
      'tool-10',
      'tool-15',
      'tool-20',
      'tool-25',
      'tool-30',
      'tool-35',
      'tool-40',
      'tool-45',
    ]);
    // A new server process has no cached scripts: the store sends their source again, once.
    expect(await store.add('thread-0', ['after-restart'])).toEqual([...acknowledged[0]!, 'after-restart']);
    expect(client.errors.length).toBeGreaterThan(0);
  });
});

describe('a Redis server that requires a password', () => {
  it('answers a wrong password with STORE_UNAVAILABLE, never a hang', async () => {
    const redis = await server({ requirepass: 'right-password' });

    // node-redis keeps retrying the handshake, so connect() never settles: the store does not wait for it.
    const retrying = createClient({ url: redis.url, password: 'wrong-password' });
    const handshakeErrors: Error[] = [];
    retrying.on('error', (error: Error) => handshakeErrors.push(error));
    const connecting = retrying.connect().catch(() => undefined);
    const retryingStore = createRedisStore({ client: retrying, commandTimeoutMs });
    const slow = await failure(() => retryingStore.get('t'));
    expect(slow.code).toBe('STORE_UNAVAILABLE');
    expect(slow.elapsed).toBeLessThan(atOnce);
    const started = performance.now();
    while (handshakeErrors.length === 0) {
      expect(performance.now() - started).toBeLessThan(5_000);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(handshakeErrors[0]!.message).toMatch(/WRONGPASS/);
    expect((await failure(() => retryingStore.add('t', ['a']))).code).toBe('STORE_UNAVAILABLE');
    retrying.destroy();
    await connecting;

    // Without retries connect() rejects and the client is closed.
    const once = createClient({
      url: redis.url,
      password: 'wrong-password',
      socket: { reconnectStrategy: false },
    });
    once.on('error', () => undefined);
    await expect(once.connect()).rejects.toThrow(/WRONGPASS/);
    const onceStore = createRedisStore({ client: once, commandTimeoutMs });
    expect((await failure(() => onceStore.get('t'))).code).toBe('STORE_UNAVAILABLE');

    // The right password works.
    const good = await connectClient(redis.url, { password: 'right-password' });
    expect(await createRedisStore({ client: good }).add('t', ['a'])).toEqual(['a']);
  });
});

describe('a load whose write times out (Redis paused just before the add)', () => {
  it('tells the model the tool may have been loaded, and the next step shows what Redis holds', async () => {
    const redis = await server();
    const client = await connectClient(redis.url);
    const store = createRedisStore({ client, keyPrefix: 'unknown-outcome:', commandTimeoutMs });
    await store.add('warm', ['a']); // caches the add script (EVALSHA would need a second trip)
    const pausing: LoadStateStore = {
      ...store,
      get: (threadId) => store.get(threadId),
      delete: (threadId) => store.delete(threadId),
      // The read before the write answers; the server stalls as the write is sent.
      add: (threadId, names) => {
        redis.freeze();
        return store.add(threadId, names);
      },
    };
    const engine = createToolSearchEngine({ catalog: sampleCatalog(), storage: pausing });
    const request = engine.startRequest({ threadId: 't' });
    await request.prepareStep();
    let output: LoadToolOutput;
    try {
      output = await request.loadTool({ toolName: 'send_email' });
      expect(await request.guard('send_email')).toMatchObject({
        allowed: false,
        message: expect.stringContaining('may have been loaded'),
      });
    } finally {
      redis.thaw();
    }
    expect(output).toMatchObject({ success: false, toolName: 'send_email' });
    expect(output.message).toContain('may have been loaded: send_email');
    expect(output.message).not.toContain('nothing was loaded');
    // The write was on the wire: it runs once Redis resumes, and the next step offers the tool.
    await whenReady(client);
    expect(await store.get('t')).toEqual(['send_email']);
    expect((await request.prepareStep()).visible).toContain('send_email');
    expect((await request.guard('send_email')).allowed).toBe(true);
  });
});
