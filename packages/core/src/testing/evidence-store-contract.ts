import { afterEach, describe, expect, it } from 'vitest';
import type { EvidenceStore, StoredToolUse } from '../learning/evidence';
import type { MaybePromise } from '../types';
import { oddIds } from './store-contract';

export interface EvidenceStoreContractOptions {
  /** Shown in the test names. */
  readonly name: string;
  /** Returns a new, EMPTY store each time (tests run one after another and must not see each other). */
  readonly createStore: () => MaybePromise<EvidenceStore>;
  /**
   * The store's bound on uses per catalog, when it has one the suite may fill (default: none
   * tested). With it, the suite checks that the oldest uses added go first.
   */
  readonly maxUses?: number;
  /** Run after each test (default: `store.dispose?.()`). */
  readonly cleanup?: (store: EvidenceStore) => MaybePromise<void>;
}

/** A stored use with an id made from `seed`. */
function sampleUse(seed: number | string, overrides: Partial<StoredToolUse> = {}): StoredToolUse {
  return {
    id: `use-${seed}`,
    query: `weather in city ${seed}`,
    toolName: 'getWeather',
    time: 1_700_000_000_000 + (typeof seed === 'number' ? seed : 0),
    ...overrides,
  };
}

/**
 * The contract every {@link EvidenceStore} passes: the in-memory store, the Redis store, yours.
 * Call it at the top level of a test file:
 *
 * ```ts
 * describeEvidenceStoreContract({ name: 'memory', createStore: () => createMemoryEvidenceStore() });
 * ```
 */
export function describeEvidenceStoreContract(options: EvidenceStoreContractOptions): void {
  describe(`evidence store contract: ${options.name}`, () => {
    let created: EvidenceStore[] = [];
    const setup = async () => {
      const store = await options.createStore();
      created.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of created) await (options.cleanup ? options.cleanup(store) : store.dispose?.());
      created = [];
    });

    it('lists [] for a catalog it does not know', async () => {
      const store = await setup();
      expect(await store.list('nobody')).toEqual([]);
    });

    it('gives back every field of every use, in the order added', async () => {
      const store = await setup();
      const first = sampleUse(1, { thread: 'digest-of-a-thread' });
      const second = sampleUse(2);
      const third = sampleUse(3, { toolName: 'getTime', query: 'time in Rome' });
      await store.add('catalog', [first, second]);
      await store.add('catalog', [third]);
      expect(await store.list('catalog')).toEqual([first, second, third]);
    });

    it('keeps one use per id, the first one added', async () => {
      const store = await setup();
      const use = sampleUse(1);
      await store.add('catalog', [use, use]);
      await store.add('catalog', [{ ...use, query: 'another query' }]);
      expect(await store.list('catalog')).toEqual([use]);
    });

    it('accepts an empty add', async () => {
      const store = await setup();
      await store.add('catalog', []);
      expect(await store.list('catalog')).toEqual([]);
    });

    it('keeps catalogs apart', async () => {
      const store = await setup();
      await store.add('one', [sampleUse(1)]);
      await store.add('two', [sampleUse(2)]);
      expect(await store.list('one')).toEqual([sampleUse(1)]);
      expect(await store.list('two')).toEqual([sampleUse(2)]);
    });

    it('loses no use when adds run concurrently', async () => {
      const store = await setup();
      const uses = Array.from({ length: Math.min(25, options.maxUses ?? 25) }, (_, index) =>
        sampleUse(index),
      );
      await Promise.all(uses.map((use) => store.add('catalog', [use])));
      const listed = await store.list('catalog');
      expect(listed.map((use) => use.id).sort()).toEqual(uses.map((use) => use.id).sort());
    });

    it('hands out copies: changing a listed array changes nothing stored', async () => {
      const store = await setup();
      await store.add('catalog', [sampleUse(1)]);
      const listed = await store.list('catalog');
      try {
        (listed as StoredToolUse[]).push(sampleUse(2));
      } catch {
        // A frozen array is fine too.
      }
      expect(await store.list('catalog')).toEqual([sampleUse(1)]);
    });

    it('treats odd catalog ids, tool names, ids and queries as plain strings', async () => {
      const store = await setup();
      for (const [position, odd] of oddIds.entries()) {
        const use = sampleUse(position, {
          id: `${odd.slice(0, 200)}#${position}`,
          toolName: odd.slice(0, 256),
          query: `${odd} ☂️ 天气 \u0000 "quoted" \\ back`,
        });
        await store.add(odd, [use]);
        expect(await store.list(odd)).toEqual([use]);
      }
      expect(await store.list('__proto__')).toHaveLength(1);
      expect(await store.list('constructor')).toHaveLength(1);
    });

    it('keeps a query of 1,000 characters whole', async () => {
      const store = await setup();
      const use = sampleUse(1, { query: `${'ä'.repeat(998)}😀` });
      await store.add('catalog', [use]);
      expect(await store.list('catalog')).toEqual([use]);
    });

    if (options.maxUses !== undefined) {
      const maxUses = options.maxUses;
      it(`keeps at most ${maxUses} uses per catalog, dropping the oldest added`, async () => {
        const store = await setup();
        const uses = Array.from({ length: maxUses + 3 }, (_, index) => sampleUse(index));
        for (const use of uses) await store.add('catalog', [use]);
        expect(await store.list('catalog')).toEqual(uses.slice(3));
      });
    }

    it('forgets a catalog on clear, and no other', async () => {
      const store = await setup();
      if (!store.clear) return;
      await store.add('one', [sampleUse(1)]);
      await store.add('two', [sampleUse(2)]);
      await store.clear('one');
      await store.clear('never-seen');
      expect(await store.list('one')).toEqual([]);
      expect(await store.list('two')).toEqual([sampleUse(2)]);
      await store.add('one', [sampleUse(1)]);
      expect(await store.list('one')).toEqual([sampleUse(1)]);
    });

    it('can be disposed twice', async () => {
      const store = await setup();
      await store.dispose?.();
      await store.dispose?.();
    });
  });
}
