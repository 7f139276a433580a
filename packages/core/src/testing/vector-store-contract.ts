import { afterEach, describe, expect, it } from 'vitest';
import type { EmbeddingVector } from '../ranking/embedder';
import type { VectorStore } from '../ranking/vector-store';
import type { MaybePromise } from '../types';
import { oddIds } from './store-contract';

export interface VectorStoreContractOptions {
  /** Shown in the test names. */
  readonly name: string;
  /** Returns a new, EMPTY store each time (tests run one after another and must not see each other). */
  readonly createStore: () => MaybePromise<VectorStore>;
  /** Run after each test (default: nothing). */
  readonly cleanup?: (store: VectorStore) => MaybePromise<void>;
}

/** A vector of `dimensions` values that differ per `seed`, with values float32 holds exactly and not. */
function sampleVector(seed: number, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (let index = 0; index < dimensions; index++) {
    vector[index] = Math.sin(seed * 7.31 + index * 0.77) * (index % 3 === 0 ? 1e-3 : 1.5);
  }
  vector[0] = -0;
  return vector;
}

const asArray = (vector: EmbeddingVector | undefined): number[] | undefined =>
  vector === undefined || vector === null ? undefined : Array.from(vector, Number);

/**
 * The contract every {@link VectorStore} passes: the in-memory store, the Redis store, yours.
 * Call it at the top level of a test file:
 *
 * ```ts
 * describeVectorStoreContract({ name: 'memory', createStore: () => createMemoryVectorStore() });
 * ```
 */
export function describeVectorStoreContract(options: VectorStoreContractOptions): void {
  describe(`vector store contract: ${options.name}`, () => {
    let created: VectorStore[] = [];
    const setup = async () => {
      const store = await options.createStore();
      created.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of created) await options.cleanup?.(store);
      created = [];
    });

    it('gives undefined for every text it does not keep, in order, and [] for no texts', async () => {
      const store = await setup();
      expect(await store.get('model-a', ['one', 'two'])).toEqual([undefined, undefined]);
      expect(await store.get('model-a', [])).toEqual([]);
    });

    it('gives back exactly the float32 values it was given, in the order asked, repeats included', async () => {
      const store = await setup();
      const first = sampleVector(1, 8);
      const second = sampleVector(2, 8);
      await store.set('model-a', [
        { text: 'get the weather', vector: first },
        { text: 'send an email', vector: second },
      ]);
      const found = await store.get('model-a', [
        'send an email',
        'unknown',
        'get the weather',
        'send an email',
      ]);
      expect(found.map(asArray)).toEqual([
        Array.from(second),
        undefined,
        Array.from(first),
        Array.from(second),
      ]);
      // -0 survives as a value equal to 0 (what a cosine needs), whatever the encoding.
      expect(Object.is(asArray(found[2])![0], 0) || Object.is(asArray(found[2])![0], -0)).toBe(true);
    });

    it('keeps vectors of API size (1,536 and 3,072 dimensions) exactly', async () => {
      const store = await setup();
      const small = sampleVector(3, 1_536);
      const large = sampleVector(4, 3_072);
      await store.set('model-a', [
        { text: 'small', vector: small },
        { text: 'large', vector: large },
      ]);
      const [gotSmall, gotLarge] = await store.get('model-a', ['small', 'large']);
      expect(asArray(gotSmall)).toEqual(Array.from(small));
      expect(asArray(gotLarge)).toEqual(Array.from(large));
    });

    it('keeps namespaces apart: the same text under two embedders is two vectors', async () => {
      const store = await setup();
      await store.set('model-a', [{ text: 'same text', vector: sampleVector(5, 4) }]);
      await store.set('model-b', [{ text: 'same text', vector: sampleVector(6, 4) }]);
      expect(asArray((await store.get('model-a', ['same text']))[0])).toEqual(Array.from(sampleVector(5, 4)));
      expect(asArray((await store.get('model-b', ['same text']))[0])).toEqual(Array.from(sampleVector(6, 4)));
      expect(await store.get('model-c', ['same text'])).toEqual([undefined]);
      // A namespace that is a prefix of another, with the text making up the difference.
      await store.set('ab', [{ text: 'c', vector: sampleVector(7, 4) }]);
      expect(await store.get('a', ['bc'])).toEqual([undefined]);
    });

    it('replaces the vector of a text set again', async () => {
      const store = await setup();
      await store.set('model-a', [{ text: 'text', vector: sampleVector(8, 4) }]);
      await store.set('model-a', [{ text: 'text', vector: sampleVector(9, 4) }]);
      expect(asArray((await store.get('model-a', ['text']))[0])).toEqual(Array.from(sampleVector(9, 4)));
    });

    it('is not changed by the caller changing a vector after set or after get', async () => {
      const store = await setup();
      const vector = sampleVector(10, 4);
      await store.set('model-a', [{ text: 'text', vector }]);
      vector[1] = 99;
      const [found] = await store.get('model-a', ['text']);
      if (found instanceof Float32Array) found[2] = 99;
      expect(asArray((await store.get('model-a', ['text']))[0])).toEqual(Array.from(sampleVector(10, 4)));
    });

    it('keeps odd texts and namespaces apart: object keys, key patterns, unicode, empty, 100 kB', async () => {
      const store = await setup();
      const texts = [...oddIds, '', 'x'.repeat(100_000), 'x'.repeat(100_001), 'ünïcödé 🧰', 'Ünïcödé 🧰'];
      await store.set(
        '__proto__',
        texts.map((text, index) => ({ text, vector: sampleVector(20 + index, 4) })),
      );
      const found = await store.get('__proto__', texts);
      expect(found.map(asArray)).toEqual(texts.map((_, index) => Array.from(sampleVector(20 + index, 4))));
      expect(await store.get('constructor', texts.slice(0, 3))).toEqual([undefined, undefined, undefined]);
    });

    it('keeps a large batch (2,000 texts, as a catalog build sends) in one set', async () => {
      const store = await setup();
      const texts = Array.from({ length: 2_000 }, (_, index) => `tool ${index}: does thing ${index}`);
      await store.set(
        'model-a',
        texts.map((text, index) => ({ text, vector: sampleVector(index, 16) })),
      );
      const found = await store.get('model-a', texts);
      expect(found).toHaveLength(2_000);
      expect(asArray(found[1_999])).toEqual(Array.from(sampleVector(1_999, 16)));
      expect(found.every((vector) => vector !== undefined)).toBe(true);
    });
  });
}
