import { ToolSearchError } from '@tool-search/core';
import { conceptVectors } from '@tool-search/core/testing';
import { describe, expect, it } from 'vitest';
import { createMastraEmbedder, type MastraEmbeddingModel } from './mastra-embedder';

const vectorOf = conceptVectors({ weather: 0, rain: 0, email: 1 });

/** An embedding model that records its calls and how many ran at once. */
function fakeModel(settings: { perCall?: number; parallel?: boolean; broken?: boolean } = {}) {
  const calls: { values: string[]; providerOptions: unknown }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const model: MastraEmbeddingModel = {
    provider: 'fake',
    modelId: 'concepts',
    maxEmbeddingsPerCall: Promise.resolve(settings.perCall),
    supportsParallelCalls: settings.parallel ?? false,
    async doEmbed({ values, providerOptions }) {
      calls.push({ values, providerOptions });
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      return { embeddings: settings.broken ? values.slice(1).map(vectorOf) : values.map(vectorOf) };
    },
  };
  return { model, calls, mostAtOnce: () => mostAtOnce };
}

describe('createMastraEmbedder', () => {
  it('embeds through doEmbed in calls of at most maxEmbeddingsPerCall, in order, one at a time', async () => {
    const { model, calls, mostAtOnce } = fakeModel({ perCall: 2 });
    const embedder = createMastraEmbedder({ model, providerOptions: { fake: { kind: 'document' } } });
    // The provider options may change the vectors: the id names them.
    expect(embedder.id).toMatch(/^mastra:fake:concepts:providerOptions=[0-9a-f]{8}$/);
    const texts = ['weather', 'email', 'rain', 'other', 'email'];
    expect(await embedder.embed(texts)).toEqual(texts.map(vectorOf));
    expect(calls.map((call) => call.values)).toEqual([['weather', 'email'], ['rain', 'other'], ['email']]);
    expect(calls[0]!.providerOptions).toEqual({ fake: { kind: 'document' } });
    expect(mostAtOnce()).toBe(1);
    expect(embedder.embedQueries).toBeUndefined();
  });

  it('runs up to maxParallelCalls at once when the model allows it, and embeds requests with their own options', async () => {
    const { model, calls, mostAtOnce } = fakeModel({ perCall: 1, parallel: true });
    const embedder = createMastraEmbedder({
      model,
      maxParallelCalls: 3,
      queryProviderOptions: { fake: { kind: 'query' } },
    });
    const texts = Array.from({ length: 7 }, (_, index) => (index % 2 ? 'rain' : 'email'));
    expect(await embedder.embed(texts)).toEqual(texts.map(vectorOf));
    expect(mostAtOnce()).toBe(3);
    expect(await embedder.embedQueries!(['will it rain?'])).toEqual([vectorOf('rain')]);
    expect(calls.at(-1)!.providerOptions).toEqual({ fake: { kind: 'query' } });
  });

  it('starts no further call once one has failed: the other workers stop taking the rest of the catalog', async () => {
    const sent: string[][] = [];
    const model: MastraEmbeddingModel = {
      provider: 'fake',
      modelId: 'concepts',
      maxEmbeddingsPerCall: 2,
      supportsParallelCalls: true,
      async doEmbed({ values }) {
        sent.push(values);
        await new Promise((resolve) => setImmediate(resolve));
        if (values.includes('rate limited')) throw new Error('429: rate limited');
        return { embeddings: values.map(vectorOf) };
      },
    };
    const embedder = createMastraEmbedder({ model, maxParallelCalls: 3 });
    const texts = ['rate limited', ...Array.from({ length: 39 }, (_, index) => `tool ${index}`)];
    await expect(embedder.embed(texts)).rejects.toThrow('429');
    // Let any worker still running go on, as it would have, for many turns of the event loop.
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    // The three calls started together, and none after the failure (20 calls before).
    expect(sent).toHaveLength(3);
  });

  it('names providerOptions in the default id (they can change the vectors), whatever the order of their keys', () => {
    const { model } = fakeModel();
    const plain = createMastraEmbedder({ model }).id;
    const asDocuments = createMastraEmbedder({
      model,
      providerOptions: { cohere: { inputType: 'search_document', truncate: 'END' } },
    }).id;
    const shorter = createMastraEmbedder({ model, providerOptions: { openai: { dimensions: 256 } } }).id;
    expect(plain).toBe('mastra:fake:concepts');
    expect(asDocuments).toMatch(/^mastra:fake:concepts:providerOptions=[0-9a-f]{8}$/);
    expect(new Set([plain, asDocuments, shorter]).size).toBe(3);
    // The same settings in another order, and the requests' own options, keep the id.
    expect(
      createMastraEmbedder({
        model,
        providerOptions: { cohere: { truncate: 'END', inputType: 'search_document' } },
        queryProviderOptions: { cohere: { inputType: 'search_query' } },
      }).id,
    ).toBe(asDocuments);
    expect(createMastraEmbedder({ model, providerOptions: {} }).id).toBe(plain);
    expect(
      createMastraEmbedder({ model, id: 'mine', providerOptions: { openai: { dimensions: 256 } } }).id,
    ).toBe('mine');
  });

  it('rejects a wrong count of vectors, bad options and bad input with typed errors', async () => {
    const broken = createMastraEmbedder({ model: fakeModel({ broken: true }).model });
    await expect(broken.embed(['weather', 'rain'])).rejects.toThrow(ToolSearchError);
    // A model (or a gateway behind it) that answers without a result object.
    for (const answer of [undefined, null, 'oops']) {
      const empty = createMastraEmbedder({
        model: { provider: 'fake', modelId: 'empty', doEmbed: async () => answer as never },
      });
      await expect(empty.embed(['weather'])).rejects.toThrow(
        expect.objectContaining({ name: 'ToolSearchError', code: 'INVALID_OPTIONS' }),
      );
    }
    for (const options of [undefined, {}, { model: { provider: 'x', modelId: 'y' } }] as never[]) {
      expect(() => createMastraEmbedder(options)).toThrow(ToolSearchError);
    }
    const { model } = fakeModel();
    expect(() => createMastraEmbedder({ model, maxParallelCalls: 0 })).toThrow(ToolSearchError);
    expect(() => createMastraEmbedder({ model, dimensions: 2.5 })).toThrow(ToolSearchError);
    await expect(createMastraEmbedder({ model }).embed('weather' as never)).rejects.toThrow(ToolSearchError);
    expect(await createMastraEmbedder({ model }).embed([])).toEqual([]);
  });
});
