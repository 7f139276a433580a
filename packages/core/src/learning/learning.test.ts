import { describe, expect, it, vi } from 'vitest';
import { learningTools } from '../__fixtures__/learning-tools';
import { createFakeClock } from '../clock';
import { ToolSearchError } from '../errors';
import { createHybridRanker } from '../ranking/hybrid-ranker';
import { createKeywordRanker } from '../ranking/keyword-ranker';
import { conceptVectors } from '../testing/concept-vectors';
import type { SearchResult } from '../types';
import type { EvidenceStore } from './evidence';
import { createLearning, type LearningEvent, type LearningOptions } from './learning';
import { createMemoryEvidenceStore } from './memory-evidence-store';
import { withLearning } from './with-learning';

const tools = learningTools;

const DAY = 86_400_000;

function setup(options: LearningOptions = {}) {
  const clock = createFakeClock();
  const events: LearningEvent[] = [];
  const learning = createLearning({ clock, onEvent: (event) => events.push(event), ...options });
  const ranker = withLearning((list) => createKeywordRanker(list), learning)(tools);
  const search = (query: string, topK = 5) => ranker.search(query, { topK }) as SearchResult[];
  const names = (query: string) => search(query).map((result) => result.name);
  return { clock, events, learning, ranker, search, names };
}

describe('learning with the keyword ranker', () => {
  it('finds a tool for a request that shares no word with it, once uses have shown the way', () => {
    const { learning, names, search } = setup();
    expect(names('will I need an umbrella tomorrow')).toEqual([]);
    learning.recordUse({ query: 'do I need an umbrella in Rome', toolName: 'getWeather' });
    learning.recordUse({ query: 'umbrella or sunglasses for Paris tomorrow?', toolName: 'getWeather' });
    expect(names('will I need an umbrella tomorrow')).toEqual(['getWeather']);
    const [found] = search('will I need an umbrella tomorrow');
    expect(found!.score).toBeGreaterThan(0.2);
    expect(found!.score).toBeLessThanOrEqual(0.5);
  });

  it('gives a request that past uses only partly cover a part of the evidence', () => {
    const { learning, search } = setup();
    for (const city of ['Rome', 'Oslo', 'Lima']) {
      learning.recordUse({ query: `umbrella in ${city}`, toolName: 'getWeather', threadId: city });
    }
    // 'tomorrow' is in no use: the request is half covered, and half of the evidence counts.
    const whole = search('umbrella')[0]!;
    const half = search('umbrella tomorrow?')[0]!;
    expect(half.name).toBe('getWeather');
    expect(half.score).toBeGreaterThan(0.25 * whole.score);
    expect(half.score).toBeLessThan(whole.score);
    // A word each use has counts in full: ¾ for three uses, at half weight.
    expect(whole.score).toBeCloseTo(0.5 * 0.75, 5);
  });

  it('keeps a tool its own text answers fully at score 1, first', () => {
    const { learning, search } = setup();
    for (let index = 0; index < 10; index++) {
      learning.recordUse({ query: `weather money exchange ${index}`, toolName: 'convertCurrency' });
    }
    const own = createKeywordRanker(tools).search('weather')[0]!;
    const [first, second] = search('weather');
    expect(first).toEqual(own);
    expect(second).toMatchObject({ name: 'convertCurrency' });
    expect(second!.score).toBeLessThan(own.score);
  });

  it('answers as the wrapped ranker does while no evidence has a word of the request', () => {
    const { learning, ranker } = setup();
    const plain = createKeywordRanker(tools);
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    for (const query of ['weather in paris', 'send a mail', 'flights', '']) {
      expect(ranker.search(query, { topK: 3 })).toEqual(plain.search(query, { topK: 3 }));
    }
  });

  it('applies minScore and topK to the fused scores', () => {
    const { learning, ranker } = setup();
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    learning.recordUse({ query: 'umbrella', toolName: 'sendEmail' });
    expect(ranker.search('umbrella', { topK: 1 })).toHaveLength(1);
    expect(ranker.search('umbrella', { topK: 5, minScore: 0.9 })).toEqual([]);
    expect(ranker.search('umbrella', { topK: 0 })).toEqual([]);
  });

  it('ranks only the tools of its own catalog', () => {
    const { learning, ranker } = setup();
    const other = withLearning(
      (list) => createKeywordRanker(list),
      learning,
    )([{ name: 'elsewhere', description: 'a tool of another catalog' }]);
    learning.recordUse({ query: 'umbrella', toolName: 'elsewhere' });
    expect(ranker.search('umbrella')).toEqual([]);
    expect((other.search('umbrella') as SearchResult[]).map((result) => result.name)).toEqual(['elsewhere']);
  });

  it('works over an asynchronous ranker', async () => {
    const learning = createLearning();
    const ranker = withLearning((list) => {
      const inner = createKeywordRanker(list);
      return { search: async (query, options) => inner.search(query, options) };
    }, learning)(tools);
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    const results = await ranker.search('umbrella');
    expect(results.map((result) => result.name)).toEqual(['getWeather']);
  });
});

describe('recordUse', () => {
  it('reports each use recorded or refused as an event', () => {
    const { learning, events, clock } = setup();
    expect(learning.recordUse({ query: 'umbrella', toolName: 'getWeather', threadId: 't1' })).toEqual({
      recorded: true,
    });
    expect(learning.recordUse({ query: 'the and of', toolName: 'getWeather' })).toEqual({
      recorded: false,
      reason: 'no-words',
    });
    expect(events).toEqual([
      {
        type: 'evidence',
        time: clock.now(),
        toolName: 'getWeather',
        query: 'umbrella',
        threadId: 't1',
        source: 'app',
        recorded: true,
      },
      {
        type: 'evidence',
        time: clock.now(),
        toolName: 'getWeather',
        query: 'the and of',
        source: 'app',
        recorded: false,
        reason: 'no-words',
      },
    ]);
  });

  it('refuses malformed uses and unknown tools without throwing', () => {
    const { learning } = setup();
    for (const use of [
      null,
      'getWeather',
      {},
      { query: 'rain', toolName: '' },
      { query: 'rain', toolName: 'x'.repeat(257) },
      { query: 42, toolName: 'getWeather' },
      { query: 'rain', toolName: 'getWeather', time: Number.NaN },
      { query: 'rain', toolName: 'getWeather', threadId: 7 },
    ]) {
      expect(learning.recordUse(use as never)).toEqual({ recorded: false, reason: 'invalid-use' });
    }
    expect(learning.recordUse({ query: 'rain', toolName: 'noSuchTool' })).toEqual({
      recorded: false,
      reason: 'unknown-tool',
    });
    expect(learning.recordUse({ query: 'rain', toolName: '__proto__' })).toEqual({
      recorded: false,
      reason: 'unknown-tool',
    });
    expect(learning.stats()).toEqual({ toolCount: 0, useCount: 0 });
  });

  it('takes empty, 100 kB, unicode and __proto__ queries', () => {
    const { learning, ranker } = setup();
    for (const query of [
      '',
      '   ',
      'ß'.repeat(100_000),
      '天气 预报 ☔',
      '__proto__ constructor',
      '\u0000\uD800',
    ]) {
      learning.recordUse({ query, toolName: 'getWeather' });
      expect(Array.isArray(ranker.search(query))).toBe(true);
    }
    expect((ranker.search('天气') as SearchResult[])[0]?.name).toBe('getWeather');
    expect((ranker.search('__proto__') as SearchResult[])[0]?.name).toBe('getWeather');
  });
});

describe('bounded influence', () => {
  it('lets one thread record at most maxThreadUsesPerTool uses of a tool, and maxUsesPerThread in all', () => {
    const { learning } = setup({ maxThreadUsesPerTool: 2, maxUsesPerThread: 3 });
    const use = (toolName: string) => learning.recordUse({ query: 'umbrella', toolName, threadId: 'chatty' });
    expect(
      [use('getWeather'), use('getWeather'), use('getWeather')].map((outcome) => outcome.reason),
    ).toEqual([undefined, undefined, 'thread-cap']);
    expect(use('sendEmail').recorded).toBe(true);
    expect(use('bookFlight')).toEqual({ recorded: false, reason: 'thread-cap' });
    expect(
      learning.recordUse({ query: 'umbrella', toolName: 'bookFlight', threadId: 'other' }).recorded,
    ).toBe(true);
  });

  it('caps what one thread can do to a ranking, however much it records', () => {
    const { learning, search } = setup();
    for (let index = 0; index < 1_000; index++) {
      learning.recordUse({ query: 'current weather for a city', toolName: 'sendEmail', threadId: 'chatty' });
    }
    const own = createKeywordRanker(tools).search('current weather for a city')[0]!;
    const results = search('current weather for a city');
    expect(results[0]).toEqual(own);
    const email = results.find((result) => result.name === 'sendEmail');
    // Two uses that are the request: each word weighs 2 / (2 + 1) in sendEmail's evidence, at
    // half weight (sendEmail has no own score).
    expect(email!.score).toBeCloseTo(0.5 * (2 / 3), 5);
    expect(email!.score).toBeLessThan(own.score);
  });

  it('decays old evidence with the injected clock', () => {
    const { learning, clock, search } = setup({ halfLifeMs: 10 * DAY });
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    const fresh = search('umbrella')[0]!.score;
    clock.advance(10 * DAY);
    const older = search('umbrella')[0]!.score;
    clock.advance(1_000 * DAY);
    const ancient = search('umbrella')[0]?.score ?? 0;
    // One use: 1 / (1 + 1) at half weight; a half-life later it counts as half a use.
    expect(fresh).toBeCloseTo(0.25, 5);
    expect(older).toBeCloseTo(0.5 * (0.5 / 1.5), 5);
    expect(ancient).toBeLessThan(1e-6);
  });

  it('lets newer evidence outweigh older evidence for the same words', () => {
    const { learning, clock, names } = setup({ halfLifeMs: DAY });
    for (let index = 0; index < 3; index++) learning.recordUse({ query: 'umbrella', toolName: 'sendEmail' });
    clock.advance(5 * DAY);
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    expect(names('umbrella')[0]).toBe('getWeather');
  });

  it('keeps at most maxUsesPerTool uses per tool, and maxUses in all, the oldest going first', () => {
    const { learning, names } = setup({ maxUsesPerTool: 2, maxUses: 3 });
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    learning.recordUse({ query: 'raincoat', toolName: 'getWeather' });
    learning.recordUse({ query: 'galoshes', toolName: 'getWeather' });
    expect(names('umbrella')).toEqual([]);
    expect(names('galoshes')).toEqual(['getWeather']);
    learning.recordUse({ query: 'postcard', toolName: 'sendEmail' });
    learning.recordUse({ query: 'letter', toolName: 'sendEmail' });
    expect(learning.stats()).toEqual({ toolCount: 2, useCount: 3 });
    expect(names('raincoat')).toEqual([]);
    expect(names('galoshes postcard letter')).toEqual(['sendEmail', 'getWeather']);
  });

  it('keeps every bound through many uses (the postings are rebuilt as uses go)', () => {
    const { learning, names } = setup({ maxUses: 50 });
    // A word of letters only per use: "qaa", "qab"...
    const word = (index: number) =>
      `q${[...index.toString(26).padStart(3, '0')].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 26))).join('')}`;
    for (let index = 0; index < 2_000; index++) {
      learning.recordUse({
        query: `${word(index)} umbrella`,
        toolName: index % 2 ? 'getWeather' : 'sendEmail',
      });
    }
    expect(learning.stats().useCount).toBe(50);
    expect(names(word(1_999))).toEqual(['getWeather']);
    expect(names(word(1_998))).toEqual(['sendEmail']);
    expect(names(word(10))).toEqual([]);
  });

  it('refuses uses of further tools past maxTools', () => {
    const { learning } = setup({ maxTools: 1 });
    expect(learning.recordUse({ query: 'umbrella', toolName: 'getWeather' }).recorded).toBe(true);
    expect(learning.recordUse({ query: 'umbrella', toolName: 'sendEmail' })).toEqual({
      recorded: false,
      reason: 'tool-limit',
    });
  });
});

describe('the evidence store', () => {
  it('exports evidence as JSON and imports it into a new learning, which ranks the same', async () => {
    const first = setup();
    first.learning.recordUse({ query: 'do I need an umbrella', toolName: 'getWeather', threadId: 'user-1' });
    first.learning.recordUse({ query: 'wire money abroad', toolName: 'convertCurrency' });
    const snapshot = JSON.parse(JSON.stringify(await first.learning.exportEvidence()));
    expect(snapshot).toMatchObject({ version: 1, catalogId: 'default' });
    expect(JSON.stringify(snapshot)).not.toContain('user-1');

    const second = setup();
    expect(await second.learning.importEvidence(snapshot)).toEqual({ imported: 2, skipped: 0 });
    expect(await second.learning.importEvidence(snapshot)).toEqual({ imported: 0, skipped: 2 });
    expect(second.search('umbrella')).toEqual(first.search('umbrella'));
    expect(second.names('wire funds abroad')).toEqual(['convertCurrency']);
    expect((await second.learning.exportEvidence()).uses).toHaveLength(2);
  });

  it('refuses a snapshot that is not one, and skips the uses that are not uses', async () => {
    const { learning } = setup();
    for (const bad of [null, [], { uses: [] }, { version: 2, uses: [] }, 'json']) {
      await expect(learning.importEvidence(bad)).rejects.toSatisfy(
        (error) => ToolSearchError.isInstance(error) && error.code === 'INVALID_INPUT',
      );
    }
    const result = await learning.importEvidence({
      version: 1,
      catalogId: 'default',
      uses: [
        { id: 'a', query: 'umbrella', toolName: 'getWeather', time: 1 },
        { id: 'b', query: 'umbrella', toolName: 'getWeather', time: 'yesterday' },
        { id: '', query: 'umbrella', toolName: 'getWeather', time: 1 },
        { id: 'c', query: 'umbrella', toolName: 'getWeather', time: 1, extra: { __proto__: 1 } },
      ],
    });
    expect(result).toEqual({ imported: 2, skipped: 2 });
  });

  it('refuses a snapshot of another catalog, unless fromCatalogId names it', async () => {
    const shop = setup({ catalogId: 'shop-v1' });
    shop.learning.recordUse({ query: 'do I need an umbrella', toolName: 'getWeather' });
    const snapshot = await shop.learning.exportEvidence();
    const other = setup({ catalogId: 'support' });
    const refused = (code: string, message: RegExp) => (error: unknown) =>
      ToolSearchError.isInstance(error) && error.code === code && message.test(error.message);
    await expect(other.learning.importEvidence(snapshot)).rejects.toSatisfy(
      refused('INVALID_INPUT', /"shop-v1".*"support".*fromCatalogId/),
    );
    // A snapshot with no catalog id is not one.
    const { catalogId: _, ...unnamed } = snapshot;
    await expect(other.learning.importEvidence(unnamed)).rejects.toSatisfy(
      refused('INVALID_INPUT', /catalogId/),
    );
    // Naming the wrong catalog is refused too, and so is an option that is not one.
    await expect(other.learning.importEvidence(snapshot, { fromCatalogId: 'shop-v2' })).rejects.toSatisfy(
      refused('INVALID_INPUT', /"shop-v1", not of "shop-v2"/),
    );
    await expect(
      other.learning.importEvidence(snapshot, { catalogId: 'shop-v1' } as never),
    ).rejects.toSatisfy(refused('INVALID_OPTIONS', /catalogId/));
    await expect(other.learning.importEvidence(snapshot, { fromCatalogId: 7 } as never)).rejects.toSatisfy(
      refused('INVALID_OPTIONS', /fromCatalogId/),
    );
    expect(other.learning.stats().useCount).toBe(0);
    expect(other.names('should I pack an umbrella')).toEqual([]);

    // A renamed catalog takes its old evidence when told the old name.
    const renamed = setup({ catalogId: 'shop-v2' });
    expect(await renamed.learning.importEvidence(snapshot, { fromCatalogId: 'shop-v1' })).toEqual({
      imported: 1,
      skipped: 0,
    });
    expect(renamed.names('should I pack an umbrella')).toEqual(['getWeather']);
    expect(await renamed.learning.exportEvidence()).toMatchObject({
      catalogId: 'shop-v2',
      uses: snapshot.uses,
    });
  });

  it('survives a restart: a new learning over the same store ranks with what the old one recorded', async () => {
    const store = createMemoryEvidenceStore();
    const before = setup({ store, catalogId: 'shop' });
    before.learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    await before.learning.flush();
    const after = setup({ store, catalogId: 'shop' });
    expect(after.names('umbrella')).toEqual([]); // loading
    await after.learning.ready;
    expect(after.names('umbrella')).toEqual(['getWeather']);
    const otherCatalog = setup({ store, catalogId: 'other' });
    await otherCatalog.learning.ready;
    expect(otherCatalog.names('umbrella')).toEqual([]);
  });

  it('keeps a use recorded while the store is being read, once', async () => {
    const inner = createMemoryEvidenceStore();
    inner.add('default', [{ id: 'old', query: 'umbrella', toolName: 'getWeather', time: 0 }]);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const store: EvidenceStore = {
      add: (catalogId, uses) => inner.add(catalogId, uses),
      list: async (catalogId) => {
        await gate;
        return inner.list(catalogId);
      },
    };
    const { learning } = setup({ store });
    learning.recordUse({ query: 'raincoat', toolName: 'getWeather' });
    release();
    await learning.ready;
    expect(learning.stats()).toEqual({ toolCount: 1, useCount: 2 });
  });

  it('goes on learning in this process when the store is down, and reports each failure', async () => {
    const broken: EvidenceStore = {
      add: () => {
        throw new Error('down');
      },
      list: () => Promise.reject(new Error('down')),
      clear: () => Promise.reject(new Error('down')),
    };
    const { learning, names, events } = setup({ store: broken });
    await learning.ready;
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    await learning.flush();
    expect(names('umbrella')).toEqual(['getWeather']);
    expect(events.filter((event) => event.type === 'store-error').map((event) => event.operation)).toEqual([
      'evidence.list',
      'evidence.add',
    ]);
    await expect(learning.exportEvidence()).rejects.toSatisfy(
      (error) => ToolSearchError.isInstance(error) && error.code === 'STORE_UNAVAILABLE',
    );
    await expect(learning.clear()).rejects.toSatisfy(
      (error) => ToolSearchError.isInstance(error) && error.code === 'STORE_UNAVAILABLE',
    );
  });

  it('bounds a store call that never answers with storeTimeoutMs', async () => {
    const hanging: EvidenceStore = { add: () => new Promise(() => {}), list: () => new Promise(() => {}) };
    const { learning, clock, events } = setup({ store: hanging, storeTimeoutMs: 100 });
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    await clock.advanceAsync(100);
    await learning.ready;
    await learning.flush();
    const failures = events.filter((event) => event.type === 'store-error');
    expect(failures).toHaveLength(2);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('reads the store again every refreshMs (another process’s uses), until disposed', async () => {
    const store = createMemoryEvidenceStore();
    const { learning, clock, names } = setup({ store, refreshMs: 60_000 });
    await learning.ready;
    store.add('default', [{ id: 'elsewhere', query: 'umbrella', toolName: 'getWeather', time: clock.now() }]);
    expect(names('umbrella')).toEqual([]);
    await clock.advanceAsync(60_000);
    await learning.flush();
    expect(names('umbrella')).toEqual(['getWeather']);
    expect(clock.pendingTimers()).toBe(1);
    await learning.dispose();
    await learning.dispose();
    expect(clock.pendingTimers()).toBe(0);
    expect(store.list('default')).toHaveLength(1); // a store the app gave stays as it is
  });

  it('clear forgets the evidence here and in the store', async () => {
    const store = createMemoryEvidenceStore();
    const { learning, names } = setup({ store });
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    await learning.clear();
    expect(names('umbrella')).toEqual([]);
    expect(store.list('default')).toEqual([]);
  });
});

describe('createLearning options', () => {
  it('refuses misspelt and out-of-range options', () => {
    expect(() => createLearning({ wieght: 0.5 } as never)).toThrow(/weight/);
    expect(() => createLearning({ weight: 2 })).toThrow(/weight/);
    expect(() => createLearning({ halfLifeMs: 0 })).toThrow(/halfLifeMs/);
    expect(() => createLearning({ maxUsesPerTool: -1 })).toThrow(/maxUsesPerTool/);
    expect(() => createLearning({ catalogId: '' })).toThrow(/catalogId/);
    expect(() => createLearning({ store: {} as never })).toThrow(/store/);
    expect(() => withLearning((list) => createKeywordRanker(list), {} as never)).toThrow(/createLearning/);
  });

  it('weight 0 learns but ranks as the wrapped ranker', () => {
    const { learning, names } = setup({ weight: 0 });
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    expect(learning.stats().useCount).toBe(1);
    expect(names('umbrella')).toEqual([]);
  });

  it('a listener that throws breaks nothing', () => {
    const learning = createLearning({
      onEvent: vi.fn(() => {
        throw new Error('listener');
      }),
    });
    expect(learning.recordUse({ query: 'umbrella', toolName: 'getWeather' }).recorded).toBe(true);
  });
});

describe('the keyword ranker’s own learning option', () => {
  it('ranks as withLearning does, with every tool’s own score exact', () => {
    const learning = createLearning();
    // A ranker that is not the keyword ranker itself: withLearning fuses around it.
    const wrapped = withLearning((list) => {
      const inner = createKeywordRanker(list);
      return { search: (query, options) => inner.search(query, options) };
    }, learning)(tools);
    const own = createKeywordRanker(tools, { learning });
    expect(withLearning((list) => createKeywordRanker(list), learning)(tools).search('x')).toEqual([]);
    learning.recordUse({ query: 'do I need an umbrella in Rome', toolName: 'getWeather' });
    learning.recordUse({ query: 'wire money abroad', toolName: 'convertCurrency' });
    learning.recordUse({ query: 'weather alerts by mail', toolName: 'sendEmail' });
    for (const query of ['umbrella tomorrow', 'wire funds abroad', 'weather', 'mail the weather', '天气']) {
      const expected = wrapped.search(query, { topK: 4 }) as SearchResult[];
      const actual = own.search(query, { topK: 4 });
      expect(actual.map((result) => result.name)).toEqual(expected.map((result) => result.name));
      actual.forEach((result, position) => {
        expect(result.score).toBeCloseTo(expected[position]!.score, 9);
      });
    }
  });

  it('is not wrapped twice by withLearning (the engine wraps a ranker of its own)', () => {
    const learning = createLearning();
    const own = createKeywordRanker(tools, { learning });
    const again = withLearning(() => own, learning)(tools);
    expect(again).toBe(own);
    const other = createLearning();
    expect(withLearning(() => own, other)(tools)).not.toBe(own);
  });

  it('answers as without learning while nothing is recorded', () => {
    const learning = createLearning();
    const own = createKeywordRanker(tools, { learning });
    const plain = createKeywordRanker(tools);
    for (const query of ['weather', 'send a mail and book a flight', '']) {
      expect(own.search(query)).toEqual(plain.search(query));
    }
  });

  it('refuses a learning that createLearning did not make', () => {
    expect(() => createKeywordRanker(tools, { learning: {} as never })).toThrow(/createLearning/);
  });
});

describe('the hybrid ranker’s learning option', () => {
  const embedder = {
    id: 'concepts',
    embed: (texts: readonly string[]) =>
      texts.map(
        conceptVectors({
          weather: 0,
          city: 0,
          email: 1,
          recipient: 1,
          flight: 2,
          airports: 2,
          currencies: 3,
        }),
      ),
  };

  it('ranks a tool found only by evidence, and is not wrapped again by withLearning', async () => {
    const learning = createLearning();
    const factory = createHybridRanker({ embedder, learning });
    const ranker = factory(tools);
    expect((await ranker.search('should I pack an umbrella'))[0]?.name).not.toBe('getWeather');
    learning.recordUse({ query: 'pack an umbrella today?', toolName: 'getWeather' });
    const results = await ranker.search('should I pack an umbrella');
    expect(results[0]?.name).toBe('getWeather');
    expect(withLearning(() => ranker, learning)(tools)).toBe(ranker);
  });

  it('compares a request with the mean vector of a tool’s past requests, as with its own vector', async () => {
    // "umbrella" and "raincoat" share a concept that no tool's text has: only the vector of
    // getWeather's past requests is like the request (its words are in no use).
    const rainy = {
      id: 'rainy-concepts',
      embed: (texts: readonly string[]) =>
        texts.map(conceptVectors({ weather: 0, city: 0, email: 1, flight: 2, umbrella: 4, raincoat: 4 })),
    };
    const learning = createLearning();
    const ranker = createHybridRanker({ embedder: rainy, learning })(tools);
    const plain = createHybridRanker({ embedder: rainy })(tools);
    // withLearning builds a hybrid ranker again over the learning.
    const wrapped = withLearning(createHybridRanker({ embedder: rainy }), learning)(tools);
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    learning.recordUse({ query: 'umbrella umbrella', toolName: 'getWeather' });
    const scoreOf = async (of: typeof ranker) =>
      (await of.search('raincoat')).find((result) => result.name === 'getWeather')?.score ?? 0;
    const before = await scoreOf(plain);
    expect(await scoreOf(ranker)).toBeGreaterThan(before);
    expect(await wrapped.search('raincoat')).toEqual(await ranker.search('raincoat'));
  });

  it('refuses a learning that createLearning did not make', () => {
    expect(() => createHybridRanker({ embedder, learning: {} as never })).toThrow(/createLearning/);
  });
});
