import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock, type FakeClock } from '../clock';
import type { LoadStateStore, MaybePromise } from '../types';

export interface StoreContractContext {
  /** The TTL the store must apply, in milliseconds. */
  readonly ttl: number;
  /** The suite's fake clock. A store that keeps time itself (Redis) may ignore it. */
  readonly clock: FakeClock;
}

export interface StoreContractOptions {
  /** Shown in the test names. */
  readonly name: string;
  /** Returns a new, EMPTY store each time (its own namespace: tests run one after another and must not see each other). */
  readonly createStore: (context: StoreContractContext) => MaybePromise<LoadStateStore>;
  /**
   * Moves the store's time on by `ms`. The suite always advances its fake clock first (which
   * is enough for a store that takes time from the clock); a store whose TTL is kept
   * elsewhere (Redis's own expiry) passes a hook that makes that much time pass there.
   */
  readonly advanceTime?: (ms: number, clock: FakeClock) => Promise<void>;
  /** The TTL the TTL tests use (default 1,000 ms). */
  readonly ttl?: number;
  /** Run after each test (default: `store.dispose?.()`). */
  readonly cleanup?: (store: LoadStateStore) => MaybePromise<void>;
}

/** Thread ids and tool names that break naive stores (object keys, key patterns, unicode, size). */
export const oddIds: readonly string[] = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'default',
  ' ',
  'a:b*c?[d]{e}',
  'tool-search:threads:x',
  '线程🧵-ñ',
  'x'.repeat(2_000),
  // Ids that differ only in case, or only past a long shared start: a store that folds case
  // or cuts ids would merge two users' threads.
  'User-1',
  'user-1',
  `org:${'0'.repeat(64)}:user:a`,
  `org:${'0'.repeat(64)}:user:b`,
];

/**
 * The contract every load-state store passes: the in-memory store, the Redis store,
 * yours. Call it at the top level of a test file:
 *
 * ```ts
 * describeStoreContract({ name: 'memory', createStore: ({ ttl, clock }) => createMemoryStore({ ttl, clock }) });
 * ```
 * Optional capabilities (remove, clear, sweep, stats, dispose) are tested when present (an engine
 * with `maxLoadedTools` requires `remove`, and passes it `keep`).
 */
export function describeStoreContract(options: StoreContractOptions): void {
  const ttl = options.ttl ?? 1_000;

  describe(`load-state store contract: ${options.name}`, () => {
    let created: LoadStateStore[] = [];
    let clock: FakeClock;

    const setup = async () => {
      clock = createFakeClock();
      const store = await options.createStore({ ttl, clock });
      created.push(store);
      return store;
    };
    const advance = async (ms: number) => {
      clock.advance(ms);
      await options.advanceTime?.(ms, clock);
    };

    afterEach(async () => {
      for (const store of created) await (options.cleanup ? options.cleanup(store) : store.dispose?.());
      created = [];
    });

    it('returns [] for a thread it does not know', async () => {
      const store = await setup();
      expect(await store.get('nobody')).toEqual([]);
    });

    it('keeps names in load order and returns them from add', async () => {
      const store = await setup();
      expect(await store.add('t', ['b', 'a'])).toEqual(['b', 'a']);
      expect(await store.add('t', ['c'])).toEqual(['b', 'a', 'c']);
      expect(await store.get('t')).toEqual(['b', 'a', 'c']);
    });

    it('never holds a name twice (within one add and across adds)', async () => {
      const store = await setup();
      await store.add('t', ['a', 'b', 'a']);
      expect(await store.add('t', ['c', 'a', 'd', 'b'])).toEqual(['a', 'b', 'c', 'd']);
      expect(await store.get('t')).toEqual(['a', 'b', 'c', 'd']);
    });

    it('accepts an empty add', async () => {
      const store = await setup();
      expect(await store.add('t', [])).toEqual([]);
      await store.add('t', ['a']);
      expect(await store.add('t', [])).toEqual(['a']);
    });

    it('keeps threads apart', async () => {
      const store = await setup();
      await store.add('one', ['a']);
      await store.add('two', ['b']);
      expect(await store.get('one')).toEqual(['a']);
      expect(await store.get('two')).toEqual(['b']);
    });

    it('hands out copies: changing a returned array changes nothing stored', async () => {
      const store = await setup();
      const returned = await store.add('t', ['a']);
      try {
        (returned as string[]).push('mutated');
      } catch {
        // A frozen array is fine too.
      }
      const read = await store.get('t');
      try {
        (read as string[]).push('mutated');
      } catch {
        // idem
      }
      expect(await store.get('t')).toEqual(['a']);
    });

    it('loses no name when adds to one thread run concurrently', async () => {
      const store = await setup();
      const names = Array.from({ length: 25 }, (_, index) => `tool_${index}`);
      await Promise.all(names.map((name) => store.add('t', [name])));
      const stored = await store.get('t');
      expect([...stored].sort()).toEqual([...names].sort());
      expect(new Set(stored).size).toBe(stored.length);
    });

    it('stores a name once when the same add runs concurrently', async () => {
      const store = await setup();
      await Promise.all(Array.from({ length: 10 }, () => store.add('t', ['same', 'other'])));
      expect(await store.get('t')).toEqual(['same', 'other']);
    });

    it('forgets a thread on delete, and starts it afresh afterwards', async () => {
      const store = await setup();
      await store.add('t', ['a', 'b']);
      await store.add('u', ['c']);
      await store.delete('t');
      await store.delete('never-seen');
      expect(await store.get('t')).toEqual([]);
      expect(await store.get('u')).toEqual(['c']);
      expect(await store.add('t', ['b'])).toEqual(['b']);
    });

    it('treats odd thread ids and tool names as plain strings', async () => {
      const store = await setup();
      for (const [index, id] of oddIds.entries()) await store.add(id, [`tool_${index}`, id]);
      for (const [index, id] of oddIds.entries()) expect(await store.get(id)).toEqual([`tool_${index}`, id]);
      expect(await store.get('nobody')).toEqual([]);
      await store.delete('__proto__');
      expect(await store.get('__proto__')).toEqual([]);
      expect(await store.get('constructor')).toEqual([
        `tool_${oddIds.indexOf('constructor')}`,
        'constructor',
      ]);
    });

    it('expires a thread not read or written for the TTL', async () => {
      const store = await setup();
      await store.add('idle', ['a']);
      await advance(ttl + 1);
      expect(await store.get('idle')).toEqual([]);
    });

    it('refreshes the TTL on get and on add', async () => {
      const store = await setup();
      await store.add('read', ['a']);
      await store.add('written', ['b']);
      await advance(Math.ceil(ttl * 0.6));
      expect(await store.get('read')).toEqual(['a']);
      await store.add('written', ['c']);
      await advance(Math.ceil(ttl * 0.6));
      expect(await store.get('read')).toEqual(['a']);
      expect(await store.get('written')).toEqual(['b', 'c']);
    });

    it('remove drops some names and keeps the order of the rest (when supported)', async (context) => {
      const store = await setup();
      if (!store.remove) return context.skip();
      await store.add('t', ['a', 'b', 'c', 'd']);
      expect(await store.remove('t', ['b', 'zzz'])).toEqual(['a', 'c', 'd']);
      expect(await store.get('t')).toEqual(['a', 'c', 'd']);
      expect(await store.add('t', ['b'])).toEqual(['a', 'c', 'd', 'b']);
      expect(await store.remove('nobody', ['a'])).toEqual([]);
    });

    it('remove with keep removes the names in the order given, stopping once the thread holds keep or fewer (when supported)', async (context) => {
      const store = await setup();
      if (!store.remove) return context.skip();
      await store.add('t', ['a', 'b', 'c', 'd', 'e']);
      // d goes (4 left), zzz is not there, b goes (3 left): a is never reached.
      expect(await store.remove('t', ['d', 'zzz', 'b', 'a'], { keep: 3 })).toEqual(['a', 'c', 'e']);
      expect(await store.get('t')).toEqual(['a', 'c', 'e']);
      // Already at keep: nothing goes, the names are answered all the same.
      expect(await store.remove('t', ['a'], { keep: 3 })).toEqual(['a', 'c', 'e']);
      expect(await store.remove('t', ['e', 'a'], { keep: 5 })).toEqual(['a', 'c', 'e']);
      // The order given decides which names go, not the load order.
      expect(await store.remove('t', ['e', 'a'], { keep: 2 })).toEqual(['a', 'c']);
      // keep 0 removes every name listed; keep absent too.
      await store.add('u', ['a', 'b', 'c']);
      expect(await store.remove('u', ['c', 'a'], { keep: 0 })).toEqual(['b']);
      await store.add('v', ['a', 'b', 'c']);
      expect(await store.remove('v', ['c', 'a'], {})).toEqual(['b']);
      expect(await store.remove('v', ['b'], undefined)).toEqual([]);
      expect(await store.remove('nobody', ['a'], { keep: 1 })).toEqual([]);
    });

    it('never goes below keep when removes with keep run concurrently on one thread (when supported)', async (context) => {
      const store = await setup();
      if (!store.remove) return context.skip();
      const remove = store.remove.bind(store);
      const names = Array.from({ length: 8 }, (_, index) => `tool_${index}`);
      await store.add('t', names);
      // Each remove alone would take the thread to 3; together they must stop there too.
      await Promise.all([
        remove('t', names.slice(0, 5), { keep: 3 }),
        remove('t', names.slice(3).reverse(), { keep: 3 }),
        remove('t', [names[1]!, names[6]!, names[2]!, names[7]!, names[0]!], { keep: 3 }),
      ]);
      const left = await store.get('t');
      expect(left).toHaveLength(3);
      expect(names.filter((name) => left.includes(name))).toEqual(left);
    });

    it('clear forgets every thread (when supported)', async (context) => {
      const store = await setup();
      if (!store.clear) return context.skip();
      await store.add('one', ['a']);
      await store.add('two', ['b']);
      await store.clear();
      expect(await store.get('one')).toEqual([]);
      expect(await store.get('two')).toEqual([]);
      if (store.stats) expect((await store.stats()).threadCount).toBe(0);
    });

    it('stats count live threads and the oldest access (when supported)', async (context) => {
      const store = await setup();
      if (!store.stats) return context.skip();
      expect(await store.stats()).toEqual({ threadCount: 0, oldestAccessTime: null });
      await store.add('one', ['a']);
      await advance(10);
      await store.add('two', ['b']);
      const stats = await store.stats();
      expect(stats.threadCount).toBe(2);
      expect(typeof stats.oldestAccessTime).toBe('number');
      await store.delete('one');
      expect((await store.stats()).threadCount).toBe(1);
    });

    it('sweep removes expired threads and keeps live ones (when supported)', async (context) => {
      const store = await setup();
      if (!store.sweep) return context.skip();
      await store.add('old', ['a']);
      await advance(ttl + 1);
      await store.add('new', ['b']);
      const removed = await store.sweep();
      expect(typeof removed).toBe('number');
      expect(removed).toBeGreaterThanOrEqual(0);
      expect(await store.get('new')).toEqual(['b']);
      expect(await store.get('old')).toEqual([]);
      if (store.stats) expect((await store.stats()).threadCount).toBe(1);
    });

    it('can be disposed twice (when supported)', async (context) => {
      const store = await setup();
      if (!store.dispose) return context.skip();
      await store.add('t', ['a']);
      await store.dispose();
      await store.dispose();
    });
  });
}
