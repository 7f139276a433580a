import { createHash } from 'node:crypto';
import {
  createHybridRanker,
  createStoredEmbedder,
  type Embedder,
  type ToolDescriptor,
} from '@tool-search/core';
import { describeVectorStoreContract } from '@tool-search/core/testing';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ageKeys } from '../test/age-keys';
import { closeClients, connectClient, type TestClient, whenDown } from '../test/clients';
import { expectCode } from '../test/expect-code';
import { expectFreshExpiry } from '../test/fresh-expiry';
import { createRedisStore, DEFAULT_KEY_PREFIX } from './redis-store';
import {
  createRedisVectorStore,
  DEFAULT_VECTOR_KEY_PREFIX,
  DEFAULT_VECTOR_TTL,
  type RedisVectorStore,
} from './redis-vector-store';
import { commandStats, countRoundTrips, type RedisServer, startRedisServer } from './testing';

let server: RedisServer;
let client: TestClient;
let admin: TestClient;
let prefixes = 0;
/** A key prefix of its own for each test, so tests share one server without seeing each other. */
const freshPrefix = () => `vectors-${++prefixes}:`;

beforeAll(async () => {
  server = await startRedisServer();
  [client, admin] = await Promise.all([connectClient(server.url), connectClient(server.url)]);
});

afterAll(async () => {
  await closeClients();
  await server?.dispose();
});

describeVectorStoreContract({
  name: 'redis',
  createStore: () => createRedisVectorStore({ client, keyPrefix: freshPrefix() }),
  cleanup: (store) => (store as RedisVectorStore).clear(),
});

/** The key the store gives (namespace, text), computed here independently. */
const expectedKey = (keyPrefix: string, namespace: string, text: string) =>
  keyPrefix + createHash('sha256').update(`${namespace.length}:${namespace}${text}`, 'utf8').digest('hex');

/** The value the store writes for a vector: its float32 little-endian bytes as base64. */
const expectedValue = (values: readonly number[]) => {
  const bytes = Buffer.alloc(values.length * 4);
  for (const [index, value] of values.entries()) bytes.writeFloatLE(value, index * 4);
  return bytes.toString('base64');
};

async function keysUnder(keyPrefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of admin.scanIterator({ MATCH: `${keyPrefix}*`, COUNT: 1000 })) keys.push(...page);
  return keys.sort();
}

const asArrays = (vectors: readonly (Float32Array | undefined)[]) =>
  vectors.map((vector) => (vector === undefined ? undefined : Array.from(vector)));

describe('createRedisVectorStore: keys and values', () => {
  it('keeps one short hashed string key per (namespace, text), the text nowhere in it', async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisVectorStore({ client, keyPrefix });
    const namespace = 'ai-sdk:openai.embedding:text-embedding-3-small';
    const long = `search the web: ${'ü🧰'.repeat(30_000)}`;
    await store.set(namespace, [
      { text: 'get the weather', vector: Float32Array.from([0.5, -1, 2]) },
      { text: long, vector: Float32Array.from([1, 2]) },
    ]);
    const keys = await keysUnder(keyPrefix);
    expect(keys).toEqual(
      [expectedKey(keyPrefix, namespace, 'get the weather'), expectedKey(keyPrefix, namespace, long)].sort(),
    );
    for (const key of keys) {
      expect(key).toMatch(/^vectors-\d+:[0-9a-f]{64}$/);
      expect(key).not.toContain('weather');
      expect(await admin.type(key)).toBe('string');
    }
    expect(await admin.get(expectedKey(keyPrefix, namespace, 'get the weather'))).toBe(
      expectedValue([0.5, -1, 2]),
    );
    expect(asArrays(await store.get(namespace, [long, 'get the weather']))).toEqual([
      [1, 2],
      [0.5, -1, 2],
    ]);
  });

  it('keeps texts and namespaces that are not well-formed Unicode apart (lone surrogates)', async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisVectorStore({ client, keyPrefix });
    // UTF-8 turns each lone surrogate into U+FFFD: these would all be one key.
    await store.set('m', [{ text: 'q\ud800', vector: Float32Array.from([1, 2]) }]);
    await store.set('m\ud800', [{ text: 'q', vector: Float32Array.from([3]) }]);
    expect(asArrays(await store.get('m', ['q\ud800', 'q\udc00', 'q\ufffd', 'q']))).toEqual([
      [1, 2],
      undefined,
      undefined,
      undefined,
    ]);
    expect(asArrays(await store.get('m\ud800', ['q']))).toEqual([[3]]);
    expect(asArrays(await store.get('m\udc00', ['q']))).toEqual([undefined]);
    expect(asArrays(await store.get('m\ufffd', ['q']))).toEqual([undefined]);
    // Two keys of the usual form (so clear() finds them); a well-formed text keeps its key.
    expect(await keysUnder(keyPrefix)).toHaveLength(2);
    await store.set('m', [{ text: 'q\ufffd', vector: Float32Array.from([4]) }]);
    expect(await admin.get(expectedKey(keyPrefix, 'm', 'q\ufffd'))).toBe(expectedValue([4]));
    expect(asArrays(await store.get('m', ['q\ud800', 'q\ufffd']))).toEqual([[1, 2], [4]]);
    await store.clear();
    expect(await keysUnder(keyPrefix)).toEqual([]);
  });

  it('answers Float32Arrays, a fresh one for each position, a text asked twice included', async () => {
    const store = createRedisVectorStore({ client, keyPrefix: freshPrefix() });
    await store.set('m', [{ text: 't', vector: Float32Array.from([1, 2]) }]);
    const [first, second] = await store.get('m', ['t', 't']);
    expect(first).toBeInstanceOf(Float32Array);
    expect(first).not.toBe(second);
    first![0] = 99;
    expect(Array.from(second!)).toEqual([1, 2]);
  });

  it('accepts a plain array or another typed array of finite numbers, as float32', async () => {
    const store = createRedisVectorStore({ client, keyPrefix: freshPrefix() });
    await store.set('m', [
      { text: 'array', vector: [0.1, 2] as unknown as Float32Array },
      { text: 'float64', vector: Float64Array.from([0.1, 3]) as unknown as Float32Array },
    ]);
    expect(asArrays(await store.get('m', ['array', 'float64']))).toEqual([
      Array.from(Float32Array.from([0.1, 2])),
      Array.from(Float32Array.from([0.1, 3])),
    ]);
  });

  it('reads a damaged value, or a key of another type, as not kept, and answers the rest', async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisVectorStore({ client, keyPrefix });
    const texts = [
      'good',
      'not base64',
      'url-safe',
      'three bytes',
      'empty',
      'binary',
      'a sorted set',
      'padding',
    ];
    const keyOf = (text: string) => expectedKey(keyPrefix, 'm', text);
    await store.set('m', [{ text: 'good', vector: Float32Array.from([1, 2, 3]) }]);
    // Node's lenient decoder would read 4 bytes from each of these two: the store checks the alphabet first.
    await admin.set(keyOf('not base64'), 'AAA*AAA!');
    await admin.set(keyOf('url-safe'), 'AA-_AA==');
    await admin.set(keyOf('three bytes'), Buffer.from([1, 2, 3]).toString('base64'));
    await admin.set(keyOf('empty'), '');
    await admin.set(keyOf('binary'), Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0xa0, 0xa1]));
    await admin.zAdd(keyOf('a sorted set'), { score: 1, value: 'AAAAAA==' });
    await admin.set(keyOf('padding'), 'AA==AAAA');
    expect(asArrays(await store.get('m', texts))).toEqual([
      [1, 2, 3],
      ...texts.slice(1).map(() => undefined),
    ]);
    // Setting it again repairs it.
    await store.set('m', [{ text: 'three bytes', vector: Float32Array.from([4]) }]);
    expect(asArrays(await store.get('m', ['three bytes']))).toEqual([[4]]);
  });
});

describe('createRedisVectorStore: expiry', () => {
  it('keeps vectors 30 days by default', async () => {
    const keyPrefix = freshPrefix();
    const writing = performance.now();
    await createRedisVectorStore({ client, keyPrefix }).set('m', [
      { text: 't', vector: Float32Array.from([1]) },
    ]);
    expect(DEFAULT_VECTOR_TTL).toBe(30 * 24 * 60 * 60 * 1000);
    expectFreshExpiry(await admin.pTTL(expectedKey(keyPrefix, 'm', 't')), DEFAULT_VECTOR_TTL, writing);
  });

  it('sets the ttl on write and refreshes it on every read (never creating a key)', async () => {
    const keyPrefix = freshPrefix();
    const key = expectedKey(keyPrefix, 'm', 't');
    const store = createRedisVectorStore({ client, keyPrefix, ttl: 60_000 });
    const writing = performance.now();
    await store.set('m', [{ text: 't', vector: Float32Array.from([1]) }]);
    expectFreshExpiry(await admin.pTTL(key), 60_000, writing);
    for (let round = 0; round < 3; round++) {
      await ageKeys(admin, keyPrefix, 50_000);
      expect(await admin.pTTL(key)).toBeLessThanOrEqual(10_000);
      const reading = performance.now();
      expect(asArrays(await store.get('m', ['t', 'missing']))).toEqual([[1], undefined]);
      expectFreshExpiry(await admin.pTTL(key), 60_000, reading);
    }
    expect(await keysUnder(keyPrefix)).toEqual([key]);
    await ageKeys(admin, keyPrefix, 60_000);
    expect(await store.get('m', ['t'])).toEqual([undefined]);
  });

  it('works with the largest ttl it accepts (Number.MAX_SAFE_INTEGER ms) on every read and write', async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisVectorStore({ client, keyPrefix, ttl: Number.MAX_SAFE_INTEGER });
    await store.set('m', [{ text: 't', vector: Float32Array.from([1]) }]);
    expect(asArrays(await store.get('m', ['t']))).toEqual([[1]]);
    expect(await admin.pTTL(expectedKey(keyPrefix, 'm', 't'))).toBeGreaterThan(
      Number.MAX_SAFE_INTEGER - 60_000,
    );
  });

  it('with ttl 0 keeps vectors without expiry, through reads and rewrites', async () => {
    const keyPrefix = freshPrefix();
    const key = expectedKey(keyPrefix, 'm', 't');
    await createRedisVectorStore({ client, keyPrefix, ttl: 60_000 }).set('m', [
      { text: 't', vector: Float32Array.from([1]) },
    ]);
    const store = createRedisVectorStore({ client, keyPrefix, ttl: 0 });
    await store.set('m', [{ text: 't', vector: Float32Array.from([2]) }]);
    expect(await admin.pTTL(key)).toBe(-1);
    expect(asArrays(await store.get('m', ['t']))).toEqual([[2]]);
    expect(await admin.pTTL(key)).toBe(-1);
  });
});

describe('createRedisVectorStore: clear', () => {
  it("deletes its own vectors page by page with SCAN, never KEYS, and nobody else's keys", async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisVectorStore({ client, keyPrefix });
    const neighbour = createRedisVectorStore({ client, keyPrefix: freshPrefix() });
    const threads = createRedisStore({ client, keyPrefix });
    await neighbour.set('m', [{ text: 't', vector: Float32Array.from([1]) }]);
    await threads.add('a-thread', ['kept']);
    await admin.set(`${keyPrefix}config`, 'not ours to delete');
    const texts = Array.from({ length: 2_500 }, (_, index) => `tool ${index}`);
    await store.set(
      'm',
      texts.map((text, index) => ({ text, vector: Float32Array.from([index]) })),
    );
    expect(await keysUnder(keyPrefix)).toHaveLength(2_502);
    const before = await commandStats(admin);
    await store.clear();
    const after = await commandStats(admin);
    expect(after.get('keys') ?? 0).toBe(before.get('keys') ?? 0);
    expect((after.get('scan') ?? 0) - (before.get('scan') ?? 0)).toBeGreaterThan(2);
    expect((await store.get('m', texts)).every((vector) => vector === undefined)).toBe(true);
    expect(asArrays(await neighbour.get('m', ['t']))).toEqual([[1]]);
    expect(await threads.get('a-thread')).toEqual(['kept']);
    expect(await admin.get(`${keyPrefix}config`)).toBe('not ours to delete');
  });

  it("keeps apart from the load-state store's default prefix: neither store's clear() touches the other", async () => {
    expect(DEFAULT_VECTOR_KEY_PREFIX.startsWith(DEFAULT_KEY_PREFIX)).toBe(false);
    const vectors = createRedisVectorStore({ client });
    const threads = createRedisStore({ client });
    try {
      await vectors.set('m', [{ text: 't', vector: Float32Array.from([1]) }]);
      await threads.add('thread', ['tool']);
      await threads.clear();
      expect(asArrays(await vectors.get('m', ['t']))).toEqual([[1]]);
      await threads.add('thread', ['tool']);
      await vectors.clear();
      expect(await threads.get('thread')).toEqual(['tool']);
      expect(await vectors.get('m', ['t'])).toEqual([undefined]);
    } finally {
      await vectors.clear();
      await threads.clear();
    }
  });
});

describe('createRedisVectorStore: kinds of client', () => {
  it("puts the client's own keyPrefix (node-redis 6) before its keys, and clear() finds them there", async () => {
    const keyPrefix = freshPrefix();
    const tenant = await connectClient(server.url, { keyPrefix: 'tenant-v:' });
    const store = createRedisVectorStore({ client: tenant, keyPrefix });
    await store.set('m', [{ text: 't', vector: Float32Array.from([1, 2]) }]);
    // Before, the key was written without the client's prefix, where another tenant's store reads.
    expect(await keysUnder(keyPrefix)).toEqual([]);
    expect(await keysUnder(`tenant-v:${keyPrefix}`)).toEqual([
      `tenant-v:${expectedKey(keyPrefix, 'm', 't')}`,
    ]);
    expect(await createRedisVectorStore({ client, keyPrefix }).get('m', ['t'])).toEqual([undefined]);
    expect(asArrays(await store.get('m', ['t']))).toEqual([[1, 2]]);
    await store.clear();
    expect(await keysUnder(`tenant-v:${keyPrefix}`)).toEqual([]);
  });
});

describe('createRedisVectorStore: round trips', () => {
  it('makes one round trip per get and per set once its scripts are cached, whatever the batch size', async () => {
    await admin.scriptFlush();
    const counted = countRoundTrips(client);
    const store = createRedisVectorStore({ client: counted.client, keyPrefix: freshPrefix() });
    // The first use of each script after a flush (or a server restart) sends its source once.
    expect(await store.get('m', ['a'])).toEqual([undefined]);
    expect(counted.reset()).toEqual(['EVALSHA', 'EVAL']);
    await store.set('m', [{ text: 'a', vector: Float32Array.from([1]) }]);
    expect(counted.reset()).toEqual(['EVALSHA', 'EVAL']);

    await store.set('m', [
      { text: 'b', vector: Float32Array.from([2]) },
      { text: 'c', vector: Float32Array.from([3]) },
    ]);
    expect(counted.reset()).toEqual(['EVALSHA']);
    expect(asArrays(await store.get('m', ['a', 'b', 'c', 'a', 'd']))).toEqual([
      [1],
      [2],
      [3],
      [1],
      undefined,
    ]);
    expect(counted.reset()).toEqual(['EVALSHA']);
    // Nothing to ask, nothing sent.
    expect(await store.get('m', [])).toEqual([]);
    await store.set('m', []);
    expect(counted.reset()).toEqual([]);

    // A large batch goes as scripts of 1,000 keys, all written before any answer comes back: one pipeline.
    const texts = Array.from({ length: 2_500 }, (_, index) => `tool ${index}`);
    const setting = store.set(
      'm',
      texts.map((text, index) => ({ text, vector: Float32Array.from([index]) })),
    );
    expect(counted.commands).toEqual(['EVALSHA', 'EVALSHA', 'EVALSHA']);
    await setting;
    counted.reset();
    const getting = store.get('m', texts);
    expect(counted.commands).toEqual(['EVALSHA', 'EVALSHA', 'EVALSHA']);
    const found = await getting;
    expect(found.every((vector, index) => vector?.[0] === index)).toBe(true);
  });

  it('sends each distinct text once, however often it is asked', async () => {
    const sent: (string | Buffer)[][] = [];
    const store = createRedisVectorStore({
      client: {
        get isOpen() {
          return client.isOpen;
        },
        get isReady() {
          return client.isReady;
        },
        sendCommand(args, options) {
          sent.push([...args]);
          return client.sendCommand(args, options);
        },
      },
      keyPrefix: freshPrefix(),
    });
    await store.set('m', [{ text: 'a', vector: Float32Array.from([1]) }]);
    sent.splice(0);
    expect(asArrays(await store.get('m', ['a', 'b', 'a', 'b', 'a']))).toEqual([
      [1],
      undefined,
      [1],
      undefined,
      [1],
    ]);
    expect(sent).toHaveLength(1);
    expect(sent[0]![2]).toBe('2'); // EVALSHA sha numkeys: two keys
  });
});

describe('createRedisVectorStore: misuse and faults', () => {
  it('refuses bad arguments with INVALID_INPUT, sending nothing', async () => {
    const counted = countRoundTrips(client);
    const store = createRedisVectorStore({ client: counted.client, keyPrefix: freshPrefix() });
    const vector = Float32Array.from([1]);
    await expectCode(store.get(7 as unknown as string, ['a']), 'INVALID_INPUT');
    await expectCode(store.get('m', 'a' as unknown as string[]), 'INVALID_INPUT');
    await expectCode(store.set(undefined as unknown as string, [{ text: 'a', vector }]), 'INVALID_INPUT');
    await expectCode(store.set('m', { text: 'a', vector } as never), 'INVALID_INPUT');
    for (const entry of [
      null,
      { text: 'a' },
      { text: 'a', vector: 'not a vector' },
      { text: 'a', vector: new Float32Array(0) },
      { text: 'a', vector: [] },
      { text: 'a', vector: [1, Number.NaN] },
      { text: 'a', vector: [1, '2'] },
      { text: 'a', vector: new DataView(new ArrayBuffer(4)) },
    ]) {
      // One bad entry refuses the whole batch: the good one before it is not kept either.
      const error = await expectCode(
        store.set('m', [{ text: 'good', vector }, entry as never]),
        'INVALID_INPUT',
      );
      expect(error.message).toMatch(/entries\[1\]/);
    }
    expect(counted.commands).toEqual([]);
  });

  it('fails with STORE_UNAVAILABLE, at once, on a client never connected or closed', async () => {
    const idle = createClient({ url: server.url });
    const closed = await connectClient(server.url);
    await closed.close();
    for (const target of [idle, closed]) {
      const store = createRedisVectorStore({ client: target });
      const started = performance.now();
      const error = await expectCode(store.get('m', ['a']), 'STORE_UNAVAILABLE');
      expect(error.message).toMatch(/connect/);
      await expectCode(store.set('m', [{ text: 'a', vector: Float32Array.from([1]) }]), 'STORE_UNAVAILABLE');
      await expectCode(store.clear(), 'STORE_UNAVAILABLE');
      expect(performance.now() - started).toBeLessThan(100); // the default bound is 1,000 ms
    }
  });

  it('fails with STORE_TIMEOUT within commandTimeoutMs when the server stops answering, then works again', async () => {
    const commandTimeoutMs = 200;
    const stalled = await startRedisServer();
    try {
      const stalledClient = await connectClient(stalled.url);
      const store = createRedisVectorStore({ client: stalledClient, keyPrefix: 'stall:', commandTimeoutMs });
      await store.set('m', [{ text: 'kept', vector: Float32Array.from([1]) }]);
      await store.get('m', ['kept']); // both scripts cached: EVALSHA is one trip
      stalled.freeze();
      try {
        const calls = [
          () => store.get('m', ['kept']),
          () => store.set('m', [{ text: 'late', vector: Float32Array.from([2]) }]),
          () => store.clear(),
        ];
        for (const call of calls) {
          const started = performance.now();
          await expectCode(call(), 'STORE_TIMEOUT');
          const elapsed = performance.now() - started;
          expect(elapsed).toBeGreaterThanOrEqual(commandTimeoutMs - 5);
          expect(elapsed).toBeLessThan(commandTimeoutMs + 500);
        }
      } finally {
        stalled.thaw();
      }
      expect(asArrays(await store.get('m', ['kept']))).toEqual([[1]]);
    } finally {
      await stalled.dispose();
    }
  });

  it('after dispose fails with DISPOSED and leaves the client open', async () => {
    const store = createRedisVectorStore({ client, keyPrefix: freshPrefix() });
    await store.set('m', [{ text: 'a', vector: Float32Array.from([1]) }]);
    store.dispose();
    store.dispose();
    await expectCode(store.get('m', ['a']), 'DISPOSED');
    await expectCode(store.get('m', []), 'DISPOSED');
    await expectCode(store.set('m', [{ text: 'a', vector: Float32Array.from([1]) }]), 'DISPOSED');
    await expectCode(store.set('m', []), 'DISPOSED');
    await expectCode(store.clear(), 'DISPOSED');
    expect(client.isReady).toBe(true);
    expect(await client.ping()).toBe('PONG');
  });
});

describe('createRedisVectorStore behind createStoredEmbedder and the hybrid ranker', () => {
  const tools: ToolDescriptor[] = [
    { name: 'get_forecast', description: 'The weather forecast for a city.' },
    { name: 'convert_currency', description: 'Converts an amount between currencies.' },
    { name: 'send_email', description: 'Sends an email to a recipient.' },
  ];
  /** An embedding API stand-in: a vector per text, and a record of what it was sent. */
  const api = () => {
    const sent: (string | Buffer)[][] = [];
    const embedder: Embedder = {
      id: 'api:model-1',
      // Declared, so a start whose store keeps every tool text sends none (see createStoredEmbedder).
      dimensions: 3,
      async embed(texts) {
        sent.push([...texts]);
        return texts.map((text) => [text.length, text.charCodeAt(0), /weather/.test(text) ? 5 : 0.1]);
      },
    };
    return { embedder, sent };
  };

  it('embeds a catalog once across process starts: a later start sends only the request and new tools', async () => {
    const keyPrefix = freshPrefix();
    const start = () => {
      const { embedder, sent } = api();
      const store = createRedisVectorStore({ client, keyPrefix });
      const factory = createHybridRanker({
        embedder: createStoredEmbedder({ embedder, store }),
        weight: 0.5,
      });
      return { factory, sent };
    };
    const first = start();
    const before = await first.factory(tools).search('weather', { topK: 3 });
    expect(first.sent.map((texts) => texts.length)).toEqual([3, 1]);
    expect(await keysUnder(keyPrefix)).toHaveLength(3);

    // A new process, the same catalog: only the request goes to the API.
    const second = start();
    const after = await second.factory(tools).search('weather', { topK: 3 });
    expect(second.sent).toEqual([['weather']]);
    expect(after.map((result) => result.name)).toEqual(before.map((result) => result.name));
    // The scores as close as float32 keeps the API's float64 vectors.
    for (const [index, result] of after.entries()) expect(result.score).toBeCloseTo(before[index]!.score, 6);

    // A third, with one tool more: only its text is new.
    const third = start();
    const grown = [...tools, { name: 'get_tides', description: 'Tide times for a harbour.' }];
    await third.factory(grown).search('weather', { topK: 3 });
    expect(third.sent).toEqual([[expect.stringContaining('get_tides')], ['weather']]);
    expect(await keysUnder(keyPrefix)).toHaveLength(4);
    await createRedisVectorStore({ client, keyPrefix }).clear();
  });

  it('embeds everything, and reports STORE_UNAVAILABLE, when Redis is down; searches are unchanged', async () => {
    const down = await startRedisServer();
    const downClient = await connectClient(down.url);
    await down.stop();
    await whenDown(downClient);
    const errors: unknown[] = [];
    const { embedder, sent } = api();
    const ranker = createHybridRanker({
      embedder: createStoredEmbedder({
        embedder,
        store: createRedisVectorStore({ client: downClient, keyPrefix: 'down:' }),
        onError: (error) => errors.push(error),
      }),
      weight: 0.5,
    })(tools);
    const results = await ranker.search('weather', { topK: 1 });
    expect(results[0]?.name).toBe('get_forecast');
    expect(sent[0]).toHaveLength(3);
    expect(errors.map((error) => (error as { code?: string }).code)).toEqual([
      'STORE_UNAVAILABLE',
      'STORE_UNAVAILABLE',
    ]);
    await down.dispose();
  });
});
