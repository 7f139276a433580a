import {
  createHybridRanker,
  createMemoryVectorStore,
  createStoredEmbedder,
  type ToolDescriptor,
  ToolSearchError,
} from '@tool-search/core';
import { conceptVectors, createFakeClock } from '@tool-search/core/testing';
import { generateText, isStepCount } from 'ai';
import { MockEmbeddingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createCatalog } from './__fixtures__/catalog';
import { scriptedModel, toolResultsIn } from './__fixtures__/scripted-model';
import { createAiSdkEmbedder } from './ai-sdk-embedder';
import { createToolSearch } from './create-tool-search';

/** Concept axes: texts about the same thing point the same way. */
const vectorOf = conceptVectors({
  weather: 0,
  rain: 0,
  forecast: 0,
  money: 1,
  currency: 1,
  euros: 1,
  email: 2,
  mail: 2,
});

function mockModel(options: { maxEmbeddingsPerCall?: number; fail?: () => boolean } = {}) {
  return new MockEmbeddingModelV4({
    provider: 'mock-provider',
    modelId: 'mock-embedding',
    maxEmbeddingsPerCall: options.maxEmbeddingsPerCall ?? 100,
    doEmbed: async ({ values }) => {
      if (options.fail?.()) throw new Error('provider unavailable');
      return { embeddings: values.map((value) => vectorOf(String(value))), warnings: [] };
    },
  });
}

const tools: ToolDescriptor[] = [
  { name: 'get_forecast', description: 'Weather forecast for a city.' },
  { name: 'convert_currency', description: 'Money conversion between currencies.' },
  { name: 'send_email', description: 'Sends an email.' },
];

describe('createAiSdkEmbedder', () => {
  it('embeds texts through embedMany, in order, as float32 vectors', async () => {
    const model = mockModel();
    const embedder = createAiSdkEmbedder({ model });
    expect(embedder.id).toBe('ai-sdk:mock-provider:mock-embedding');
    const vectors = await embedder.embed(['rain', 'euros', 'rain']);
    expect(vectors).toEqual(['rain', 'euros', 'rain'].map((text) => Float32Array.from(vectorOf(text))));
    expect(vectors[0]).toBeInstanceOf(Float32Array);
    // One call, each distinct text once.
    expect(model.doEmbedCalls.map((call) => call.values)).toEqual([['rain', 'euros']]);
  });

  it('batches a catalog into as many calls as the model allows, and never embeds a text twice', async () => {
    const model = mockModel({ maxEmbeddingsPerCall: 2 });
    const embedder = createAiSdkEmbedder({ model });
    const texts = ['a weather', 'b rain', 'c money', 'd mail', 'e euros'];
    await Promise.all([embedder.embed(texts), embedder.embed(['b rain', 'c money'])]);
    expect(model.doEmbedCalls.map((call) => call.values)).toEqual([
      ['a weather', 'b rain'],
      ['c money', 'd mail'],
      ['e euros'],
    ]);
    await embedder.embed(texts);
    expect(model.doEmbedCalls).toHaveLength(3);
  });

  it('forgets the least recently used texts beyond cacheSize', async () => {
    const model = mockModel();
    const embedder = createAiSdkEmbedder({ model, cacheSize: 2 });
    await embedder.embed(['one', 'two']);
    await embedder.embed(['one']);
    await embedder.embed(['three']);
    await embedder.embed(['one', 'two']);
    expect(model.doEmbedCalls.map((call) => call.values)).toEqual([['one', 'two'], ['three'], ['two']]);
  });

  it('passes dimensions to the model and names them in the id', async () => {
    const model = mockModel();
    const embedder = createAiSdkEmbedder({ model, dimensions: 4, id: undefined });
    expect(embedder.id).toBe('ai-sdk:mock-provider:mock-embedding:4');
    expect(embedder.dimensions).toBe(4);
    await embedder.embed(['rain']);
    expect(model.doEmbedCalls[0]!.values).toEqual(['rain']);
    expect(createAiSdkEmbedder({ model, id: 'custom' }).id).toBe('custom');
  });

  it('embeds requests with queryProviderOptions and tools with providerOptions (an asymmetric model)', async () => {
    // Like Cohere's input types: a request embedded as a document lands on the wrong tools.
    const model = new MockEmbeddingModelV4({
      provider: 'mock-provider',
      modelId: 'mock-asymmetric',
      maxEmbeddingsPerCall: 100,
      doEmbed: async ({ values, providerOptions }) => {
        const asQuery = providerOptions?.mock?.inputType === 'search_query';
        return {
          embeddings: values.map((value) =>
            vectorOf(!asQuery && String(value).includes('rain') ? 'money' : String(value)),
          ),
          warnings: [],
        };
      },
    });
    const embedder = createAiSdkEmbedder({
      model,
      providerOptions: { mock: { inputType: 'search_document' } },
      queryProviderOptions: { mock: { inputType: 'search_query' } },
    });
    const ranker = createHybridRanker({ embedder, weight: 0.6 })(tools);
    expect((await ranker.search('will it rain tomorrow?', { topK: 1 }))[0]?.name).toBe('get_forecast');
    expect(model.doEmbedCalls.map((call) => call.providerOptions?.mock?.inputType)).toEqual([
      'search_document',
      'search_query',
    ]);
    expect(model.doEmbedCalls[0]!.values).toHaveLength(tools.length);

    const symmetric = createAiSdkEmbedder({
      model,
      providerOptions: { mock: { inputType: 'search_document' } },
    });
    expect(symmetric.embedQueries).toBeUndefined();
    const misled = createHybridRanker({ embedder: symmetric, weight: 0.6 })(tools);
    expect((await misled.search('will it rain tomorrow?', { topK: 1 }))[0]?.name).toBe('convert_currency');
  });

  it('rejects when the model fails, caches nothing, and succeeds on the next call', async () => {
    let failing = true;
    const model = mockModel({ fail: () => failing });
    const embedder = createAiSdkEmbedder({ model, maxRetries: 0 });
    await expect(embedder.embed(['rain'])).rejects.toThrow('provider unavailable');
    failing = false;
    expect((await embedder.embed(['rain']))[0]).toEqual(Float32Array.from(vectorOf('rain')));
  });

  it('returns a vector it cannot use but does not keep it: the next call asks the model again', async () => {
    // One bad answer per text (empty, a value not finite, shorter than the rest of the batch),
    // then the provider recovers.
    const broken = new Map<string, number[]>([
      ['rain', []],
      ['euros', [Number.NaN, 0, 0, 0.01]],
      ['mail', [0, 1]],
      ['forecast', [Number.POSITIVE_INFINITY, 0, 0, 0.01]],
    ]);
    const model = new MockEmbeddingModelV4({
      provider: 'mock-provider',
      modelId: 'mock-embedding',
      maxEmbeddingsPerCall: 100,
      doEmbed: async ({ values }) => {
        const embeddings = values.map((value) => broken.get(String(value)) ?? vectorOf(String(value)));
        broken.clear();
        return { embeddings, warnings: [] };
      },
    });
    const embedder = createAiSdkEmbedder({ model });
    const texts = ['rain', 'euros', 'mail', 'forecast', 'weather', 'money'];
    const first = await embedder.embed(texts);
    expect(first.map((vector) => vector.length)).toEqual([0, 4, 2, 4, 4, 4]);
    expect(Number.isNaN(first[1]![0])).toBe(true);
    // The broken ones are asked for again (and now kept); the good ones came from the cache.
    expect(await embedder.embed(texts)).toEqual(texts.map((text) => Float32Array.from(vectorOf(text))));
    expect(model.doEmbedCalls.map((call) => call.values)).toEqual([
      texts,
      ['rain', 'euros', 'mail', 'forecast'],
    ]);
    await embedder.embed(texts);
    expect(model.doEmbedCalls).toHaveLength(2);
  });

  it('does not keep vectors of another length than the declared dimensions', async () => {
    let ignoresDimensions = true; // a provider that answers one call at full length
    const model = new MockEmbeddingModelV4({
      provider: 'mock-provider',
      modelId: 'mock-embedding',
      maxEmbeddingsPerCall: 100,
      doEmbed: async ({ values }) => {
        const embeddings = values.map((value) => {
          const vector = vectorOf(String(value));
          return ignoresDimensions ? [...vector, 0] : vector;
        });
        ignoresDimensions = false;
        return { embeddings, warnings: [] };
      },
    });
    const embedder = createAiSdkEmbedder({ model, dimensions: 4 });
    expect((await embedder.embed(['rain', 'euros'])).map((vector) => vector.length)).toEqual([5, 5]);
    expect((await embedder.embed(['rain', 'euros'])).map((vector) => vector.length)).toEqual([4, 4]);
    await embedder.embed(['rain', 'euros']);
    expect(model.doEmbedCalls).toHaveLength(2);
  });

  it('does not keep a later batch of another length than the first (a single request cut short): the ranker fuses again', async () => {
    let glitch = false;
    const model = new MockEmbeddingModelV4({
      provider: 'mock-provider',
      modelId: 'mock-embedding',
      maxEmbeddingsPerCall: 100,
      doEmbed: async ({ values }) => {
        const embeddings = values.map((value) => vectorOf(String(value)));
        // One answer cut short: a batch of one text has no other vector to disagree with.
        if (glitch) embeddings[0] = embeddings[0]!.slice(0, 2);
        glitch = false;
        return { embeddings, warnings: [] };
      },
    });
    const errors: unknown[] = [];
    const index = createHybridRanker({
      embedder: createAiSdkEmbedder({ model }),
      onError: (error) => errors.push(error),
    })(tools);
    expect((await index.search('forecast'))[0]?.name).toBe('get_forecast');
    glitch = true;
    expect(await index.search('rain')).toEqual([]);
    expect((await index.search('rain'))[0]?.name).toBe('get_forecast');
    expect(errors).toHaveLength(1);
    expect(model.doEmbedCalls.map((call) => call.values).slice(1)).toEqual([
      ['forecast'],
      ['rain'],
      ['rain'],
    ]);
  });

  it('lets the ranker fuse again after one broken vector: it is reported once, not kept for good', async () => {
    let glitch = true; // the provider answers one call with an empty vector, then recovers
    const model = new MockEmbeddingModelV4({
      provider: 'mock-provider',
      modelId: 'mock-embedding',
      maxEmbeddingsPerCall: 100,
      doEmbed: async ({ values }) => {
        const embeddings = values.map((value, index) =>
          glitch && index === 0 ? [] : vectorOf(String(value)),
        );
        glitch = false;
        return { embeddings, warnings: [] };
      },
    });
    const errors: unknown[] = [];
    const ranker = createHybridRanker({
      embedder: createAiSdkEmbedder({ model }),
      weight: 0.5,
      timeoutMs: Number.POSITIVE_INFINITY,
      onError: (error) => errors.push(error),
    })(tools);
    // "drizzle" is in no tool: only the embedding (on the rain axis) finds the forecast.
    const search = async () =>
      (await ranker.search('will rain drizzle?', { topK: 1 })).map((result) => result.name);
    await search();
    expect(errors).toHaveLength(1);
    expect(await search()).toEqual(['get_forecast']);
    expect(await search()).toEqual(['get_forecast']);
    expect(errors).toHaveLength(1);
  });

  it('names providerOptions in the default id (they can change the vectors), whatever the order of their keys', () => {
    const model = mockModel();
    const plain = createAiSdkEmbedder({ model }).id;
    const asDocuments = createAiSdkEmbedder({
      model,
      providerOptions: { cohere: { inputType: 'search_document', truncate: 'END' } },
    }).id;
    const shorter = createAiSdkEmbedder({ model, providerOptions: { openai: { dimensions: 256 } } }).id;
    expect(plain).toBe('ai-sdk:mock-provider:mock-embedding');
    expect(asDocuments).toMatch(/^ai-sdk:mock-provider:mock-embedding:providerOptions=[0-9a-f]{8}$/);
    expect(new Set([plain, asDocuments, shorter]).size).toBe(3);
    // The same settings in another order, and the requests' own options, keep the id.
    expect(
      createAiSdkEmbedder({
        model,
        providerOptions: { cohere: { truncate: 'END', inputType: 'search_document' } },
        queryProviderOptions: { cohere: { inputType: 'search_query' } },
      }).id,
    ).toBe(asDocuments);
    expect(createAiSdkEmbedder({ model, providerOptions: {} }).id).toBe(plain);
    expect(
      createAiSdkEmbedder({ model, dimensions: 4, providerOptions: { openai: { user: 'a' } } }).id,
    ).toMatch(/^ai-sdk:mock-provider:mock-embedding:4:providerOptions=[0-9a-f]{8}$/);
  });

  it('rejects bad options with a typed error', () => {
    expect(() => createAiSdkEmbedder({} as never)).toThrow(ToolSearchError);
    expect(() => createAiSdkEmbedder({ model: mockModel(), cacheSize: -1 })).toThrow(ToolSearchError);
    expect(() => createAiSdkEmbedder({ model: mockModel(), cacheSize: 2.5 })).toThrow(ToolSearchError);
  });

  it('puts a real embedding model behind the hybrid ranker: the catalog is embedded once, each query once', async () => {
    const model = mockModel();
    const factory = createHybridRanker({ embedder: createAiSdkEmbedder({ model }), weight: 0.6 });
    const ranker = factory(tools);
    const results = await ranker.search('will it rain tomorrow?', { topK: 1 });
    expect(results[0]?.name).toBe('get_forecast');
    await ranker.search('will it rain tomorrow?', { topK: 1 });
    factory(tools.map((tool) => ({ ...tool })));
    await factory(tools).search('how many euros?', { topK: 1 });
    // The catalog once, then one call per distinct query.
    expect(model.doEmbedCalls).toHaveLength(3);
  });

  it('keeps the catalog’s vectors across restarts in a vector store: a new process sends only new tools’ texts', async () => {
    // Stands for Redis (createRedisVectorStore): the only thing that outlives a process.
    const store = createMemoryVectorStore();
    /** A process: its own model client, embedder and ranker factory. */
    const start = () => {
      const model = mockModel();
      const embedder = createStoredEmbedder({ embedder: createAiSdkEmbedder({ model }), store });
      return { model, factory: createHybridRanker({ embedder, weight: 0.6 }) };
    };
    const first = start();
    const before = await first.factory(tools).search('will it rain tomorrow?', { topK: 3 });
    expect(first.model.doEmbedCalls.map((call) => call.values.length)).toEqual([tools.length, 1]);

    const second = start();
    const grown = [...tools, { name: 'get_tides', description: 'Tide times for a harbour.' }];
    const after = await second.factory(grown).search('will it rain tomorrow?', { topK: 3 });
    // The new tool's text, then the request (requests are not stored); the rest came from the store.
    expect(second.model.doEmbedCalls.map((call) => call.values)).toEqual([
      [expect.stringContaining('get_tides')],
      ['will it rain tomorrow?'],
    ]);
    expect(after[0]!.name).toBe(before[0]!.name);
    expect(after[0]!.score).toBeCloseTo(before[0]!.score, 6);
  });

  it('pairs with word vectors for the words no tool contains: the model embeds texts, embedWords words', async () => {
    const model = mockModel();
    // Word vectors: the weather words along one axis, zero for any other word (unknown).
    const embedWords = (words: readonly string[]) =>
      words.map((word) => (/^(weather|rain|forecast|drizzle)$/.test(word) ? [1, 0, 0] : [0, 0, 0]));
    const paired = { ...createAiSdkEmbedder({ model }), embedWords };
    const withWords = createHybridRanker({ embedder: paired, weight: 0.01 })(tools);
    const without = createHybridRanker({ embedder: paired, weight: 0.01, expandUnknownWords: false })(tools);
    // "drizzle" is in no tool: the keyword ranking now reads it as "weather" and "forecast".
    const found = await withWords.search('drizzle tomorrow?', { topK: 1 });
    expect(found[0]).toMatchObject({ name: 'get_forecast' });
    expect(found[0]!.score).toBeGreaterThan(0.2);
    const similarityOnly = await without.search('drizzle tomorrow?', { topK: 1 });
    expect(similarityOnly.every((result) => result.score <= 0.01)).toBe(true);
    // Texts still go to the model only; words never do.
    for (const call of model.doEmbedCalls) expect(call.values).not.toContain('drizzle');
  });

  it('lets the ranker fall back to lexical results while the model is down', async () => {
    const errors: unknown[] = [];
    const model = mockModel({ fail: () => true });
    const ranker = createHybridRanker({
      embedder: createAiSdkEmbedder({ model, maxRetries: 0 }),
      onError: (error) => errors.push(error),
    })(tools);
    const results = await ranker.search('send email', { topK: 1 });
    expect(results[0]?.name).toBe('send_email');
    expect(errors.length).toBeGreaterThan(0);
  });

  it('sends a stalled text again when the ranker re-sends it after a minute, instead of sharing the call that never settles', async () => {
    const clock = createFakeClock();
    let stalled = false;
    // The first call (the catalog's texts) never settles: a dead connection.
    const model = new MockEmbeddingModelV4({
      provider: 'mock-provider',
      modelId: 'mock-embedding',
      maxEmbeddingsPerCall: 100,
      doEmbed: async ({ values }) => {
        if (!stalled) {
          stalled = true;
          return new Promise<never>(() => {});
        }
        return { embeddings: values.map((value) => vectorOf(String(value))), warnings: [] };
      },
    });
    const errors: unknown[] = [];
    const index = createHybridRanker({
      embedder: createStoredEmbedder({
        embedder: createAiSdkEmbedder({ model, clock }),
        store: createMemoryVectorStore(),
        clock,
      }),
      timeoutMs: 100,
      clock,
      onError: (error) => errors.push(error),
    })(tools);
    const first = index.search('rain');
    await clock.advanceAsync(100);
    expect(await first).toEqual([]);
    await clock.advanceAsync(60_000);
    const second = index.search('rain');
    await clock.advanceAsync(100);
    // The ranker gave up on the stalled call and sent its texts again: they reach the model.
    expect((await second)[0]?.name).toBe('get_forecast');
    expect(model.doEmbedCalls).toHaveLength(3);
    expect(model.doEmbedCalls[1]!.values).toEqual(model.doEmbedCalls[0]!.values);
    expect(errors).toHaveLength(1);
  });

  it('keeps a generateText step going when the embedding model stalls: search_tools answers lexically after timeoutMs', async () => {
    const clock = createFakeClock();
    const errors: unknown[] = [];
    // The catalog is embedded; the request's embedding never comes back (a stalled provider).
    const model = new MockEmbeddingModelV4({
      provider: 'mock-provider',
      modelId: 'mock-embedding',
      maxEmbeddingsPerCall: 100,
      doEmbed: ({ values }) =>
        values.length > 1
          ? Promise.resolve({ embeddings: values.map((value) => vectorOf(String(value))), warnings: [] })
          : new Promise(() => {}),
    });
    const toolSearch = createToolSearch({
      tools: createCatalog().tools,
      ranker: createHybridRanker({
        embedder: createAiSdkEmbedder({ model }),
        timeoutMs: 1_000,
        clock,
        onError: (error) => errors.push(error),
      }),
    });
    const { model: chat, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'currency' } }] },
      { text: 'ok' },
    ]);
    let done = false;
    const pending = generateText({
      model: chat,
      ...toolSearch.forCall({ threadId: 't' }),
      stopWhen: isStepCount(5),
      prompt: 'Convert 20 euros to dollars',
    }).finally(() => {
      done = true;
    });
    for (let waited = 0; !done && waited < 5_000; waited += 100) await clock.advanceAsync(100);
    const result = await pending;
    expect(result.text).toBe('ok');
    const searched = toolResultsIn(seen[1]!.prompt).at(-1)!.value as { results: Array<{ name: string }> };
    expect(searched.results[0]?.name).toBe('convert_currency');
    expect(errors).toHaveLength(1);
    expect(ToolSearchError.isInstance(errors[0]) && errors[0].code).toBe('EMBEDDER_TIMEOUT');
  });
});
