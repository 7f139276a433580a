import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../clock';
import { ToolSearchError } from '../errors';
import type { SearchResult, ToolDescriptor } from '../types';
import type { Embedder, EmbeddingVector } from './embedder';
import { createHybridRanker, defaultToolText } from './hybrid-ranker';
import { createStoredEmbedder } from './stored-embedder';
import { createMemoryVectorStore, type VectorStore } from './vector-store';

/** A vector per text that differs per text (its letters' codes folded onto four axes). */
function textVector(text: string, dimensions = 4): number[] {
  const vector = new Array<number>(dimensions).fill(0.01);
  for (let index = 0; index < text.length; index++)
    vector[index % dimensions]! += text.charCodeAt(index) / 1000;
  return vector;
}

/** An embedding API stand-in that records what it was sent. */
function recordingEmbedder(overrides: Partial<Embedder> & { length?: number } = {}) {
  const calls: string[][] = [];
  const queryCalls: string[][] = [];
  const embedder: Embedder = {
    id: 'api:model-1',
    async embed(texts) {
      calls.push([...texts]);
      return texts.map((text) => textVector(text, overrides.length));
    },
    async embedQueries(texts) {
      queryCalls.push([...texts]);
      return texts.map((text) => textVector(`query: ${text}`, overrides.length));
    },
    ...overrides,
  };
  return { embedder, calls, queryCalls };
}

/** A store that counts its calls and can be made to fail. */
function spyStore(inner: VectorStore = createMemoryVectorStore()) {
  const log: string[] = [];
  const store: VectorStore & { log: string[] } = {
    log,
    get(namespace, texts) {
      log.push(`get ${namespace} ${texts.length}`);
      return inner.get(namespace, texts);
    },
    set(namespace, entries) {
      log.push(`set ${namespace} ${entries.map((entry) => entry.text).join('|')}`);
      return inner.set(namespace, entries);
    },
  };
  return store;
}

const asArrays = (vectors: readonly EmbeddingVector[]) => vectors.map((vector) => Array.from(vector, Number));
const float32 = (values: number[]) => Array.from(Float32Array.from(values));

describe('createStoredEmbedder', () => {
  it('embeds a text once across processes: the second start reads it from the store', async () => {
    const store = createMemoryVectorStore();
    const first = recordingEmbedder();
    const vectors = await createStoredEmbedder({ embedder: first.embedder, store }).embed(['alpha', 'beta']);
    expect(first.calls).toEqual([['alpha', 'beta']]);
    expect(asArrays(vectors)).toEqual([textVector('alpha'), textVector('beta')]);

    // A new process: a new embedder over the same store. It declares its length: nothing is sent.
    const second = recordingEmbedder({ dimensions: 4 });
    const again = await createStoredEmbedder({ embedder: second.embedder, store }).embed(['beta', 'alpha']);
    expect(second.calls).toEqual([]);
    expect(asArrays(again)).toEqual([float32(textVector('beta')), float32(textVector('alpha'))]);

    // An embedder that does not declare its length is sent one text, to learn it.
    const third = recordingEmbedder();
    const learnt = await createStoredEmbedder({ embedder: third.embedder, store }).embed(['beta', 'alpha']);
    expect(third.calls).toEqual([['beta']]);
    expect(asArrays(learnt)).toEqual([textVector('beta'), float32(textVector('alpha'))]);
  });

  it('learns the length from one text when the store keeps every text: a model changed under the same id is caught', async () => {
    const store = createMemoryVectorStore();
    // An earlier process, with a model of 3 values per vector.
    await createStoredEmbedder({ embedder: recordingEmbedder({ length: 3 }).embedder, store }).embed([
      'a',
      'b',
      'c',
    ]);
    // Now the model under the same id gives 5, and declares no length.
    const errors: ToolSearchError[] = [];
    const { embedder, calls } = recordingEmbedder({ length: 5 });
    const stored = createStoredEmbedder({
      embedder,
      store,
      onError: (error) => errors.push(error as ToolSearchError),
    });
    const vectors = await stored.embed(['a', 'b', 'c']);
    expect(calls).toEqual([['a'], ['b', 'c']]);
    expect(asArrays(vectors)).toEqual(['a', 'b', 'c'].map((text) => textVector(text, 5)));
    expect(errors.map((error) => error.code)).toEqual(['INVALID_OPTIONS']);
    // Replaced in the store: the next process is sent nothing but its one text.
    const next = recordingEmbedder({ length: 5 });
    await createStoredEmbedder({ embedder: next.embedder, store }).embed(['a', 'b', 'c']);
    expect(next.calls).toEqual([['a']]);

    // Through the hybrid ranker: every tool text kept at the old length, and no length error.
    const catalog: ToolDescriptor[] = [
      { name: 'get_forecast', description: 'Weather for a city.' },
      { name: 'send_email', description: 'Sends mail.' },
    ];
    const shared = createMemoryVectorStore();
    const old = recordingEmbedder({ length: 3 });
    await createStoredEmbedder({ embedder: old.embedder, store: shared }).embed(catalog.map(defaultToolText));
    const rankerErrors: unknown[] = [];
    const ranker = createHybridRanker({
      embedder: createStoredEmbedder({ embedder: recordingEmbedder({ length: 5 }).embedder, store: shared }),
      onError: (error) => rankerErrors.push(error),
    })(catalog);
    for (const query of ['weather in Oslo', 'mail to Ann']) await ranker.search(query);
    expect(rankerErrors).toEqual([]);
  });

  it('sends only the texts the store does not keep, each once, and answers in order', async () => {
    const store = spyStore();
    await createStoredEmbedder({ embedder: recordingEmbedder().embedder, store }).embed(['kept']);
    const { embedder, calls } = recordingEmbedder();
    const stored = createStoredEmbedder({ embedder, store });
    const vectors = await stored.embed(['new', 'kept', 'new', 'other']);
    expect(calls).toEqual([['new', 'other']]);
    expect(asArrays(vectors)).toEqual([
      textVector('new'),
      float32(textVector('kept')),
      textVector('new'),
      textVector('other'),
    ]);
    expect(store.log).toEqual([
      'get api:model-1 1',
      'set api:model-1 kept',
      'get api:model-1 3',
      'set api:model-1 new|other',
    ]);
    expect(await stored.embed([])).toEqual([]);
  });

  it('keeps vectors under the embedder id: another model never reads them', async () => {
    const store = createMemoryVectorStore();
    await createStoredEmbedder({ embedder: recordingEmbedder().embedder, store }).embed(['text']);
    const other = recordingEmbedder({ id: 'api:model-2' });
    const stored = createStoredEmbedder({ embedder: other.embedder, store });
    expect(stored.id).toBe('api:model-2');
    await stored.embed(['text']);
    expect(other.calls).toEqual([['text']]);
  });

  it('does not store requests: embedQueries (or embed, without it) goes straight to the embedder', async () => {
    const store = spyStore();
    const { embedder, queryCalls } = recordingEmbedder();
    const stored = createStoredEmbedder({ embedder, store });
    expect(asArrays(await stored.embedQueries!(['a request']))).toEqual([textVector('query: a request')]);
    expect(queryCalls).toEqual([['a request']]);

    const { embedQueries: _, ...withoutQueries } = recordingEmbedder().embedder;
    const plain = createStoredEmbedder({ embedder: withoutQueries as Embedder, store });
    expect(asArrays(await plain.embedQueries!(['a request']))).toEqual([textVector('a request')]);
    expect(store.log).toEqual([]);
  });

  it('passes embedWords and dimensions through, and has neither when the embedder has not', () => {
    const words = (list: readonly string[]) => list.map(() => Float32Array.of(1, 0));
    const stored = createStoredEmbedder({
      embedder: { ...recordingEmbedder().embedder, embedWords: words, dimensions: 4 },
      store: createMemoryVectorStore(),
    });
    expect(stored.dimensions).toBe(4);
    expect(stored.embedWords!(['sunny'])).toEqual([Float32Array.of(1, 0)]);
    const bare = createStoredEmbedder({
      embedder: recordingEmbedder().embedder,
      store: createMemoryVectorStore(),
    });
    expect(bare.embedWords).toBeUndefined();
    expect('dimensions' in bare).toBe(false);
  });

  it('embeds everything when the store is down (throws, rejects), reports it, and still keeps nothing broken', async () => {
    for (const get of [
      () => {
        throw new Error('connection refused');
      },
      () => Promise.reject(new Error('connection reset')),
    ]) {
      const errors: unknown[] = [];
      const { embedder, calls } = recordingEmbedder();
      const store: VectorStore = { get, set: () => Promise.reject(new Error('read only')) };
      const vectors = await createStoredEmbedder({
        embedder,
        store,
        onError: (error) => errors.push(error),
      }).embed(['a', 'b']);
      expect(calls).toEqual([['a', 'b']]);
      expect(asArrays(vectors)).toEqual([textVector('a'), textVector('b')]);
      expect(errors.map((error) => (error as ToolSearchError).code)).toEqual([
        'STORE_UNAVAILABLE',
        'STORE_UNAVAILABLE',
      ]);
      expect((errors[0] as Error).message).toMatch(/get: connection re/);
      expect((errors[1] as Error).message).toMatch(/set: read only/);
    }
  });

  it('does not wait past timeoutMs for a store that hangs (get or set)', async () => {
    const clock = createFakeClock();
    const errors: unknown[] = [];
    const { embedder, calls } = recordingEmbedder();
    const hanging: VectorStore = { get: () => new Promise(() => {}), set: () => new Promise(() => {}) };
    const pending = createStoredEmbedder({
      embedder,
      store: hanging,
      clock,
      timeoutMs: 500,
      onError: (error) => errors.push(error),
    }).embed(['a']);
    await clock.advanceAsync(500);
    await clock.advanceAsync(500);
    expect(asArrays(await pending)).toEqual([textVector('a')]);
    expect(calls).toEqual([['a']]);
    expect(errors.map((error) => (error as ToolSearchError).code)).toEqual([
      'STORE_TIMEOUT',
      'STORE_TIMEOUT',
    ]);
  });

  it('bounds no store call when timeoutMs is above the largest timer delay (2^31 ms)', async () => {
    const clock = createFakeClock();
    const errors: unknown[] = [];
    const { embedder, calls } = recordingEmbedder({ dimensions: 4 });
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const inner = createMemoryVectorStore();
    inner.set(embedder.id, [{ text: 'a', vector: Float32Array.from(textVector('a')) }]);
    const slow: VectorStore = {
      get: async (namespace, texts) => {
        await answered;
        return inner.get(namespace, texts);
      },
      set: (namespace, entries) => inner.set(namespace, entries),
    };
    const pending = createStoredEmbedder({
      embedder,
      store: slow,
      clock,
      timeoutMs: 2 ** 31,
      onError: (error) => errors.push(error),
    }).embed(['a']);
    await clock.advanceAsync(0);
    expect(clock.pendingTimers()).toBe(0);
    await clock.advanceAsync(2 ** 32);
    answer();
    expect(asArrays(await pending)).toEqual([float32(textVector('a'))]);
    expect(calls).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('reads and writes a large catalog 500 texts per store call, each bounded; after one fails it asks no more', async () => {
    const texts = Array.from({ length: 1_200 }, (_, index) => `tool ${index}`);
    const inner = createMemoryVectorStore();
    const store = spyStore(inner);
    await createStoredEmbedder({ embedder: recordingEmbedder().embedder, store }).embed(texts);
    expect(
      store.log.map((line) =>
        line
          .split(' ')
          .slice(0, 3)
          .join(' ')
          .replace(/ tool.*/, ''),
      ),
    ).toEqual([
      'get api:model-1 500',
      'get api:model-1 500',
      'get api:model-1 200',
      'set api:model-1',
      'set api:model-1',
      'set api:model-1',
    ]);
    expect(inner.size).toBe(1_200);

    // The second call hangs: it costs one timeoutMs, the third is never made, and the texts of
    // both are embedded; the first call's vectors are used.
    const clock = createFakeClock();
    const errors: ToolSearchError[] = [];
    let gets = 0;
    const stalling: VectorStore = {
      get: (namespace, chunk) => (++gets === 2 ? new Promise(() => {}) : inner.get(namespace, chunk)),
      set: () => {},
    };
    const { embedder, calls } = recordingEmbedder();
    const pending = createStoredEmbedder({
      embedder,
      store: stalling,
      clock,
      timeoutMs: 500,
      onError: (error) => errors.push(error as ToolSearchError),
    }).embed(texts);
    await clock.advanceAsync(500);
    const vectors = await pending;
    expect(gets).toBe(2);
    expect(calls).toEqual([texts.slice(500)]);
    expect(asArrays(vectors.slice(0, 1))).toEqual([float32(textVector('tool 0'))]);
    expect(asArrays(vectors.slice(500, 501))).toEqual([textVector('tool 500')]);
    expect(errors.map((error) => error.code)).toEqual(['STORE_TIMEOUT']);
  });

  it('embeds again what the store gives unfit: wrong count, wrong length, not finite, not a vector', async () => {
    const errors: ToolSearchError[] = [];
    const { embedder, calls } = recordingEmbedder({ dimensions: 4 });
    const answers: unknown[][] = [
      [Float32Array.of(1, 2, 3, 4)], // one answer for two texts
      [
        [1, 2, 3],
        [1, Number.NaN, 3, 4],
      ],
      ['vector', {}],
    ];
    for (const answer of answers) {
      calls.length = 0;
      const store: VectorStore = {
        get: () => answer as EmbeddingVector[],
        set: () => {},
      };
      const vectors = await createStoredEmbedder({
        embedder,
        store,
        onError: (error) => errors.push(error as ToolSearchError),
      }).embed(['a', 'b']);
      expect(calls).toEqual([['a', 'b']]);
      expect(asArrays(vectors)).toEqual([textVector('a'), textVector('b')]);
    }
    expect(errors.map((error) => error.code)).toEqual([
      'STORE_UNAVAILABLE',
      'INVALID_OPTIONS',
      'INVALID_OPTIONS',
    ]);
  });

  it('trusts the embedder over the store on the length: stale vectors of an old model are replaced', async () => {
    const store = createMemoryVectorStore();
    // The same id, once giving 3 values (the model changed, the id did not).
    store.set('api:model-1', [{ text: 'old', vector: Float32Array.of(1, 2, 3) }]);
    const errors: ToolSearchError[] = [];
    const { embedder, calls } = recordingEmbedder();
    const stored = createStoredEmbedder({
      embedder,
      store,
      onError: (error) => errors.push(error as ToolSearchError),
    });
    const vectors = await stored.embed(['new', 'old']);
    expect(calls).toEqual([['new'], ['old']]);
    expect(asArrays(vectors)).toEqual([textVector('new'), textVector('old')]);
    expect(asArrays(store.get('api:model-1', ['old']) as Float32Array[])).toEqual([
      float32(textVector('old')),
    ]);
    expect(errors.map((error) => error.code)).toEqual(['INVALID_OPTIONS']);

    // Kept vectors that disagree with each other (the length not known yet) are all embedded.
    store.set('api:model-1', [
      { text: 'x', vector: Float32Array.of(1, 2, 3) },
      { text: 'y', vector: Float32Array.of(1, 2, 3, 4) },
    ]);
    const fresh = recordingEmbedder();
    await createStoredEmbedder({ embedder: fresh.embedder, store }).embed(['x', 'y']);
    expect(fresh.calls).toEqual([['x', 'y']]);
  });

  it('lets a failing embedder fail the call and stores nothing; a vector not finite is returned, not stored', async () => {
    const store = spyStore();
    const failing = createStoredEmbedder({
      embedder: { id: 'api', embed: () => Promise.reject(new Error('rate limited')) },
      store,
    });
    await expect(failing.embed(['a'])).rejects.toThrow('rate limited');
    const short = createStoredEmbedder({ embedder: { id: 'api', embed: async () => [] }, store });
    await expect(short.embed(['a'])).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    const broken = createStoredEmbedder({
      embedder: { id: 'api', embed: async () => [[Number.NaN, 1]] },
      store,
    });
    expect(await broken.embed(['a'])).toEqual([[Number.NaN, 1]]);
    expect(store.log.filter((line) => line.startsWith('set'))).toEqual([]);
  });

  it('learns the length only from a batch that agrees on it: one glitched first vector does not stop the store for good', async () => {
    const store = spyStore();
    let glitch = true;
    const calls: string[][] = [];
    const embedder: Embedder = {
      id: 'api:model-1',
      async embed(texts) {
        calls.push([...texts]);
        const vectors = texts.map((text) => textVector(text));
        // The first answer's first vector is cut short (a provider's glitch).
        if (glitch) vectors[0] = [1, 2];
        glitch = false;
        return vectors;
      },
    };
    const stored = createStoredEmbedder({ embedder, store });
    const texts = ['alpha', 'beta', 'gamma'];
    expect((await stored.embed(texts))[0]).toEqual([1, 2]);
    // Nothing of a batch that does not agree on one length is kept.
    expect(store.log.filter((line) => line.startsWith('set'))).toEqual([]);
    const asFloat32 = (vectors: readonly EmbeddingVector[]) => asArrays(vectors).map(float32);
    expect(asFloat32(await stored.embed(texts))).toEqual(texts.map((text) => float32(textVector(text))));
    expect(asFloat32(await stored.embed(texts))).toEqual(texts.map((text) => float32(textVector(text))));
    // The second call learnt the true length and kept every vector: the third sent nothing.
    expect(calls).toEqual([texts, texts]);
    expect(store.log.filter((line) => line.startsWith('set'))).toEqual(['set api:model-1 alpha|beta|gamma']);
  });

  it('does not hand the store a value that is finite as a double but not as float32 (1e39): the rest of the batch is kept', async () => {
    const errors: unknown[] = [];
    const store = spyStore();
    const stored = createStoredEmbedder({
      embedder: {
        id: 'api',
        dimensions: 2,
        embed: async (texts) => texts.map((text) => (text === 'huge' ? [1e39, 1] : [text.length, 1])),
      },
      store,
      onError: (error) => errors.push(error),
    });
    await stored.embed(['a', 'huge', 'ccc']);
    expect(errors).toEqual([]);
    expect(store.log.filter((line) => line.startsWith('set'))).toEqual(['set api a|ccc']);
  });

  it('survives an onError that throws', async () => {
    const store: VectorStore = { get: () => Promise.reject(new Error('down')), set: () => {} };
    const stored = createStoredEmbedder({
      embedder: recordingEmbedder().embedder,
      store,
      onError: () => {
        throw new Error('listener bug');
      },
    });
    expect(asArrays(await stored.embed(['a']))).toEqual([textVector('a')]);
  });

  it('keeps odd texts apart: __proto__, unicode, empty, 100 kB', async () => {
    const store = createMemoryVectorStore();
    const texts = ['__proto__', 'constructor', '', 'ünïcödé 🧰', 'x'.repeat(100_000)];
    await createStoredEmbedder({ embedder: recordingEmbedder().embedder, store }).embed(texts);
    const { embedder, calls } = recordingEmbedder({ dimensions: 4 });
    const vectors = await createStoredEmbedder({ embedder, store }).embed(texts);
    expect(calls).toEqual([]);
    expect(asArrays(vectors)).toEqual(texts.map((text) => float32(textVector(text))));
  });

  it('rejects bad options and bad input with typed errors', async () => {
    const store = createMemoryVectorStore();
    const { embedder } = recordingEmbedder();
    const bad: unknown[] = [
      undefined,
      {},
      { embedder: {}, store },
      { embedder: { ...embedder, id: '' }, store },
      { embedder: { ...embedder, id: undefined }, store },
      { embedder, store: {} },
      { embedder, store, timeoutMs: 0 },
      { embedder: { ...embedder, dimensions: Number.NaN }, store },
      { embedder: { ...embedder, dimensions: 0 }, store },
      { embedder: { ...embedder, dimensions: 1.5 }, store },
      { embedder: { ...embedder, dimensions: '4' }, store },
      { embedder, store, clock: {} },
      { embedder, store, onError: console },
      { embedder, store, onError: 'warn' },
    ];
    for (const options of bad) {
      expect(() => createStoredEmbedder(options as never)).toThrow(ToolSearchError);
    }
    await expect(createStoredEmbedder({ embedder, store }).embed('text' as never)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

describe('createStoredEmbedder with the hybrid ranker', () => {
  const tools: ToolDescriptor[] = [
    { name: 'get_forecast', description: 'The weather forecast for a city.' },
    { name: 'convert_currency', description: 'Converts an amount between currencies.' },
    { name: 'send_email', description: 'Sends an email to a recipient.' },
  ];
  const names = (results: readonly SearchResult[]) => results.map((result) => result.name);

  it('builds a catalog at a second start without one embedding call for its tools, and ranks the same', async () => {
    const store = createMemoryVectorStore();
    const first = recordingEmbedder();
    const firstRanker = createHybridRanker({
      embedder: createStoredEmbedder({ embedder: first.embedder, store }),
    })(tools);
    const before = await firstRanker.search('weather forecast', { topK: 3 });
    expect(first.calls).toHaveLength(1);
    expect(first.calls[0]).toHaveLength(3);

    const second = recordingEmbedder({ dimensions: 4 });
    const secondRanker = createHybridRanker({
      embedder: createStoredEmbedder({ embedder: second.embedder, store }),
    })(tools);
    const after = await secondRanker.search('weather forecast', { topK: 3 });
    expect(second.calls).toEqual([]);
    expect(second.queryCalls).toEqual(first.queryCalls);
    expect(names(after)).toEqual(names(before));
    expect(names(after)[0]).toBe('get_forecast');
  });

  it('answers from the words while the store and the API are both down, and recovers', async () => {
    const errors: unknown[] = [];
    const service = { down: true };
    const embedder: Embedder = {
      id: 'api',
      embed: async (texts) => {
        if (service.down) throw new Error('api down');
        return texts.map((text) => textVector(text));
      },
    };
    const store: VectorStore = { get: () => Promise.reject(new Error('store down')), set: () => {} };
    const ranker = createHybridRanker({
      embedder: createStoredEmbedder({ embedder, store, onError: (error) => errors.push(error) }),
      onError: (error) => errors.push(error),
    })(tools);
    expect(names(await ranker.search('send an email', { topK: 1 }))).toEqual(['send_email']);
    service.down = false;
    expect(names(await ranker.search('send an email', { topK: 1 }))).toEqual(['send_email']);
    expect(errors.some((error) => (error as ToolSearchError).code === 'STORE_UNAVAILABLE')).toBe(true);
  });
});
