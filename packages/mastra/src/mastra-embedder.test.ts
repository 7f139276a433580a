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
    expect(embedder.id).toBe('mastra:fake:concepts');
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

  it('rejects a wrong count of vectors, bad options and bad input with typed errors', async () => {
    const broken = createMastraEmbedder({ model: fakeModel({ broken: true }).model });
    await expect(broken.embed(['weather', 'rain'])).rejects.toThrow(ToolSearchError);
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
