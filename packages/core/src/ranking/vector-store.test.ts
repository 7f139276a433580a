import { describe, expect, it } from 'vitest';
import { ToolSearchError } from '../errors';
import { describeVectorStoreContract } from '../testing/vector-store-contract';
import { createMemoryVectorStore } from './vector-store';

describeVectorStoreContract({ name: 'memory', createStore: () => createMemoryVectorStore() });

describe('createMemoryVectorStore', () => {
  it('forgets the least recently used vectors beyond its capacity, over every namespace', () => {
    const store = createMemoryVectorStore({ capacity: 2 });
    store.set('a', [{ text: 'one', vector: Float32Array.of(1) }]);
    store.set('b', [{ text: 'one', vector: Float32Array.of(2) }]);
    // Reading 'a' makes it the most recent: 'b' goes when a third comes.
    expect(store.get('a', ['one'])).toEqual([Float32Array.of(1)]);
    store.set('a', [{ text: 'two', vector: Float32Array.of(3) }]);
    expect(store.size).toBe(2);
    expect(store.get('b', ['one'])).toEqual([undefined]);
    expect(store.get('a', ['one', 'two'])).toEqual([Float32Array.of(1), Float32Array.of(3)]);
  });

  it('keeps nothing at capacity 0', () => {
    const store = createMemoryVectorStore({ capacity: 0 });
    store.set('a', [{ text: 'one', vector: Float32Array.of(1) }]);
    expect(store.get('a', ['one'])).toEqual([undefined]);
  });

  it('rejects a capacity that is not a whole number ≥ 0, and calls that are not (string, array)', () => {
    for (const capacity of [-1, Number.NaN, 2.5, '10' as unknown as number]) {
      expect(() => createMemoryVectorStore({ capacity })).toThrow(ToolSearchError);
    }
    expect(createMemoryVectorStore({ capacity: Number.POSITIVE_INFINITY }).get('a', ['one'])).toEqual([
      undefined,
    ]);
    expect(() => createMemoryVectorStore('big' as never)).toThrow(/takes an options object, got string/);
    expect(createMemoryVectorStore(null).get('a', ['one'])).toEqual([undefined]);
    const store = createMemoryVectorStore();
    expect(() => store.get(1 as unknown as string, [])).toThrow(/namespace must be a string/);
    expect(() => store.get('a', 'text' as unknown as string[])).toThrow(/texts must be an array/);
    expect(() => store.set('a', {} as unknown as [])).toThrow(/entries must be an array/);
  });

  it('rejects an entry without a vector of finite numbers (INVALID_INPUT), keeping none of the call', () => {
    const store = createMemoryVectorStore();
    for (const bad of [
      null,
      { text: 'b' },
      { text: 'b', vector: 'abc' },
      { text: 'b', vector: [] },
      { text: 'b', vector: [1, Number.NaN] },
      { text: 'b', vector: ['1'] },
      // Finite as doubles, Infinity as float32: the vector the store would keep is not finite.
      { text: 'b', vector: [1e39, 0] },
      { text: 'b', vector: Float64Array.of(0, -1e300) },
      { text: 'b', vector: BigInt64Array.of(1n) },
    ]) {
      expect(() => store.set('a', [{ text: 'a', vector: Float32Array.of(1) }, bad as never])).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
    }
    expect(store.size).toBe(0);
    store.set('a', [{ text: 'a', vector: [0.5, 2] as never }]);
    expect(store.get('a', ['a'])).toEqual([Float32Array.of(0.5, 2)]);
  });
});
