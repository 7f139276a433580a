import { createKeywordRanker, createLearning, type StoredToolUse, withLearning } from '@tool-search/core';
import { describeEvidenceStoreContract } from '@tool-search/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeClients, connectClient, type TestClient } from '../test/clients';
import { expectCode } from '../test/expect-code';
import { createRedisEvidenceStore, DEFAULT_EVIDENCE_TTL } from './redis-evidence-store';
import { type RedisServer, startRedisServer } from './testing';

let server: RedisServer;
let client: TestClient;
let other: TestClient;
let admin: TestClient;
let prefixes = 0;
/** A key prefix of its own for each test, so tests share one server without seeing each other. */
const freshPrefix = () => `evidence-test-${++prefixes}:`;
/** The keys the store gives a well-formed catalog id, written out here. */
const orderKey = (keyPrefix: string, catalogId: string) => `${keyPrefix}\0${catalogId}\0order`;
const usesKey = (keyPrefix: string, catalogId: string) => `${keyPrefix}\0${catalogId}\0uses`;

const use = (seed: number, overrides: Partial<StoredToolUse> = {}): StoredToolUse => ({
  id: `use-${seed}`,
  query: `is it going to rain in city ${seed}`,
  toolName: 'getWeather',
  time: 1_700_000_000_000 + seed,
  ...overrides,
});

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

// The core's contract, unchanged, against a real redis-server, with a bound the suite fills.
describeEvidenceStoreContract({
  name: 'redis',
  maxUses: 40,
  createStore: () => createRedisEvidenceStore({ client, keyPrefix: freshPrefix(), maxUses: 40 }),
});

describe('createRedisEvidenceStore', () => {
  it('keeps a catalog in two keys under its prefix, with the expiry refreshed by every add', async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisEvidenceStore({ client, keyPrefix });
    await store.add('shop', [use(1)]);
    expect(await admin.type(orderKey(keyPrefix, 'shop'))).toBe('list');
    expect(await admin.type(usesKey(keyPrefix, 'shop'))).toBe('hash');
    const left = await admin.pTTL(usesKey(keyPrefix, 'shop'));
    expect(left).toBeGreaterThan(DEFAULT_EVIDENCE_TTL - 60_000);
    expect(left).toBeLessThanOrEqual(DEFAULT_EVIDENCE_TTL);
    const forever = createRedisEvidenceStore({ client, keyPrefix: freshPrefix(), ttl: 0 });
    await forever.add('shop', [use(1)]);
    expect(await admin.keys('*')).toEqual(expect.arrayContaining([orderKey(keyPrefix, 'shop')]));
  });

  it('shares one catalog between two clients (two processes) adding at once, and bounds it', async () => {
    const keyPrefix = freshPrefix();
    const one = createRedisEvidenceStore({ client, keyPrefix, maxUses: 50 });
    const two = createRedisEvidenceStore({ client: other, keyPrefix, maxUses: 50 });
    const uses = Array.from({ length: 80 }, (_, index) => use(index));
    await Promise.all(uses.map((entry, index) => (index % 2 === 0 ? one : two).add('shop', [entry, use(0)])));
    const listed = await one.list('shop');
    expect(listed).toHaveLength(50);
    expect(new Set(listed.map((entry) => entry.id)).size).toBe(50);
    expect(await two.list('shop')).toEqual(listed);
    // The hash holds exactly the listed uses: nothing dropped from the order stays behind.
    expect(await admin.hLen(usesKey(keyPrefix, 'shop'))).toBe(50);
  });

  it('drops the oldest added past maxUses in one add larger than a script chunk', async () => {
    const store = createRedisEvidenceStore({ client, keyPrefix: freshPrefix(), maxUses: 1_500 });
    const uses = Array.from({ length: 2_600 }, (_, index) => use(index));
    await store.add('big', uses);
    const listed = await store.list('big');
    expect(listed).toHaveLength(1_500);
    expect(listed[0]).toEqual(uses[1_100]);
    expect(listed.at(-1)).toEqual(uses.at(-1));
  });

  it('keeps catalog ids with a lone surrogate apart from their U+FFFD twin, and prefixes apart', async () => {
    const store = createRedisEvidenceStore({ client, keyPrefix: 'chat:' });
    const longer = createRedisEvidenceStore({ client, keyPrefix: 'chat:admin:' });
    await store.add('\ud800', [use(1)]);
    await store.add('\ufffd', [use(2)]);
    await store.add('admin:42', [use(3)]);
    await longer.add('42', [use(4)]);
    expect(await store.list('\ud800')).toEqual([use(1)]);
    expect(await store.list('\ufffd')).toEqual([use(2)]);
    expect(await store.list('admin:42')).toEqual([use(3)]);
    expect(await longer.list('42')).toEqual([use(4)]);
    for (const id of ['\ud800', '\ufffd', 'admin:42']) await store.clear(id);
    await longer.clear('42');
  });

  it('keeps ids that differ only in a lone surrogate as two uses', async () => {
    const store = createRedisEvidenceStore({ client, keyPrefix: freshPrefix() });
    await store.add('shop', [use(1, { id: 'a\ud800' }), use(2, { id: 'a\udc00' })]);
    expect((await store.list('shop')).map((entry) => entry.id)).toEqual(['a\ud800', 'a\udc00']);
  });

  it('reads what another program wrote as untrusted: a value that is not a use is left out', async () => {
    const keyPrefix = freshPrefix();
    const store = createRedisEvidenceStore({ client, keyPrefix });
    await store.add('shop', [use(1), use(2)]);
    await admin.hSet(usesKey(keyPrefix, 'shop'), JSON.stringify('use-1'), '{"not":"a use"');
    await admin.rPush(orderKey(keyPrefix, 'shop'), JSON.stringify('never-written'));
    expect(await store.list('shop')).toEqual([use(2)]);
  });

  it('refuses a use that is not one, and a catalog id that is not a string, before any round trip', async () => {
    const store = createRedisEvidenceStore({ client, keyPrefix: freshPrefix() });
    await expectCode(store.add('shop', [{ ...use(1), time: Number.NaN }]), 'INVALID_INPUT');
    await expectCode(store.add('shop', 'nope' as never), 'INVALID_INPUT');
    await expectCode(store.list(42 as never), 'INVALID_INPUT');
    expect(await store.list('shop')).toEqual([]);
  });

  it('checks its options', () => {
    expect(() => createRedisEvidenceStore({ client, maxUse: 3 } as never)).toThrow(/maxUses/);
    expect(() => createRedisEvidenceStore({ client, maxUses: -1 })).toThrow(/maxUses/);
    expect(() => createRedisEvidenceStore({ client, keyPrefix: 'a\0b' })).toThrow(/NUL/);
    expect(() => createRedisEvidenceStore({ client: {} as never })).toThrow(/node-redis client/);
  });

  it('fails with DISPOSED after dispose, and never closes the client', async () => {
    const store = createRedisEvidenceStore({ client, keyPrefix: freshPrefix() });
    store.dispose();
    await expectCode(store.list('shop'), 'DISPOSED');
    await expectCode(store.add('shop', [use(1)]), 'DISPOSED');
    expect(client.isReady).toBe(true);
  });

  it("is a learning's store: uses recorded by one process rank in another", async () => {
    const keyPrefix = freshPrefix();
    const tools = [
      { name: 'getWeather', description: 'Current conditions for a city' },
      { name: 'sendEmail', description: 'Send a message to a recipient' },
    ];
    const writer = createLearning({
      store: createRedisEvidenceStore({ client, keyPrefix }),
      catalogId: 'shop',
    });
    await writer.ready;
    withLearning(createKeywordRanker, writer)(tools); // the writer knows the catalog's tools
    for (const threadId of ['t1', 't2', 't3'])
      writer.recordUse({ query: 'do I need an umbrella', toolName: 'getWeather', threadId });
    await writer.flush();
    const reader = createLearning({
      store: createRedisEvidenceStore({ client: other, keyPrefix }),
      catalogId: 'shop',
    });
    await reader.ready;
    const ranker = withLearning(createKeywordRanker, reader)(tools);
    const found = await ranker.search('umbrella today?', { topK: 1 });
    expect(found.map((result) => result.name)).toEqual(['getWeather']);
  });
});
