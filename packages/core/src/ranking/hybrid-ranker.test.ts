import { describe, expect, it, vi } from 'vitest';
import { createFakeClock } from '../clock';
import { ToolSearchError } from '../errors';
import type { MaybePromise, SearchResult, ToolDescriptor } from '../types';
import { errorCode } from './__fixtures__/error-code';
import { seededRandom } from './__fixtures__/seeded-random';
import type { Embedder, EmbeddingVector } from './embedder';
import { createHybridRanker, defaultToolText } from './hybrid-ranker';
import { createKeywordRanker } from './keyword-ranker';
import { createStoredEmbedder } from './stored-embedder';
import { tokenize } from './tokenizer';
import { createMemoryVectorStore } from './vector-store';

/**
 * A tiny concept embedder: each word maps to a concept axis, so texts that share no word but
 * share a concept ("umbrella" and "forecast" are both weather) are similar.
 */
const CONCEPTS: Record<string, number> = {
  weather: 0,
  forecast: 0,
  umbrella: 0,
  rain: 0,
  money: 1,
  currency: 1,
  euros: 1,
  dollars: 1,
  convert: 1,
  flight: 2,
  flights: 2,
  plane: 2,
  airport: 2,
  email: 3,
  mail: 3,
  inbox: 3,
  message: 3,
};
const AXES = 5;

/** The results of a search that must have answered synchronously. */
function now(results: MaybePromise<readonly SearchResult[]>): readonly SearchResult[] {
  if (results instanceof Promise) throw new Error('expected a synchronous answer');
  return results;
}

function conceptVector(text: string): Float32Array {
  const vector = new Float32Array(AXES);
  for (const word of tokenize(text)) {
    const axis = CONCEPTS[word];
    vector[axis ?? AXES - 1]! += axis === undefined ? 0.05 : 1;
  }
  return vector;
}

function conceptEmbedder(overrides: Partial<Embedder> = {}): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    id: 'concepts',
    dimensions: AXES,
    embed(texts) {
      calls.push([...texts]);
      return texts.map(conceptVector);
    },
    calls,
    ...overrides,
  };
}

const tools: ToolDescriptor[] = [
  { name: 'get_forecast', description: 'The week ahead for a city.' },
  { name: 'convert_currency', description: 'Converts an amount between currencies.' },
  { name: 'search_flights', description: 'Finds flights between two airports.' },
  { name: 'send_email', description: 'Sends an email to a recipient.' },
  { name: 'create_invoice', description: 'Creates an invoice for a customer.' },
];

/** The concept embedder behind a service that throws until `service.down` is set to false. */
function downUntilFixed(id: string): { embedder: Embedder; service: { down: boolean } } {
  const service = { down: true };
  const inner = conceptEmbedder();
  const embedder: Embedder = {
    id,
    embed: async (texts) => {
      if (service.down) throw new Error('embedding service down');
      return inner.embed(texts);
    },
  };
  return { embedder, service };
}

describe('createHybridRanker', () => {
  it('finds a tool that shares no word with the request, through its embedding', () => {
    const lexical = createKeywordRanker(tools).search('will I need an umbrella tomorrow in the rain?', {
      topK: 5,
    });
    expect(lexical.map((result) => result.name)).not.toContain('get_forecast');
    const ranker = createHybridRanker({ embedder: conceptEmbedder(), weight: 0.5 })(tools);
    const results = ranker.search('will I need an umbrella tomorrow in the rain?', { topK: 3 });
    expect(results).not.toBeInstanceOf(Promise);
    expect(now(results)[0]!.name).toBe('get_forecast');
  });

  it('keeps scores in 0..1 and best first, and honours topK and minScore', () => {
    const ranker = createHybridRanker({ embedder: conceptEmbedder(), weight: 0.5 })(tools);
    const results = now(ranker.search('send mail about flights', { topK: 10 }));
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) {
      expect(result.score).toBeGreaterThan(0);
      expect(result.score).toBeLessThanOrEqual(1);
    }
    expect([...results].sort((a, b) => b.score - a.score)).toEqual(results);
    expect(ranker.search('send mail about flights', { topK: 1 })).toHaveLength(1);
    const high = now(ranker.search('send mail about flights', { topK: 10, minScore: 0.5 }));
    expect(high.every((result) => result.score >= 0.5)).toBe(true);
    expect(ranker.search('send mail', { topK: 0 })).toEqual([]);
  });

  it('ranks a tool named exactly in the request first with score 1', () => {
    const ranker = createHybridRanker({ embedder: conceptEmbedder(), weight: 0.9 })(tools);
    const results = now(ranker.search('use create_invoice for the flight to Rome', { topK: 3 }));
    expect(results[0]).toMatchObject({ name: 'create_invoice', score: 1 });
  });

  it('covers every part of a multi-part request', () => {
    const ranker = createHybridRanker({ embedder: conceptEmbedder(), weight: 0.6 })(tools);
    const results = now(
      ranker.search('book a plane to the airport in Rome. Also change 200 euros into dollars', {
        topK: 2,
      }),
    );
    expect(results.map((result) => result.name).sort()).toEqual(['convert_currency', 'search_flights']);
  });

  it('in a request of several parts, does not let similarity lift a second tool for one part above the tool for another', () => {
    // Lexically: A, then C (the other part), then B (a twin of A). B's similarity to the
    // request is higher than C's, enough to pass C on the plain fused score; for a request in
    // two parts it is lowered by B's likeness to A, already picked.
    const vectors: Record<string, number[]> = { A: [1, 0], B: [1, 0], C: [0, 1] };
    const embedder: Embedder = {
      id: 'two-axes',
      embed: (texts) =>
        texts.map(
          (text) =>
            vectors[text] ?? (text.includes('fly') ? [1, 0] : text.includes('euros') ? [0.6, 0.8] : [0, 0]),
        ),
    };
    const catalog: ToolDescriptor[] = [{ name: 'A' }, { name: 'B' }, { name: 'C' }];
    const scripted: SearchResult[] = [
      { name: 'A', description: '', score: 0.9 },
      { name: 'C', description: '', score: 0.46 },
      { name: 'B', description: '', score: 0.45 },
    ];
    const ranker = createHybridRanker({
      embedder,
      weight: 0.5,
      similarityFloor: 0,
      toolText: (tool) => tool.name,
      lexical: () => ({ search: () => scripted }),
    })(catalog);
    const names = (query: string) => now(ranker.search(query, { topK: 3 })).map((result) => result.name);
    expect(names('fly to Rome. Pay in euros')).toEqual(['A', 'C', 'B']);
    // One part: the twin keeps its place on similarity.
    expect(names('fly to Rome paying in euros')).toEqual(['A', 'B', 'C']);
    const scores = now(ranker.search('fly to Rome. Pay in euros', { topK: 3 })).map((result) => result.score);
    expect([...scores].sort((left, right) => right - left)).toEqual(scores);
  });

  it('fuses the similarity of a request of one part at 1.5 times the weight (at most 1), of several parts at the weight', () => {
    // Every text has the same vector: each tool's similarity is 1. A has a lexical score of 0.5,
    // B is found by similarity alone.
    const embedder: Embedder = { id: 'one-axis', embed: (texts) => texts.map(() => [1, 0]) };
    const catalog: ToolDescriptor[] = [{ name: 'A' }, { name: 'B' }];
    const scripted: SearchResult[] = [{ name: 'A', description: '', score: 0.5 }];
    const scores = (weight: number, query: string) =>
      now(
        createHybridRanker({
          embedder,
          weight,
          similarityFloor: 0,
          feedback: 0,
          toolText: (tool) => tool.name,
          lexical: () => ({ search: () => scripted }),
        })(catalog).search(query, { topK: 2 }),
      ).map((result) => [result.name, result.score]);
    // One part: the similarity's share is 0.3, not 0.2.
    const one = scores(0.2, 'find the weather for Rome');
    expect(one.map(([name]) => name)).toEqual(['A', 'B']);
    expect(one[0]![1]).toBeCloseTo(0.7 * 0.5 + 0.3, 5);
    expect(one[1]![1]).toBeCloseTo(0.3, 5);
    // Several parts: the weight as given.
    const several = scores(0.2, 'find the weather for Rome. Convert the euros to dollars');
    expect(several[0]).toEqual(['A', expect.closeTo(0.8 * 0.5 + 0.2, 5)]);
    // At most 1: at 0.8, a request of one part is ranked by similarity alone.
    expect(scores(0.8, 'find the weather for Rome').map(([, score]) => score)).toEqual([
      expect.closeTo(1, 5),
      expect.closeTo(1, 5),
    ]);
  });

  it('with weight 0 ranks as the lexical ranker does', () => {
    const ranker = createHybridRanker({ embedder: conceptEmbedder(), weight: 0 })(tools);
    const lexical = createKeywordRanker(tools);
    for (const query of ['send an email', 'flights between airports', 'convert currency and send email']) {
      expect(ranker.search(query, { topK: 5 })).toEqual(lexical.search(query, { topK: 5 }));
    }
  });

  it('embeds a catalog once, when built, and reuses vectors by text across catalogs', () => {
    const embedder = conceptEmbedder();
    const factory = createHybridRanker({ embedder });
    const ranker = factory(tools);
    expect(embedder.calls).toEqual([tools.map(defaultToolText)]);
    ranker.search('umbrella', { topK: 2 });
    ranker.search('umbrella', { topK: 2 });
    // One call for the catalog, one for the query (the repeated query is cached).
    expect(embedder.calls).toHaveLength(2);
    const copies = tools.map((tool) => ({ ...tool }));
    factory([...copies, { name: 'read_inbox', description: 'Reads new messages.' }]);
    expect(embedder.calls).toHaveLength(3);
    expect(embedder.calls[2]).toEqual([
      defaultToolText({ name: 'read_inbox', description: 'Reads new messages.' }),
    ]);
  });

  it('embeds requests with embedQueries when the embedder has it, and tools with embed', () => {
    const documents: string[][] = [];
    const queries: string[][] = [];
    // An asymmetric model: a request read as a document lands on the wrong tools.
    const embedder: Embedder = {
      id: 'asymmetric',
      dimensions: AXES,
      embed(texts) {
        documents.push([...texts]);
        return texts.map((text) => conceptVector(text.includes('umbrella') ? 'money' : text));
      },
      embedQueries(texts) {
        queries.push([...texts]);
        return texts.map(conceptVector);
      },
    };
    const ranker = createHybridRanker({ embedder, weight: 0.5 })(tools);
    expect(now(ranker.search('umbrella', { topK: 1 }))[0]!.name).toBe('get_forecast');
    expect(documents).toEqual([tools.map(defaultToolText)]);
    expect(queries).toEqual([['umbrella']]);
  });

  it("embeds a tool's parameter enum values (its own and its array items'), bounded per parameter and per tool", () => {
    const text = defaultToolText({
      name: 'make_payment',
      description: 'Sends money.',
      parameters: {
        type: 'object',
        properties: {
          method: { type: 'string', enum: ['app balance', 'debit card', 'credit card', 7] },
          tags: { type: 'array', items: { type: 'string', enum: ['private', 'public'] } },
          amount: { type: 'number' },
        },
      },
    });
    expect(text).toBe(
      'make_payment. Sends money.. method tags amount. app balance debit card credit card private public',
    );
    const many = (prefix: string) => Array.from({ length: 12 }, (_, index) => `${prefix}${index}`);
    const bounded = defaultToolText({
      name: 'pick',
      parameters: {
        type: 'object',
        properties: { a: { enum: many('a') }, b: { enum: many('b') }, c: { enum: many('c') } },
      },
    });
    // At most 8 values per parameter, 16 per tool.
    expect(bounded).toBe(`pick. a b c. ${[...many('a').slice(0, 8), ...many('b').slice(0, 8)].join(' ')}`);
  });

  it('embeds a request without its quoted values (the lexical ranking reads them), keeping apostrophes and a request that is all quotes', () => {
    const queries: string[][] = [];
    const embedder = conceptEmbedder({
      embedQueries(texts) {
        queries.push([...texts]);
        return texts.map(conceptVector);
      },
    });
    const ranker = createHybridRanker({ embedder })(tools);
    ranker.search(`convert 'Canadian dollars' to "euros", I don't think it's hard (id='x-1')`, { topK: 3 });
    expect(queries.at(-1)).toEqual([`convert   to  , I don't think it's hard (id= )`]);
    ranker.search(`"weather forecast"`, { topK: 3 });
    expect(queries.at(-1)).toEqual([`"weather forecast"`]);
  });

  it("in a request of several parts, moves each part's view towards its own leading tool, the whole request's towards the two leading tools", () => {
    const weight = 0.9;
    const floor = 0.2;
    const feedback = 1;
    const scripted: SearchResult[] = [
      { name: 'get_forecast', description: '', score: 0.6 },
      { name: 'convert_currency', description: '', score: 0.5 },
      { name: 'search_flights', description: '', score: 0.3 },
    ];
    const ranker = createHybridRanker({
      embedder: conceptEmbedder(),
      weight,
      similarityFloor: floor,
      feedback,
      lexical: () => ({ search: () => scripted }),
    })(tools);
    const query = 'weather forecast for Rome and convert dollars to euros';
    const unit = (vector: Float32Array): Float32Array => {
      const length = Math.hypot(...vector);
      return length > 0 ? vector.map((value) => value / length) : vector;
    };
    const vectorOf = (name: string) =>
      unit(conceptVector(defaultToolText(tools.find((tool) => tool.name === name)!)));
    const cosine = (left: Float32Array, right: Float32Array) =>
      left.reduce((sum, value, axis) => sum + value * right[axis]!, 0);
    const towards = (view: Float32Array, targets: Float32Array[]) =>
      unit(
        view.map(
          (value, axis) =>
            value + (feedback * targets.reduce((sum, target) => sum + target[axis]!, 0)) / targets.length,
        ),
      );
    const forecast = vectorOf('get_forecast');
    const currency = vectorOf('convert_currency');
    const [whole, weatherPart, moneyPart] = [
      query,
      'weather forecast for Rome',
      'convert dollars to euros',
    ].map((text) => unit(conceptVector(text))) as [Float32Array, Float32Array, Float32Array];
    const fused = (views: Float32Array[]) =>
      (1 - weight) * 0.6 +
      weight * Math.max(0, (Math.max(...views.map((view) => cosine(view, forecast))) - floor) / (1 - floor));
    // Each part towards its own tool: the weather part keeps its likeness to the forecast tool.
    const expected = fused([
      towards(whole, [forecast, currency]),
      towards(weatherPart, [forecast]),
      towards(moneyPart, [currency]),
    ]);
    // Every view towards the two tools' mean, as before: the weather part drifts to money.
    const meanOnly = fused(
      [whole, weatherPart, moneyPart].map((view) => towards(view, [forecast, currency])),
    );
    expect(expected - meanOnly).toBeGreaterThan(0.02);
    const [top] = now(ranker.search(query, { topK: 1 }));
    expect(top!.name).toBe('get_forecast');
    expect(top!.score).toBeCloseTo(expected, 2);
  });

  it('answers with a promise when the embedder is asynchronous, and waits for the catalog vectors', async () => {
    const embedder = conceptEmbedder();
    const asynchronous: Embedder = {
      id: 'async-concepts',
      embed: async (texts) => embedder.embed(texts),
    };
    const ranker = createHybridRanker({ embedder: asynchronous, weight: 0.5 })(tools);
    const pending = ranker.search('umbrella and rain', { topK: 1 });
    expect(pending).toBeInstanceOf(Promise);
    expect((await pending)[0]!.name).toBe('get_forecast');
  });

  it('sends the catalog to an asynchronous embedder before it builds the lexical index, so the two overlap', async () => {
    const events: string[] = [];
    const inner = conceptEmbedder();
    const embedder: Embedder = {
      id: 'async-concepts',
      embed: (texts) => {
        events.push(`embed ${texts.length}`);
        return Promise.resolve().then(() => {
          events.push('vectors in');
          return inner.embed(texts);
        });
      },
    };
    const lexical = (catalog: readonly ToolDescriptor[]) => {
      events.push('lexical index built');
      return createKeywordRanker(catalog);
    };
    const ranker = createHybridRanker({ embedder, lexical, weight: 0.5 })(tools);
    expect(events).toEqual([`embed ${tools.length}`, 'lexical index built']);
    expect((await ranker.search('umbrella and rain', { topK: 1 }))[0]!.name).toBe('get_forecast');
    expect(events).toEqual([
      `embed ${tools.length}`,
      'lexical index built',
      'vectors in',
      'embed 1',
      'vectors in',
    ]);
  });

  it('embeds a text once while it is on its way: catalogs built at once, and the same request searched at once', async () => {
    const inner = conceptEmbedder();
    const calls: string[][] = [];
    const release: (() => void)[] = [];
    const embedder: Embedder = {
      id: 'slow',
      embed: (texts) => {
        calls.push([...texts]);
        return new Promise((resolve) => release.push(() => resolve(inner.embed(texts))));
      },
    };
    const factory = createHybridRanker({ embedder, weight: 0.5 });
    const first = factory(tools);
    const second = factory(tools.map((tool) => ({ ...tool })));
    const third = factory([...tools, { name: 'read_inbox', description: 'Reads new messages.' }]);
    const searches = [first, second, third, first].map((ranker) => ranker.search('umbrella', { topK: 1 }));
    // One call for the catalog's texts, one for the new tool's, one for the request.
    for (let round = 0; round < 3 && release.length > 0; round++) {
      for (const done of release.splice(0)) done();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(calls).toEqual([
      tools.map(defaultToolText),
      [defaultToolText({ name: 'read_inbox', description: 'Reads new messages.' })],
      ['umbrella'],
    ]);
    for (const results of await Promise.all(searches)) expect(results[0]!.name).toBe('get_forecast');
  });

  it('keeps a catalog’s cached vectors while it waits for its new ones, though other catalogs fill the cache meanwhile', async () => {
    // Slots of the cache are reused as it evicts: a catalog that noted where its cached rows
    // were, then read them after its embedding, got the rows of the catalog built beside it.
    const inner = conceptEmbedder();
    const held: { texts: readonly string[]; release: () => void }[] = [];
    const embedder: Embedder = {
      id: 'held',
      embed: (texts) =>
        new Promise((resolve) => held.push({ texts, release: () => resolve(inner.embed(texts)) })),
      embedQueries: (texts) => inner.embed(texts),
    };
    const factory = createHybridRanker({ embedder, weight: 0.5, cacheSize: 4 });
    const first = tools.slice(0, 4);
    const warm = factory(first);
    held.shift()!.release();
    expect((await warm.search('umbrella', { topK: 1 }))[0]!.name).toBe('get_forecast');
    // The same four tools and a new one (its embedding held), and beside it four new tools of
    // other concepts, in another order (theirs released first): their puts evict the first four.
    const grown = factory(tools);
    const other: ToolDescriptor[] = [
      { name: 'pay_bill', description: 'Pays a bill in dollars.' },
      { name: 'book_seat', description: 'Books a plane seat.' },
      { name: 'post_letter', description: 'Posts it by mail.' },
      { name: 'rain_alert', description: 'Warns of rain.' },
    ];
    const beside = factory(other);
    expect(held.map((call) => call.texts.length)).toEqual([1, 4]);
    held.pop()!.release();
    expect((await beside.search('umbrella', { topK: 1 }))[0]!.name).toBe('rain_alert');
    held.pop()!.release();
    const reference = createHybridRanker({ embedder: conceptEmbedder(), weight: 0.5 })(tools);
    for (const query of ['umbrella', 'dollars', 'airport', 'inbox']) {
      expect(await grown.search(query, { topK: 5 })).toEqual(now(reference.search(query, { topK: 5 })));
    }
    expect((await grown.search('umbrella', { topK: 1 }))[0]!.name).toBe('get_forecast');
    // The first four were evicted indeed: built again, they are sent again.
    factory(first);
    expect(held.map((call) => call.texts)).toEqual([first.map(defaultToolText)]);
  });

  it('when a shared embedding fails, every search that waited for it answers lexically, and the next ones retry', async () => {
    const { embedder, service } = downUntilFixed('failing-once');
    const onError = vi.fn();
    const factory = createHybridRanker({ embedder, weight: 0.5, onError });
    const rankers = [factory(tools), factory(tools)];
    const lexical = createKeywordRanker(tools).search('send an email', { topK: 2 });
    for (const results of await Promise.all(
      rankers.map((ranker) => ranker.search('send an email', { topK: 2 })),
    )) {
      expect(results).toEqual(lexical);
    }
    expect(onError).toHaveBeenCalled();
    service.down = false;
    for (const ranker of rankers)
      expect((await ranker.search('umbrella', { topK: 1 }))[0]!.name).toBe('get_forecast');
  });

  it('a toolText that returns no string is reported (INVALID_OPTIONS, naming the tool) and the search answers lexically', () => {
    for (const toolText of [() => undefined, () => 42, () => null]) {
      const onError = vi.fn();
      const ranker = createHybridRanker({
        embedder: conceptEmbedder(),
        toolText: toolText as never,
        onError,
      })(tools);
      expect(now(ranker.search('send an email', { topK: 2 }))).toEqual(
        createKeywordRanker(tools).search('send an email', { topK: 2 }),
      );
      expect(onError).toHaveBeenCalledWith(
        expect.objectContaining({
          code: 'INVALID_OPTIONS',
          message: expect.stringMatching(/toolText must return a string.*"get_forecast"/),
        }),
      );
    }
  });

  it('falls back to the lexical ranking when the embedder fails, reports it, and retries later', async () => {
    const { embedder, service } = downUntilFixed('flaky');
    const errors: unknown[] = [];
    const ranker = createHybridRanker({ embedder, weight: 0.5, onError: (error) => errors.push(error) })(
      tools,
    );
    const degraded = await ranker.search('send an email', { topK: 3 });
    expect(degraded).toEqual(createKeywordRanker(tools).search('send an email', { topK: 3 }));
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('embedding service down');
    expect(await ranker.search('umbrella', { topK: 3 })).toEqual([]);
    service.down = false;
    expect((await ranker.search('umbrella', { topK: 1 }))[0]!.name).toBe('get_forecast');
  });

  it('answers lexically when the embedder is slower than timeoutMs, and uses its vectors once they come', async () => {
    const clock = createFakeClock();
    const inner = conceptEmbedder();
    // The catalog is embedded at once; each request waits until released (a stalled API).
    const stalled: { texts: readonly string[]; release: () => void }[] = [];
    const embedder: Embedder = {
      id: 'stalled-queries',
      embed: (texts) =>
        texts.includes(defaultToolText(tools[0]!))
          ? inner.embed(texts)
          : new Promise((resolve) => stalled.push({ texts, release: () => resolve(inner.embed(texts)) })),
    };
    const errors: unknown[] = [];
    const ranker = createHybridRanker({
      embedder,
      weight: 0.5,
      timeoutMs: 500,
      clock,
      onError: (error) => errors.push(error),
    })(tools);
    const lexicalOnly = createKeywordRanker(tools).search('send an email about the umbrella', { topK: 3 });

    let answer: readonly SearchResult[] | undefined;
    void Promise.resolve(ranker.search('send an email about the umbrella', { topK: 3 })).then((results) => {
      answer = results;
    });
    await clock.advanceAsync(499);
    expect(answer).toBeUndefined();
    await clock.advanceAsync(1);
    expect(answer).toEqual(lexicalOnly);
    expect(errors).toHaveLength(1);
    expect(ToolSearchError.isInstance(errors[0]) && errors[0].code).toBe('EMBEDDER_TIMEOUT');
    expect(clock.pendingTimers()).toBe(0);

    // The late answer is kept: the same request is then ranked with it, without a new call.
    stalled[0]!.release();
    await clock.advanceAsync(0);
    const calls = stalled.length;
    const fused = await ranker.search('send an email about the umbrella', { topK: 3 });
    expect(stalled).toHaveLength(calls);
    expect(fused.map((result) => result.name)).toContain('get_forecast');
    expect(errors).toHaveLength(1);
  });

  it('answers lexically while a slow catalog embedding is still running, then fuses once it is done', async () => {
    const clock = createFakeClock();
    const inner = conceptEmbedder();
    let releaseCatalog = () => {};
    const embedder: Embedder = {
      id: 'slow-catalog',
      embed: (texts) =>
        texts.includes(defaultToolText(tools[0]!))
          ? new Promise((resolve) => {
              releaseCatalog = () => resolve(inner.embed(texts));
            })
          : inner.embed(texts),
    };
    const onError = vi.fn();
    const ranker = createHybridRanker({ embedder, weight: 0.5, timeoutMs: 1_000, clock, onError })(tools);
    const search = ranker.search('umbrella', { topK: 1 });
    await clock.advanceAsync(1_000);
    expect(await search).toEqual([]);
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'EMBEDDER_TIMEOUT' });
    releaseCatalog();
    await clock.advanceAsync(0);
    expect((await ranker.search('umbrella', { topK: 1 }))[0]!.name).toBe('get_forecast');
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('sends again, after a minute, an embedding whose call never settled (a dead connection), for the catalog and for a request', async () => {
    const inner = conceptEmbedder();
    /** An embedder whose first call of `hung` texts never answers; every other call answers at once. */
    const hungOnce = (hung: 'catalog' | 'request') => {
      const seen = { catalog: 0, request: 0 };
      const embedder: Embedder = {
        id: `hung-${hung}`,
        embed: (texts) => {
          const kind = texts.includes(defaultToolText(tools[0]!)) ? 'catalog' : 'request';
          seen[kind]++;
          return kind === hung && seen[kind] === 1
            ? new Promise(() => {})
            : Promise.resolve(inner.embed(texts));
        },
      };
      return { seen, embedder };
    };
    for (const hung of ['catalog', 'request'] as const) {
      const clock = createFakeClock();
      const { seen, embedder } = hungOnce(hung);
      const onError = vi.fn();
      const ranker = createHybridRanker({ embedder, weight: 0.5, timeoutMs: 1_000, clock, onError })(tools);
      const waited = ranker.search('umbrella', { topK: 1 });
      await clock.advanceAsync(1_000);
      expect(await waited).toEqual([]);
      expect(seen[hung]).toBe(1);
      // Within the minute, a search waits (timeoutMs) on the call already sent.
      await clock.advanceAsync(57_000);
      const again = ranker.search('umbrella', { topK: 1 });
      await clock.advanceAsync(1_000);
      expect(await again).toEqual([]);
      expect(seen[hung]).toBe(1);
      // A minute on, the texts are sent again, and the search is fused.
      await clock.advanceAsync(1_000);
      const fused = ranker.search('umbrella', { topK: 1 });
      await clock.advanceAsync(0);
      expect((await fused)[0]!.name).toBe('get_forecast');
      expect(seen[hung]).toBe(2);
      expect(onError.mock.calls.map(([error]) => (error as ToolSearchError).code)).toEqual([
        'EMBEDDER_TIMEOUT',
        'EMBEDDER_TIMEOUT',
      ]);
    }
  });

  it("learns the vectors' length only from an answer that agrees on one: a glitched first vector does not switch similarity off for good", async () => {
    const inner = conceptEmbedder();
    let glitch = true;
    const embedder: Embedder = {
      id: 'glitch-once',
      embed: async (texts) => {
        const vectors = [...(inner.embed(texts) as readonly EmbeddingVector[])];
        if (glitch) vectors[0] = [1, 2];
        glitch = false;
        return vectors;
      },
    };
    const errors: unknown[] = [];
    const factory = createHybridRanker({ embedder, weight: 0.5, onError: (error) => errors.push(error) });
    const ranker = factory(tools);
    expect(await ranker.search('umbrella', { topK: 1 })).toEqual([]);
    expect(errors).toHaveLength(1);
    // The next search embeds the catalog again, and fuses; so does another catalog of the factory.
    expect((await ranker.search('umbrella', { topK: 1 }))[0]!.name).toBe('get_forecast');
    expect((await factory([...tools].reverse()).search('umbrella', { topK: 1 }))[0]!.name).toBe(
      'get_forecast',
    );
    expect(errors).toHaveLength(1);
  });

  it('starts no timer for a synchronous embedder or a prompt asynchronous one', async () => {
    const clock = createFakeClock();
    const inner = conceptEmbedder();
    const prompt: Embedder = { id: 'prompt', embed: async (texts) => inner.embed(texts) };
    const synchronous = createHybridRanker({ embedder: inner, clock })(tools);
    now(synchronous.search('umbrella', { topK: 1 }));
    expect(clock.pendingTimers()).toBe(0);
    const asynchronous = createHybridRanker({ embedder: prompt, weight: 0.5, clock })(tools);
    expect((await asynchronous.search('umbrella', { topK: 1 }))[0]!.name).toBe('get_forecast');
    expect(clock.pendingTimers()).toBe(0);
  });

  it('starts no timer, and waits, when timeoutMs is above the largest timer delay (2^31 ms)', async () => {
    const clock = createFakeClock();
    const errors: unknown[] = [];
    const inner = conceptEmbedder();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: Embedder = {
      id: 'slow',
      embed: async (texts) => {
        await released;
        return inner.embed(texts);
      },
    };
    const ranker = createHybridRanker({
      embedder: slow,
      weight: 0.5,
      clock,
      timeoutMs: 2 ** 31,
      onError: (error) => errors.push(error),
    })(tools);
    const pending = ranker.search('umbrella', { topK: 1 });
    await clock.advanceAsync(0);
    expect(clock.pendingTimers()).toBe(0);
    await clock.advanceAsync(2 ** 32);
    release();
    expect((await pending)[0]!.name).toBe('get_forecast');
    expect(errors).toEqual([]);
  });

  it('reports vectors of the wrong count or length, or not finite, and answers lexically', () => {
    for (const embed of [
      (texts: readonly string[]) => texts.slice(1).map(conceptVector),
      (texts: readonly string[]) => texts.map(() => new Float32Array(3)),
      (texts: readonly string[]) => texts.map(() => [Number.NaN, 0, 0, 0, 0]),
    ]) {
      const onError = vi.fn();
      const ranker = createHybridRanker({ embedder: { id: 'bad', dimensions: AXES, embed }, onError })(tools);
      expect(ranker.search('send an email', { topK: 2 })).toEqual(
        createKeywordRanker(tools).search('send an email', { topK: 2 }),
      );
      expect(onError).toHaveBeenCalled();
      expect(ToolSearchError.isInstance(onError.mock.calls[0]![0])).toBe(true);
    }
  });

  it.each([
    { feedback: 0, label: 'without feedback' },
    { feedback: 0.3, label: 'with feedback' },
  ])(
    'ranks as fusing every tool would ($label): no tool found by similarity alone is missed',
    ({ feedback }) => {
      // A brute-force reference: every tool's fused score (the lexical score read along the
      // lexical order, the cosine of exact float vectors), best first; with feedback, the request's
      // vector moved towards the mean of the two leading tools' vectors, and every tool scored
      // again. The ranker skips the similarity scan when its lexical candidates already outscore
      // any tool found by similarity alone; this checks that the skip never changes the answer,
      // nor the leading tools of the feedback. The lexical ranking is scripted (random tools,
      // random scores), so every case happens: strong, weak, none.
      const words = Object.keys(CONCEPTS);
      const random = seededRandom(11);
      const pick = (count: number) =>
        Array.from({ length: count }, () => words[Math.floor(random() * words.length)]!);
      const catalog: ToolDescriptor[] = Array.from({ length: 120 }, (_, index) => ({
        name: `tool_${index}`,
        description: pick(1 + Math.floor(random() * 3)).join(' '),
      }));
      let scripted: SearchResult[] = [];
      // The requests here are of one part: the similarity weighs 1.5 times the given weight.
      const weight = 0.35;
      const given = weight / 1.5;
      const floor = 0.2;
      const ranker = createHybridRanker({
        embedder: conceptEmbedder(),
        weight: given,
        similarityFloor: floor,
        feedback,
        lexical: () => ({ search: () => scripted }),
      })(catalog);
      const unit = (vector: Float32Array): Float32Array => {
        const length = Math.hypot(...vector);
        return length > 0 ? vector.map((value) => value / length) : vector;
      };
      const toolVectors = catalog.map((tool) => unit(conceptVector(defaultToolText(tool))));
      let skipped = 0;
      let ambiguous = 0;
      /** Trials whose top results the feedback changes. */
      let reordered = 0;
      for (let trial = 0; trial < 300; trial++) {
        const query = pick(1 + Math.floor(random() * 2)).join(' ');
        const topK = 1 + Math.floor(random() * 6);
        // Up to 30 lexical results, best first, all strong, all weak or mixed.
        const top = random();
        let score = top;
        scripted = Array.from({ length: Math.floor(random() * 31) }, () => {
          score *= 0.7 + 0.3 * random();
          return { name: catalog[Math.floor(random() * catalog.length)]!.name, description: '', score };
        });
        const lexical = new Map<string, { score: number; order: number }>();
        scripted.forEach((result, order) => {
          if (!lexical.has(result.name)) lexical.set(result.name, { score: result.score, order });
        });
        const fusedAgainst = (view: Float32Array) =>
          catalog
            .map((tool, position) => {
              const cosine = toolVectors[position]!.reduce(
                (sum, value, axis) => sum + value * view[axis]!,
                0,
              );
              const semantic = Math.min(1, Math.max(0, (cosine - floor) / (1 - floor)));
              const known = lexical.get(tool.name);
              return {
                name: tool.name,
                position,
                order: known?.order ?? Number.POSITIVE_INFINITY,
                score: (1 - weight) * (known?.score ?? 0) + weight * semantic,
              };
            })
            .filter((entry) => entry.score > 0)
            .sort(
              (left, right) =>
                right.score - left.score ||
                left.order - right.order ||
                (left.name < right.name ? -1 : left.name > right.name ? 1 : 0),
            );
        let view = unit(conceptVector(query));
        if (feedback > 0) {
          const first = fusedAgainst(view);
          const leading = first.slice(0, 2);
          // int8 vectors can swap the second and third leading tools when their float scores
          // nearly tie: where those tools' vectors differ, such a trial has no single right
          // answer (the feedback would differ too).
          const differs = (left: number, right: number) =>
            toolVectors[left]!.reduce((sum, value, axis) => sum + value * toolVectors[right]![axis]!, 0) <
            0.99;
          if (
            (first.length > 2 &&
              first[1]!.score - first[2]!.score < 0.005 &&
              differs(first[1]!.position, first[2]!.position)) ||
            (leading.length === 2 && leading[1]!.score < 0.005)
          ) {
            ambiguous++;
            continue;
          }
          if (leading.length > 0 && view.some((value) => value !== 0)) {
            const moved = view.map(
              (value, axis) =>
                value +
                (feedback * leading.reduce((sum, entry) => sum + toolVectors[entry.position]![axis]!, 0)) /
                  leading.length,
            );
            view = unit(moved);
          }
        }
        const reference = fusedAgainst(view);
        const plain = fusedAgainst(unit(conceptVector(query)));
        if (reference.slice(0, topK).some((entry, rank) => entry.name !== plain[rank]?.name)) reordered++;
        const results = now(ranker.search(query, { topK }));
        expect(results.length).toBe(Math.min(topK, reference.length));
        // Same scores up to int8 rounding, and nothing that scores clearly better left out.
        const expected = new Map(reference.map((entry) => [entry.name, entry.score]));
        for (const result of results) expect(result.score).toBeCloseTo(expected.get(result.name)!, 2);
        const cut = results.at(-1)?.score ?? 1;
        const missed = reference.filter(
          (entry) => entry.score > cut + 0.01 && !results.some((result) => result.name === entry.name),
        );
        expect(missed).toEqual([]);
        const needed = feedback > 0 ? Math.max(topK, 2) : topK;
        if (scripted.filter((result) => (1 - weight) * result.score >= weight).length >= needed) skipped++;
      }
      // Both paths ran: searches answered from lexical candidates alone, and searches that scanned.
      expect(skipped).toBeGreaterThan(20);
      expect(skipped).toBeLessThan(280);
      expect(ambiguous).toBeLessThan(15);
      expect(reordered > 10).toBe(feedback > 0);
    },
  );

  it("names the adapter's wrapper when given a framework's own embedding object or a model id instead of an Embedder", () => {
    const cases: [unknown, RegExp][] = [
      // LangChain's Embeddings: embedDocuments and embedQuery, no embed.
      [
        { embedDocuments: async () => [], embedQuery: async () => [] },
        /createLangChainEmbedder\(\{ embeddings \}\)/,
      ],
      // An AI SDK embedding model (EmbeddingModelV4): doEmbed.
      [
        { specificationVersion: 'v4', provider: 'openai', modelId: 'x', doEmbed: async () => ({}) },
        /createAiSdkEmbedder\(\{ model \}\)/,
      ],
      ['openai/text-embedding-3-small', /"openai\/text-embedding-3-small".*createAiSdkEmbedder/],
    ];
    for (const [embedder, message] of cases) {
      for (const make of [
        () => createHybridRanker({ embedder: embedder as Embedder }),
        () => createStoredEmbedder({ embedder: embedder as Embedder, store: createMemoryVectorStore() }),
      ]) {
        let caught: unknown;
        try {
          make();
        } catch (error) {
          caught = error;
        }
        expect(ToolSearchError.isInstance(caught) && caught.code).toBe('INVALID_OPTIONS');
        expect((caught as Error).message).toMatch(message);
      }
    }
    // Anything else gets the plain message, and a getter that throws does not escape.
    const hostile = Object.defineProperty({}, 'embedDocuments', {
      get() {
        throw new Error('boom');
      },
    });
    expect(() => createHybridRanker({ embedder: hostile as Embedder })).toThrow(
      /needs an embedder with an embed\(texts\) method$/,
    );
  });

  it('rejects bad options and bad queries with typed errors', () => {
    const invalid = (run: () => unknown, code: string) => {
      try {
        run();
      } catch (error) {
        expect(ToolSearchError.isInstance(error) && error.code).toBe(code);
        return;
      }
      throw new Error('expected a ToolSearchError');
    };
    invalid(() => createHybridRanker(undefined as never), 'INVALID_OPTIONS');
    invalid(() => createHybridRanker({ embedder: {} as Embedder }), 'INVALID_OPTIONS');
    invalid(() => createHybridRanker({ embedder: conceptEmbedder(), weight: 2 }), 'INVALID_OPTIONS');
    invalid(() => createHybridRanker({ embedder: conceptEmbedder(), weight: Number.NaN }), 'INVALID_OPTIONS');
    invalid(() => createHybridRanker({ embedder: conceptEmbedder(), similarityFloor: 1 }), 'INVALID_OPTIONS');
    // A fraction (tools.length * 1.5, say) left one cached row without its scale: never similar.
    for (const cacheSize of [15.5, -1, Number.NaN, '8' as unknown as number]) {
      invalid(() => createHybridRanker({ embedder: conceptEmbedder(), cacheSize }), 'INVALID_OPTIONS');
    }
    expect(() =>
      createHybridRanker({ embedder: conceptEmbedder(), cacheSize: Number.POSITIVE_INFINITY }),
    ).not.toThrow();
    for (const feedback of [-0.1, 1.5, Number.NaN, '0.3' as never]) {
      invalid(() => createHybridRanker({ embedder: conceptEmbedder(), feedback }), 'INVALID_OPTIONS');
    }
    invalid(
      () => createHybridRanker({ embedder: conceptEmbedder({ embedQueries: 'no' as never }) }),
      'INVALID_OPTIONS',
    );
    // A logger object passed as onError failed every report silently.
    for (const onError of [console, 'warn', 5]) {
      invalid(
        () => createHybridRanker({ embedder: conceptEmbedder(), onError: onError as never }),
        'INVALID_OPTIONS',
      );
    }
    for (const timeoutMs of [0, -5, Number.NaN, '100' as never]) {
      invalid(() => createHybridRanker({ embedder: conceptEmbedder(), timeoutMs }), 'INVALID_OPTIONS');
    }
    expect(() => createHybridRanker({ embedder: conceptEmbedder(), timeoutMs: Infinity })).not.toThrow();
    for (const bad of [
      { lexical: 'keyword' as never },
      { lexical: {} as never },
      { toolText: 'name' as never },
      { clock: {} as never },
      { clock: 'system' as never },
    ]) {
      invalid(() => createHybridRanker({ embedder: conceptEmbedder(), ...bad }), 'INVALID_OPTIONS');
    }
    for (const dimensions of [Number.NaN, 0, 2.5]) {
      invalid(() => createHybridRanker({ embedder: conceptEmbedder({ dimensions }) }), 'INVALID_OPTIONS');
    }
    const ranker = createHybridRanker({ embedder: conceptEmbedder() })(tools);
    invalid(() => ranker.search(42 as never), 'INVALID_INPUT');
    invalid(() => ranker.search('x', { topK: -1 }), 'INVALID_OPTIONS');
  });

  it('rejects a tool list that is not an array of uniquely named descriptors before embedding it', () => {
    const embedder = conceptEmbedder();
    const factory = createHybridRanker({ embedder });
    const code = (list: unknown) => errorCode(() => factory(list as ToolDescriptor[]));
    for (const list of [undefined, null, {}, 'abc']) expect(code(list)).toBe('INVALID_OPTIONS');
    for (const list of [[null], [{}], [{ name: '' }], [{ name: 5 }], [...tools, { description: 'x' }]]) {
      expect(code(list)).toBe('INVALID_TOOL_NAME');
    }
    expect(code([...tools, { ...tools[0]!, description: 'A second tool of the same name.' }])).toBe(
      'DUPLICATE_TOOL_NAME',
    );
    expect(embedder.calls).toEqual([]);
    expect(code(tools)).toBe('none');
    expect(embedder.calls).toHaveLength(1);
  });

  it('handles empty, huge, unicode and prototype-named input', () => {
    const odd: ToolDescriptor[] = [
      ...tools,
      { name: '__proto__', description: 'A tool with an unlucky name.' },
      { name: 'constructor', description: 'Builds houses.' },
    ];
    const ranker = createHybridRanker({ embedder: conceptEmbedder() })(odd);
    expect(ranker.search('', { topK: 5 })).toEqual([]);
    expect(ranker.search('   ', { topK: 5 })).toEqual([]);
    expect(Array.isArray(ranker.search('weather '.repeat(15_000), { topK: 5 }))).toBe(true);
    expect(Array.isArray(ranker.search('天気予報 météo ☔', { topK: 5 }))).toBe(true);
    expect(now(ranker.search('__proto__', { topK: 1 }))[0]!.name).toBe('__proto__');
    expect(createHybridRanker({ embedder: conceptEmbedder() })([]).search('anything')).toEqual([]);
  });

  it.each([
    ['spread over every dimension (scanned in full)', 0],
    ['concentrated in a few directions (estimated in a subspace first)', 8],
  ])('finds the best matches in a large catalog whose vectors are %s', (_, rank) => {
    const size = 3_000;
    const dimensions = 48;
    const uniform = seededRandom(7);
    const random = () => uniform() - 0.5;
    // Vectors are a mix of `rank` shared directions plus a small own part (or isotropic noise).
    const directions = Array.from({ length: rank }, () => Float32Array.from({ length: dimensions }, random));
    const vectors = new Map<string, Float32Array>();
    const big: ToolDescriptor[] = Array.from({ length: size }, (_, index) => {
      const vector = Float32Array.from({ length: dimensions }, () => random() * (rank > 0 ? 0.4 : 1));
      for (const direction of directions) {
        const amount = random() * 4;
        for (let axis = 0; axis < dimensions; axis++) vector[axis]! += amount * direction[axis]!;
      }
      vectors.set(`tool${index}`, vector);
      return { name: `tool${index}` };
    });
    const embedder: Embedder = {
      id: `random-${rank}`,
      dimensions,
      embed: (texts) =>
        texts.map((text) => {
          const known = vectors.get(text);
          if (known) return known;
          // A query is a slightly noisy copy of the tool it names after "like".
          const target = vectors.get(text.replace('like ', ''))!;
          return target.map((value) => value + random() * 0.05);
        }),
    };
    const ranker = createHybridRanker({
      embedder,
      weight: 1,
      similarityFloor: -0.99,
      toolText: (tool) => tool.name,
      lexical: () => ({ search: () => [] }),
    })(big);
    let found = 0;
    for (let index = 0; index < 50; index++) {
      const results = now(ranker.search(`like tool${index * 37}`, { topK: 1 }));
      if (results[0]?.name === `tool${index * 37}`) found++;
    }
    expect(found).toBe(50);
  });
});

describe('createHybridRanker: request words no tool contains, matched by meaning', () => {
  /** Word vectors of the concept embedder: a word outside the concepts is unknown (zero). */
  const conceptWords = (words: readonly string[]) =>
    words.map((word) => (Object.hasOwn(CONCEPTS, word) ? conceptVector(word) : new Float32Array(AXES)));
  const catalog: ToolDescriptor[] = [
    { name: 'get_forecast', description: 'Rain and weather for a city.' },
    { name: 'list_events', description: 'Events on the calendar for tomorrow.' },
    { name: 'send_email', description: 'Sends an email to a recipient.' },
  ];

  it('gives the keyword ranking the embedder’s word vectors when it has embedWords', () => {
    const embedWords = vi.fn(conceptWords);
    const ranker = createHybridRanker({ embedder: conceptEmbedder({ embedWords }), weight: 0.01 })(catalog);
    // At weight 0.01 the fused order is the keyword ranker's: "umbrella" (unknown to the
    // catalog) now counts as the weather words, so the forecast tool comes before the calendar.
    const results = now(ranker.search('umbrella tomorrow', { topK: 2 }));
    expect(results.map((result) => result.name)).toEqual(['get_forecast', 'list_events']);
    expect(embedWords).toHaveBeenCalledWith(['umbrella']);
    const without = createHybridRanker({
      embedder: conceptEmbedder({ embedWords }),
      weight: 0.01,
      expandUnknownWords: false,
    })(catalog);
    embedWords.mockClear();
    expect(now(without.search('umbrella tomorrow', { topK: 2 }))[0]!.name).toBe('list_events');
    expect(embedWords).not.toHaveBeenCalled();
  });

  it('leaves a lexical ranker of the user’s own alone', () => {
    const embedWords = vi.fn(conceptWords);
    const ranker = createHybridRanker({
      embedder: conceptEmbedder({ embedWords }),
      lexical: (tools) => createKeywordRanker(tools),
    })(catalog);
    now(ranker.search('umbrella tomorrow'));
    expect(embedWords).not.toHaveBeenCalled();
  });

  it('reports word vectors that fail to onError and answers without them', () => {
    const onError = vi.fn();
    const ranker = createHybridRanker({
      embedder: conceptEmbedder({
        embedWords: () => {
          throw new Error('model not loaded');
        },
      }),
      weight: 0.01,
      onError,
    })(catalog);
    expect(now(ranker.search('umbrella tomorrow', { topK: 1 }))[0]!.name).toBe('list_events');
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });

  it('rejects an embedWords or expandUnknownWords of the wrong type', () => {
    expect(() => createHybridRanker({ embedder: conceptEmbedder({ embedWords: 1 as never }) })).toThrow(
      /embedWords must be a method/,
    );
    expect(() =>
      createHybridRanker({ embedder: conceptEmbedder(), expandUnknownWords: 'yes' as never }),
    ).toThrow(/expandUnknownWords must be a boolean/);
  });
});
