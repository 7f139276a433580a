import { createToolSearchEngine, type LoadStateStore, type ToolSearchEvent } from '@tool-search/core';
import { describeStoreContract, sampleCatalog } from '@tool-search/core/testing';
import { createClient, createClientPool } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ageKeys } from '../test/age-keys';
import { closeClients, connectClient, type TestClient } from '../test/clients';
import { expectCode } from '../test/expect-code';
import { expectFreshExpiry } from '../test/fresh-expiry';
import { escapeGlob } from './redis-commands';
import { createRedisStore, DEFAULT_TTL } from './redis-store';
import { commandStats, countRoundTrips, type RedisServer, startRedisServer } from './testing';

let server: RedisServer;
let client: TestClient;
let other: TestClient;
let admin: TestClient;
let prefixes = 0;
/** A key prefix of its own for each test, so tests share one server without seeing each other. */
const freshPrefix = () => `test-${++prefixes}:`;
/** The key the store gives a well-formed thread id, written out here: the prefix, a NUL, the id. */
const threadKey = (keyPrefix: string, threadId: string) => `${keyPrefix}\0${threadId}`;

beforeAll(async () => {
  server = await startRedisServer();
  [client, other, admin] = await Promise.all([
    connectClient(server.url),
    connectClient(server.url),
    connectClient(server.url),
  ]);
});

afterAll(async () => {
  await closeClients();
  await server?.dispose();
});

// The core's contract, unchanged. Redis keeps the TTL itself (PEXPIRE), so the suite's time hook
// ages this store's keys in Redis by the same amount as its fake clock. The suite's TTL is a
// minute, so the real milliseconds that pass while a test runs never matter.
const contractPrefixes = new WeakMap<object, string>();
let contractPrefix = '';
describeStoreContract({
  name: 'redis',
  ttl: 60_000,
  createStore: ({ ttl, clock }) => {
    contractPrefix = `contract-${++prefixes}:`;
    const store = createRedisStore({ client, keyPrefix: contractPrefix, ttl, clock });
    contractPrefixes.set(store, contractPrefix);
    return store;
  },
  advanceTime: (ms) => ageKeys(admin, contractPrefix, ms),
  cleanup: async (store) => {
    await store.dispose?.();
    await createRedisStore({ client: admin, keyPrefix: contractPrefixes.get(store)! }).clear();
  },
});

describe('createRedisStore: load state', () => {
  it('keeps load order without duplicates and answers [] for an unknown thread', async () => {
    const store = createRedisStore({ client, keyPrefix: freshPrefix() });
    expect(await store.get('t')).toEqual([]);
    expect(await store.add('t', ['b', 'a', 'b'])).toEqual(['b', 'a']);
    expect(await store.add('t', ['c', 'a', 'd'])).toEqual(['b', 'a', 'c', 'd']);
    expect(await store.get('t')).toEqual(['b', 'a', 'c', 'd']);
    expect(await store.get('someone-else')).toEqual([]);
  });

  it('stores one sorted set per thread, at the key prefix, a NUL and the thread id, expiring after ttl', async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisStore({ client, keyPrefix, ttl: 60_000 });
    const writing = performance.now();
    await store.add('thread-1', ['x', 'y']);
    const key = threadKey(keyPrefix, 'thread-1');
    expect(Buffer.from(key)).toEqual(
      Buffer.concat([Buffer.from(keyPrefix), Buffer.from([0]), Buffer.from('thread-1')]),
    );
    expect(await admin.type(key)).toBe('zset');
    expect(await admin.zRange(key, 0, -1)).toEqual(['x', 'y']);
    expectFreshExpiry(await admin.pTTL(key), 60_000, writing);
    expect(await admin.exists(threadKey(keyPrefix, 'thread-2'))).toBe(0);
    // The old layout (`keyPrefix + threadId`, no NUL) is neither written nor read any more.
    expect(await admin.exists(`${keyPrefix}thread-1`)).toBe(0);
    await admin.zAdd(`${keyPrefix}old-layout`, { score: 1, value: 'z' });
    expect(await store.get('old-layout')).toEqual([]);
  });

  it('uses one hour as the default ttl', async () => {
    const keyPrefix = freshPrefix();
    const writing = performance.now();
    await createRedisStore({ client, keyPrefix }).add('t', ['a']);
    expect(DEFAULT_TTL).toBe(3_600_000);
    expectFreshExpiry(await admin.pTTL(threadKey(keyPrefix, 't')), DEFAULT_TTL, writing);
  });

  it('refreshes the expiry on get, add and remove (never on a thread that does not exist)', async () => {
    const keyPrefix = freshPrefix();
    const key = threadKey(keyPrefix, 't');
    const store = createRedisStore({ client, keyPrefix, ttl: 60_000 });
    await store.add('t', ['a', 'b']);
    for (const touch of [() => store.get('t'), () => store.add('t', []), () => store.remove('t', ['nope'])]) {
      await ageKeys(admin, keyPrefix, 50_000);
      expect(await admin.pTTL(key)).toBeLessThanOrEqual(10_000);
      const touching = performance.now();
      await touch();
      expectFreshExpiry(await admin.pTTL(key), 60_000, touching);
    }
    expect(await store.get('ghost')).toEqual([]);
    expect(await store.add('ghost', [])).toEqual([]);
    expect(await admin.exists(threadKey(keyPrefix, 'ghost'))).toBe(0);
  });

  it('forgets a thread once Redis expires its key (a real, 150 ms expiry)', async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisStore({ client, keyPrefix, ttl: 150 });
    // The add's own answer, read inside its script: a get after it could already find the key
    // expired when this machine pauses for 150 ms (a busy CI runner does).
    expect(await store.add('t', ['a'])).toEqual(['a']);
    const pttl = await admin.pTTL(threadKey(keyPrefix, 't'));
    expect(pttl === -2 || (pttl > 0 && pttl <= 150), `PTTL ${pttl}`).toBe(true);
    const started = performance.now();
    while ((await admin.exists(threadKey(keyPrefix, 't'))) === 1) {
      expect(performance.now() - started).toBeLessThan(2_000);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await store.get('t')).toEqual([]);
    expect((await store.stats()).threadCount).toBe(0);
  });

  it('with ttl 0 keys never expire, and the last access is not known', async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisStore({ client, keyPrefix, ttl: 0 });
    await store.add('t', ['a']);
    await store.get('t');
    expect(await admin.pTTL(threadKey(keyPrefix, 't'))).toBe(-1);
    expect(await store.stats()).toEqual({ threadCount: 1, oldestAccessTime: null });
  });

  it('works with the largest ttl it accepts (Number.MAX_SAFE_INTEGER ms) on every read and write', async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisStore({ client, keyPrefix, ttl: Number.MAX_SAFE_INTEGER });
    expect(await store.add('t', ['a', 'b'])).toEqual(['a', 'b']);
    expect(await store.remove('t', ['a'])).toEqual(['b']);
    expect(await store.get('t')).toEqual(['b']);
    expect(await admin.pTTL(threadKey(keyPrefix, 't'))).toBeGreaterThan(Number.MAX_SAFE_INTEGER - 60_000);
    expect((await store.stats()).threadCount).toBe(1);
  });

  it('removes names, keeps the order of the rest, appends later loads after them', async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisStore({ client, keyPrefix });
    await store.add('t', ['a', 'b', 'c', 'd']);
    expect(await store.remove('t', ['b', 'd', 'missing'])).toEqual(['a', 'c']);
    expect(await store.add('t', ['b', 'e'])).toEqual(['a', 'c', 'b', 'e']);
    expect(await store.remove('t', ['a', 'c', 'b', 'e'])).toEqual([]);
    expect(await admin.exists(threadKey(keyPrefix, 't'))).toBe(0);
    expect(await store.remove('never-seen', ['a'])).toEqual([]);
  });

  it('with keep, removes in the order given until the thread holds keep names, in one round trip', async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisStore({ client, keyPrefix });
    await store.add('t', ['a', 'b', 'c', 'd', 'e']);
    const counted = countRoundTrips(client);
    const counting = createRedisStore({ client: counted.client, keyPrefix });
    await counting.remove('t', [], { keep: 9 }); // the script is cached from here on
    counted.reset();
    expect(await counting.remove('t', ['e', 'missing', 'c', 'a'], { keep: 3 })).toEqual(['a', 'b', 'd']);
    expect(counted.reset()).toEqual(['EVALSHA']);
    expect(await admin.zRange(threadKey(keyPrefix, 't'), 0, -1)).toEqual(['a', 'b', 'd']);
    // The largest keep it accepts, and 0 (every name listed goes, and the key with them).
    expect(await store.remove('t', ['a'], { keep: Number.MAX_SAFE_INTEGER })).toEqual(['a', 'b', 'd']);
    expect(await store.remove('t', ['d', 'b', 'a'], { keep: 0 })).toEqual([]);
    expect(await admin.exists(threadKey(keyPrefix, 't'))).toBe(0);
  });

  it('refuses a keep that is not an integer >= 0 with INVALID_INPUT, and removes nothing', async () => {
    const store = createRedisStore({ client, keyPrefix: freshPrefix() });
    await store.add('t', ['a', 'b', 'c']);
    for (const keep of [
      -1,
      2.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.MAX_SAFE_INTEGER + 1,
      '2',
      null,
    ]) {
      const error = await expectCode(store.remove('t', ['a'], { keep } as never), 'INVALID_INPUT');
      expect(error.message).toMatch(/keep/);
    }
    await expectCode(store.remove('t', ['a'], 'keep' as never), 'INVALID_INPUT');
    expect(await store.get('t')).toEqual(['a', 'b', 'c']);
  });

  it('deletes one thread and leaves the others', async () => {
    const store = createRedisStore({ client, keyPrefix: freshPrefix() });
    await store.add('a', ['x']);
    await store.add('b', ['y']);
    await store.delete('a');
    await store.delete('never-seen');
    expect(await store.get('a')).toEqual([]);
    expect(await store.get('b')).toEqual(['y']);
  });

  it('treats odd thread ids and names as plain strings', async () => {
    const store = createRedisStore({ client, keyPrefix: freshPrefix() });
    const names = [
      '__proto__',
      'constructor',
      'tool with spaces',
      'wetter-☀️',
      '*',
      '[a]',
      '',
      'x'.repeat(10_000),
    ];
    for (const threadId of ['__proto__', 'constructor', '*', 'ünïcödé 🧵', '']) {
      expect(await store.add(threadId, names)).toEqual(names);
      expect(await store.get(threadId)).toEqual(names);
    }
    expect((await store.stats()).threadCount).toBe(5);
  });

  it('keeps thread ids that are not well-formed Unicode apart (lone surrogates), and well-formed ids where they were', async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisStore({ client, keyPrefix, ttl: 60_000 });
    // UTF-8 turns each lone surrogate into U+FFFD: these three ids would share one key.
    await store.add('\ud800', ['x']);
    await store.add('a\udc00b', ['y']);
    expect(await store.get('\ud800')).toEqual(['x']);
    expect(await store.get('\udc00')).toEqual([]);
    expect(await store.get('\ufffd')).toEqual([]);
    expect(await store.get('a\ud800b')).toEqual([]);
    expect(await store.get('a\udc00b')).toEqual(['y']);
    const writing = performance.now();
    await store.add('\ufffd', ['z']);
    expect(await store.get('\ud800')).toEqual(['x']);
    // A well-formed id's key is its UTF-8; an ill-formed one's has 0xFF after the NUL, then UTF-16.
    expect(await admin.zRange(threadKey(keyPrefix, '\ufffd'), 0, -1)).toEqual(['z']);
    expectFreshExpiry(await admin.pTTL(threadKey(keyPrefix, '\ufffd')), 60_000, writing);
    const illFormedKey = Buffer.concat([
      Buffer.from(keyPrefix),
      Buffer.from([0x00, 0xff]),
      Buffer.from('\ud800', 'utf16le'),
    ]);
    expect(await admin.zRange(illFormedKey, 0, -1)).toEqual(['x']);
    // stats() and clear() reach the keys of ill-formed ids too (SCAN answers them byte for byte).
    expect((await store.stats()).threadCount).toBe(3);
    await store.remove('\ud800', ['x']);
    expect((await store.stats()).threadCount).toBe(2);
    await store.add('\ud800', ['x']);
    await store.delete('a\udc00b');
    expect(await store.get('a\udc00b')).toEqual([]);
    await store.clear();
    expect((await store.stats()).threadCount).toBe(0);
    expect(await store.get('\ud800')).toEqual([]);
  });

  it('refuses a name that is not well-formed Unicode, rather than merge it with another', async () => {
    const store = createRedisStore({ client, keyPrefix: freshPrefix() });
    await store.add('t', ['a']);
    const error = await expectCode(store.add('t', ['b', 'a\ud800', 'a\udc00']), 'INVALID_INPUT');
    expect(error.message).toMatch(/well-formed/);
    await expectCode(store.remove('t', ['a\udc00']), 'INVALID_INPUT');
    expect(await store.get('t')).toEqual(['a']); // nothing written
    expect(await store.add('t', ['a\ufffd', '🧰'])).toEqual(['a', 'a\ufffd', '🧰']);
  });

  it('ignores names that are not strings, and refuses names that are not a list', async () => {
    const store = createRedisStore({ client, keyPrefix: freshPrefix() });
    expect(await store.add('t', ['a', 1, null, 'b'] as unknown as string[])).toEqual(['a', 'b']);
    await expectCode(store.add('t', 'a' as unknown as string[]), 'INVALID_INPUT');
    await expectCode(store.remove('t', undefined as unknown as string[]), 'INVALID_INPUT');
  });
});

describe('createRedisStore: several processes at once', () => {
  it('loses nothing and duplicates nothing when two clients add into one thread in parallel', async () => {
    const keyPrefix = freshPrefix();
    // A generous bound: this test is about atomicity, and 400 adds at once on a busy machine take a while.
    const first = createRedisStore({ client, keyPrefix, commandTimeoutMs: 10_000 });
    const second = createRedisStore({ client: other, keyPrefix, commandTimeoutMs: 10_000 });
    const names = Array.from({ length: 200 }, (_, index) => `tool_${index}`);
    // 400 adds in flight at once, overlapping: each name is added by both clients, in different orders.
    const answers = await Promise.all([
      ...names.map((name, index) => first.add('shared', [name, names[(index + 7) % names.length]!])),
      ...names.map((name, index) => second.add('shared', [names[names.length - 1 - index]!, name])),
    ]);
    const final = await first.get('shared');
    expect(final).toHaveLength(names.length);
    expect(new Set(final)).toEqual(new Set(names));
    // Loading only appends: every answer is a prefix of the final order.
    for (const answer of answers) expect(final.slice(0, answer.length)).toEqual(answer);
    expect(await second.get('shared')).toEqual(final);
    // Each name got its own place in the order: scores 1..200, none shared (a read-then-write
    // add racing with another would hand out the same score twice).
    const scores = (await admin.zRangeWithScores(threadKey(keyPrefix, 'shared'), 0, -1)).map(
      (entry) => entry.score,
    );
    expect(scores).toEqual(names.map((_, index) => index + 1));
  });

  it('sees what another client loaded on its next read', async () => {
    const keyPrefix = freshPrefix();
    const first = createRedisStore({ client, keyPrefix });
    const second = createRedisStore({ client: other, keyPrefix });
    await first.add('t', ['a']);
    expect(await second.get('t')).toEqual(['a']);
    await second.add('t', ['b']);
    expect(await first.get('t')).toEqual(['a', 'b']);
  });
});

describe('createRedisStore: maxLoadedTools across engines', () => {
  it('two engines evicting from one thread at the same moment leave it holding exactly maxLoadedTools', async () => {
    const keyPrefix = freshPrefix();
    const [a, b, c, x, y] = sampleCatalog().map((entry) => entry.descriptor.name) as [
      string,
      string,
      string,
      string,
      string,
    ];
    // Both adds of the last loads land before either eviction runs: each engine then evicts from
    // what its own add answered, by its own recency.
    let release!: () => void;
    const bothAdded = new Promise<void>((resolve) => {
      release = resolve;
    });
    let lastAdds = 0;
    const gated = (): LoadStateStore => {
      const store = createRedisStore({ client, keyPrefix });
      return {
        get: (threadId) => store.get(threadId),
        delete: (threadId) => store.delete(threadId),
        async add(threadId, names) {
          const answer = await store.add(threadId, names);
          if ((names.includes(x) || names.includes(y)) && ++lastAdds === 2) release();
          return answer;
        },
        async remove(threadId, names, options) {
          await bothAdded;
          return store.remove(threadId, names, options);
        },
      };
    };
    const events: ToolSearchEvent[] = [];
    const engine = () =>
      createToolSearchEngine({
        catalog: sampleCatalog(),
        storage: gated(),
        maxLoadedTools: 3,
        onEvent: (event) => events.push(event),
      });
    const one = engine();
    const two = engine();
    const load = (on: typeof one, name: string) =>
      on.startRequest({ threadId: 't' }).loadTool({ toolName: name });
    await load(one, a);
    await load(one, b);
    await load(one, c);
    await load(one, a); // in one, b is now the least recently used
    await two.startRequest({ threadId: 't' }).prepareStep(); // two sees a, b, c
    await load(two, b); // in two, a then c are the least recently used
    const [first, second] = await Promise.all([load(one, x), load(two, y)]);
    expect(first).toMatchObject({ success: true, loaded: [x] });
    expect(second).toMatchObject({ success: true, loaded: [y] });
    // One asked to evict b, two asked for a and c: between them three names, where two were due.
    const held = await createRedisStore({ client: admin, keyPrefix }).get('t');
    expect(held).toHaveLength(3);
    expect(held.slice(-2)).toEqual([x, y]);
    // Each engine reports as evicted only what its own remove took away; the rest is held.
    const evicted = events.flatMap((event) => (event.type === 'evict' ? event.toolNames : []));
    expect(evicted).toHaveLength(2);
    expect(new Set([...evicted, ...held])).toEqual(new Set([a, b, c, x, y]));
    for (const on of [one, two]) {
      expect((await on.startRequest({ threadId: 't' }).prepareStep()).visible).toEqual([
        'search_tools',
        'load_tool',
        ...held,
      ]);
    }
    await one.dispose();
    await two.dispose();
  });
});

describe('createRedisStore: stats and clear', () => {
  it('counts only its own threads and derives the oldest access from the remaining expiry', async () => {
    const keyPrefix = freshPrefix();
    let now = 1_700_000_000_000;
    const store = createRedisStore({ client, keyPrefix, ttl: 60_000, clock: { now: () => now } });
    expect(await store.stats()).toEqual({ threadCount: 0, oldestAccessTime: null });
    const writing = performance.now();
    await store.add('old', ['a']);
    await ageKeys(admin, keyPrefix, 20_000);
    now += 20_000;
    await store.add('new', ['b']);
    await admin.set(threadKey(keyPrefix, 'not-a-thread'), 'a string under the same prefix');
    // A store whose prefix extends ours has threads of its own, not ours.
    await createRedisStore({ client, keyPrefix: `${keyPrefix}x` }).add('t', ['c']);
    const stats = await store.stats();
    // Real time passes between the write and the PTTL read, and makes the access look older by as
    // much: no more than this test's own run took (Redis rounds to whole ms).
    const elapsed = Math.ceil(performance.now() - writing) + 1;
    expect(stats.threadCount).toBe(2); // old and new
    expect(stats.oldestAccessTime).not.toBeNull();
    expect(stats.oldestAccessTime!).toBeLessThanOrEqual(now - 20_000 + 1);
    expect(stats.oldestAccessTime!).toBeGreaterThanOrEqual(now - 20_000 - elapsed);
  });

  it('keeps stores on nested prefixes apart: no shared thread, and clear() and stats() of one never touch the other', async () => {
    for (const [outerPrefix, innerPrefix] of [
      ['chat:', 'chat:admin:'],
      ['app', 'app2'],
    ] as const) {
      const outer = createRedisStore({ client, keyPrefix: outerPrefix });
      const inner = createRedisStore({ client, keyPrefix: innerPrefix });
      const rest = innerPrefix.slice(outerPrefix.length); // 'admin:' or '2'
      // Before, the outer store's thread `${rest}42` was the inner store's thread '42' (one key).
      await inner.add('42', ['refund_payment']);
      await inner.add('\ud800', ['inner-ill-formed']);
      expect(await outer.get(`${rest}42`)).toEqual([]);
      expect(await outer.stats()).toEqual({ threadCount: 0, oldestAccessTime: null });
      await outer.add(`${rest}42`, ['getWeather']);
      await outer.add(`${rest}\ud800`, ['outer-ill-formed']);
      expect(await inner.get('42')).toEqual(['refund_payment']);
      expect(await inner.get('\ud800')).toEqual(['inner-ill-formed']);
      expect(await outer.get(`${rest}42`)).toEqual(['getWeather']);
      expect((await outer.stats()).threadCount).toBe(2);
      expect((await inner.stats()).threadCount).toBe(2);

      await outer.clear();
      expect(await outer.get(`${rest}42`)).toEqual([]);
      expect(await outer.get(`${rest}\ud800`)).toEqual([]);
      expect(await inner.get('42')).toEqual(['refund_payment']);
      expect(await inner.get('\ud800')).toEqual(['inner-ill-formed']);
      expect((await inner.stats()).threadCount).toBe(2);

      await outer.add('t', ['kept']);
      await inner.clear();
      expect(await inner.get('42')).toEqual([]);
      expect(await outer.get('t')).toEqual(['kept']);
      expect((await outer.stats()).threadCount).toBe(1);
      await outer.clear();
    }
  });

  it('escapes glob characters of the prefix in SCAN', async () => {
    const keyPrefix = `glob*[x]?-${++prefixes}:`;
    const store = createRedisStore({ client, keyPrefix });
    await store.add('t', ['a']);
    const others = [`glob-other-${prefixes}:\0t`, threadKey(keyPrefix.replace('*', 'ANY'), 't')];
    for (const key of others) await admin.zAdd(key, { score: 1, value: 'a' });
    expect(escapeGlob('a*b?[c]\\')).toBe('a\\*b\\?\\[c\\]\\\\');
    expect(escapeGlob('a\0b')).toBe('a\0b');
    expect((await store.stats()).threadCount).toBe(1);
    await store.clear();
    for (const key of others) expect(await admin.exists(key)).toBe(1);
    expect(await store.get('t')).toEqual([]);
  });

  it('clears thousands of threads page by page with SCAN, never KEYS, and nothing outside its prefix', async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisStore({ client, keyPrefix });
    const neighbour = createRedisStore({ client, keyPrefix: freshPrefix() });
    await neighbour.add('t', ['kept']);
    await admin.set(threadKey(keyPrefix, 'config'), 'not ours to delete');
    const threads = Array.from({ length: 2_500 }, (_, index) => `thread-${index}`);
    const seed = admin.multi();
    for (const threadId of threads) seed.zAdd(threadKey(keyPrefix, threadId), { score: 1, value: 'a' });
    await seed.exec();
    const before = await commandStats(admin);
    expect((await store.stats()).threadCount).toBe(2_500);
    await store.clear();
    const after = await commandStats(admin);
    expect(after.get('keys') ?? 0).toBe(before.get('keys') ?? 0);
    expect((after.get('scan') ?? 0) - (before.get('scan') ?? 0)).toBeGreaterThan(2);
    expect((await store.stats()).threadCount).toBe(0);
    expect(await store.get('thread-7')).toEqual([]);
    expect(await neighbour.get('t')).toEqual(['kept']);
    expect(await admin.get(threadKey(keyPrefix, 'config'))).toBe('not ours to delete');
  });
});

describe('createRedisStore: kinds of client', () => {
  it('works with a client pool (createClientPool), and fails at once once it is closed', async () => {
    const keyPrefix = freshPrefix();
    const pool = createClientPool({ url: server.url });
    pool.on('error', () => undefined);
    await pool.connect();
    try {
      // A pool has no isReady: every call was refused as "the client is reconnecting".
      const store = createRedisStore({ client: pool, keyPrefix });
      expect(await store.add('t', ['a', 'b'])).toEqual(['a', 'b']);
      expect(await store.remove('t', ['a'])).toEqual(['b']);
      expect(await store.get('t')).toEqual(['b']);
      expect(await admin.zRange(threadKey(keyPrefix, 't'), 0, -1)).toEqual(['b']);
      expect((await store.stats()).threadCount).toBe(1);
      await store.clear();
      expect(await store.get('t')).toEqual([]);
      await pool.close();
      const error = await expectCode(store.get('t'), 'STORE_UNAVAILABLE');
      expect(error.message).toMatch(/not connected/);
    } finally {
      if (pool.isOpen) await pool.close();
    }
  });

  it("puts the client's own keyPrefix (node-redis 6) before its keys, as node-redis does for every other command", async () => {
    const keyPrefix = freshPrefix();
    const tenants = await Promise.all(
      ['tenant-a:', 'tenant-b:'].map((prefix) => connectClient(server.url, { keyPrefix: prefix })),
    );
    const [a, b] = tenants.map((tenant) => createRedisStore({ client: tenant, keyPrefix }));
    await a!.add('t', ['getWeather']);
    // Before, both clients wrote the one key `${keyPrefix}\0t`, outside either tenant's prefix.
    expect(await b!.get('t')).toEqual([]);
    await b!.add('t', ['send_email']);
    expect(await admin.zRange(threadKey(`tenant-a:${keyPrefix}`, 't'), 0, -1)).toEqual(['getWeather']);
    expect(await admin.zRange(threadKey(`tenant-b:${keyPrefix}`, 't'), 0, -1)).toEqual(['send_email']);
    expect(await admin.exists(threadKey(keyPrefix, 't'))).toBe(0);
    // The client's own commands see the same keys.
    expect(await tenants[0]!.zRange(threadKey(keyPrefix, 't'), 0, -1)).toEqual(['getWeather']);
    expect((await a!.stats()).threadCount).toBe(1);
    await a!.clear();
    expect(await a!.get('t')).toEqual([]);
    expect(await b!.get('t')).toEqual(['send_email']);
    expect((await b!.stats()).threadCount).toBe(1);
    // A pool's keyPrefix too.
    const pool = createClientPool({ url: server.url, keyPrefix: 'tenant-a:' });
    pool.on('error', () => undefined);
    await pool.connect();
    try {
      await createRedisStore({ client: pool, keyPrefix }).add('t', ['from-the-pool']);
      expect(await a!.get('t')).toEqual(['from-the-pool']);
    } finally {
      await pool.close();
    }
  });
});

describe('createRedisStore: round trips', () => {
  it('makes one round trip per get, add, remove and delete once its scripts are cached', async () => {
    await admin.scriptFlush();
    const counted = countRoundTrips(client);
    const store = createRedisStore({ client: counted.client, keyPrefix: freshPrefix() });
    // The first use of each script after a flush (or a server restart) sends its source once.
    expect(await store.get('t')).toEqual([]);
    expect(counted.commands).toEqual(['EVALSHA', 'EVAL']);
    await store.add('t', ['a']);
    await store.remove('t', ['a']);
    counted.reset();

    const before = await commandStats(admin);
    expect(await store.get('t')).toEqual([]);
    expect(counted.reset()).toEqual(['EVALSHA']);
    await store.add('t', ['a', 'b']);
    expect(counted.reset()).toEqual(['EVALSHA']);
    await store.remove('t', ['a']);
    expect(counted.reset()).toEqual(['EVALSHA']);
    await store.delete('t');
    expect(counted.reset()).toEqual(['UNLINK']);
    // Redis expires keys itself: sweep has nothing to do and asks nothing.
    expect(await store.sweep()).toBe(0);
    expect(counted.reset()).toEqual([]);
    const after = await commandStats(admin);
    // The server agrees: four commands, three of them scripts (commandstats lists them as evalsha).
    expect((after.get('evalsha') ?? 0) - (before.get('evalsha') ?? 0)).toBe(3);
    expect((after.get('unlink') ?? 0) - (before.get('unlink') ?? 0)).toBe(1);
  });
});

describe('createRedisStore: misuse', () => {
  it('fails with STORE_UNAVAILABLE, at once, on a client that was never connected', async () => {
    const idle = createClient({ url: server.url });
    const store = createRedisStore({ client: idle });
    const started = performance.now();
    const error = await expectCode(store.get('t'), 'STORE_UNAVAILABLE');
    expect(error.message).toMatch(/connect/);
    expect(performance.now() - started).toBeLessThan(100); // the default bound is 1,000 ms
  });

  it('reports a key of another type under its prefix as STORE_UNAVAILABLE with the cause', async () => {
    const keyPrefix = freshPrefix();
    await admin.set(threadKey(keyPrefix, 't'), 'a string');
    const store = createRedisStore({ client, keyPrefix });
    const error = await expectCode(store.get('t'), 'STORE_UNAVAILABLE');
    expect(String((error.cause as Error).message)).toMatch(/WRONGTYPE/);
    await expectCode(store.add('t', ['a']), 'STORE_UNAVAILABLE');
    expect(await admin.get(threadKey(keyPrefix, 't'))).toBe('a string');
  });

  it('after dispose fails with DISPOSED and leaves the client open', async () => {
    const store = createRedisStore({ client, keyPrefix: freshPrefix() });
    await store.add('t', ['a']);
    store.dispose();
    store.dispose();
    await expectCode(store.get('t'), 'DISPOSED');
    await expectCode(store.add('t', ['b']), 'DISPOSED');
    await expectCode(store.stats(), 'DISPOSED');
    expect(client.isReady).toBe(true);
    expect(await client.ping()).toBe('PONG');
  });
});
