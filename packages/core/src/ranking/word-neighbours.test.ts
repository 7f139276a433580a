import { describe, expect, it, vi } from 'vitest';
import { ToolSearchError } from '../errors';
import type { ToolDescriptor } from '../types';
import { seededRandom } from './__fixtures__/seeded-random';
import { createKeywordRanker } from './keyword-ranker';
import { semanticCandidates } from './tool-vectors';
import {
  createWordNeighbours,
  isMeaningWord,
  MAX_WORD_NEIGHBOURS,
  type WordVectors,
} from './word-neighbours';

// The real search, watched: how often the catalog's words are searched for a request word.
vi.mock(import('./tool-vectors'), async (importOriginal) => {
  const original = await importOriginal();
  return { ...original, semanticCandidates: vi.fn(original.semanticCandidates) };
});

/**
 * Scripted word vectors: each word lies on its topic's axis, tilted towards an axis of its own
 * by `spread` (so words of one topic have cosine 1 / (1 + spread²) with each other).
 */
const TOPICS: Record<string, [topic: number, spread: number]> = {
  umbrella: [0, 0.5],
  rain: [0, 0.5],
  raincoat: [0, 0.3],
  weather: [0, 0.8],
  drizzle: [0, 0.5],
  tomorrow: [1, 0.5],
  calendar: [1, 0.5],
  meeting: [1, 0.6],
  schedule: [1, 0.5],
  eviction: [2, 0.5],
  tenant: [2, 0.5],
  rent: [2, 0.6],
  house: [2, 2],
  mail: [3, 0.5],
  show: [4, 0.5],
  snow: [0, 0.7],
};
const WORDS = Object.keys(TOPICS);
const DIMENSIONS = 5 + WORDS.length;

function vectorOf(word: string): Float32Array {
  const vector = new Float32Array(DIMENSIONS);
  const known = Object.hasOwn(TOPICS, word) ? TOPICS[word] : undefined;
  if (known === undefined) return vector; // unknown: the zero vector
  const [topic, spread] = known;
  vector[topic] = 1;
  vector[5 + WORDS.indexOf(word)] = spread;
  return vector;
}

function scriptedVectors(): WordVectors & { calls: string[][] } {
  const calls: string[][] = [];
  const lookUp = (words: readonly string[]) => {
    calls.push([...words]);
    return words.map(vectorOf);
  };
  return Object.assign(lookUp, { calls });
}

describe('word neighbours', () => {
  const surface = ['rain', 'weather', 'calendar', 'tenant', 'mail', '', '2019', 'the'];

  it('finds the catalog words closest in meaning, best first, at most two, above the floor', () => {
    const neighbours = createWordNeighbours(surface, scriptedVectors());
    const found = neighbours.of('umbrella');
    expect(found.map((neighbour) => surface[neighbour.term])).toEqual(['rain', 'weather']);
    expect(found[0]!.similarity).toBeGreaterThan(found[1]!.similarity);
    expect(found.length).toBeLessThanOrEqual(MAX_WORD_NEIGHBOURS);
    expect(neighbours.of('eviction').map((neighbour) => surface[neighbour.term])).toEqual(['tenant']);
    // "house" is too loosely tied to its topic (cosine 0.44 with "tenant").
    expect(neighbours.of('house')).toEqual([]);
  });

  it('asks for the catalog’s vectors once, on the first word that needs them, and remembers words', () => {
    const vectors = scriptedVectors();
    const neighbours = createWordNeighbours(surface, vectors);
    expect(vectors.calls).toEqual([]);
    neighbours.of('umbrella');
    neighbours.of('umbrella');
    neighbours.of('eviction');
    // Numbers, stopwords and the empty slot are never asked for, nor matched.
    expect(vectors.calls).toEqual([
      ['rain', 'weather', 'calendar', 'tenant', 'mail'],
      ['umbrella'],
      ['eviction'],
    ]);
  });

  it('does not search the catalog for a word the model gives a vector of zeros', () => {
    const neighbours = createWordNeighbours(surface, scriptedVectors());
    const searches = vi.mocked(semanticCandidates);
    searches.mockClear();
    expect(neighbours.of('zzyzx')).toEqual([]);
    expect(neighbours.of('flibbertigibbet')).toEqual([]);
    expect(searches).not.toHaveBeenCalled();
    expect(neighbours.of('umbrella')).toHaveLength(2);
    expect(searches).toHaveBeenCalledTimes(1);
  });

  it('matches only words of letters: no numbers, ids, stopwords or unknown words', () => {
    const vectors = scriptedVectors();
    const neighbours = createWordNeighbours(surface, vectors);
    for (const word of ['2020', 'v2', 'x86', 'the', 'a', '', 'zzyzx', '__proto__', 'constructor']) {
      expect(neighbours.of(word)).toEqual([]);
    }
    expect(isMeaningWord('météo')).toBe(true);
    expect(isMeaningWord('天气')).toBe(true);
    expect(isMeaningWord('v2')).toBe(false);
    expect(isMeaningWord('a')).toBe(false);
  });

  it('turns vectors that do not fit into a typed error, reported once', () => {
    const failing = (answer: () => unknown) =>
      createWordNeighbours(surface, answer as unknown as WordVectors);
    const expectInvalid = (action: () => unknown, message: RegExp) => {
      try {
        action();
        expect.unreachable();
      } catch (error) {
        expect(ToolSearchError.isInstance(error)).toBe(true);
        expect((error as ToolSearchError).code).toBe('INVALID_OPTIONS');
        expect((error as Error).message).toMatch(message);
      }
    };
    expectInvalid(() => failing(() => [[1, 0]]).of('umbrella'), /1 vectors for 5 words/);
    expectInvalid(() => failing(() => Promise.resolve([])).of('umbrella'), /synchronously/);
    expectInvalid(
      () =>
        failing(() => {
          throw new Error('model not loaded');
        }).of('umbrella'),
      /wordVectors threw/,
    );
    expectInvalid(
      () => failing(() => surface.slice(0, 5).map(() => [Number.NaN, 1])).of('umbrella'),
      /not finite/,
    );
    expectInvalid(
      () =>
        failing(() => surface.slice(0, 5).map((_, index) => (index === 0 ? [1, 0, 0] : [1, 0]))).of(
          'umbrella',
        ),
      /lengths/,
    );

    expectInvalid(() => failing(() => surface.slice(0, 5).map(() => null)).of('umbrella'), /not a vector/);

    // Reported once: a local model that fails on the catalog's words fails the same way again.
    const calls: string[][] = [];
    const broken = createWordNeighbours(surface, (words) => {
      calls.push([...words]);
      throw new Error('down');
    });
    expect(() => broken.of('umbrella')).toThrow(ToolSearchError);
    expect(broken.of('umbrella')).toEqual([]);
    expect(broken.of('eviction')).toEqual([]);
    expect(calls).toHaveLength(1);
    // A word whose own vector fails is reported once, and other words still find theirs.
    const badWord = createWordNeighbours(surface, (words) =>
      words.map((word) => (word === 'drizzle' ? [Number.NaN] : vectorOf(word))),
    );
    expect(() => badWord.of('drizzle')).toThrow(/lengths|not finite/);
    expect(badWord.of('drizzle')).toEqual([]);
    expect(badWord.of('umbrella')).toHaveLength(2);
  });

  it('finds the same neighbour through the prefilter of a large vocabulary', () => {
    // 2,000 terms of random 48-dimension vectors; each probe is a term's vector slightly moved.
    const uniform = seededRandom(7);
    const random = () => uniform() - 0.5;
    const letters = (index: number) =>
      Array.from({ length: 4 }, (_, place) =>
        String.fromCharCode(97 + (((index / 26 ** place) % 26) | 0)),
      ).join('');
    const terms = Array.from({ length: 2000 }, (_, index) => `w${letters(index)}`);
    const table = new Map(terms.map((term) => [term, Array.from({ length: 48 }, random)]));
    const probes = terms.filter((_, index) => index % 97 === 0);
    for (const probe of probes)
      table.set(
        `${probe}x`,
        table.get(probe)!.map((value) => value + random() * 0.1),
      );
    const neighbours = createWordNeighbours(terms, (words) => words.map((word) => table.get(word) ?? []));
    for (const probe of probes) expect(terms[neighbours.of(`${probe}x`)[0]!.term]).toBe(probe);
  });
});

describe('keyword ranker with word vectors', () => {
  const tools: ToolDescriptor[] = [
    { name: 'get_forecast', description: 'Rain and weather for a city.' },
    { name: 'list_events', description: 'Events on the calendar for tomorrow or any day.' },
    { name: 'find_rentals', description: 'Houses to rent, with each tenant review.' },
    { name: 'show_portfolio', description: 'Show the stock portfolio.' },
  ];
  const names = (results: readonly { name: string }[]) => results.map((result) => result.name);

  it('lets a word no tool contains match the tools of like meaning', () => {
    const plain = createKeywordRanker(tools);
    const vectors = scriptedVectors();
    const ranker = createKeywordRanker(tools, { wordVectors: vectors });
    expect(plain.search('umbrella')).toEqual([]);
    expect(names(ranker.search('umbrella'))).toEqual(['get_forecast']);
    expect(names(ranker.search('facing an eviction'))).toEqual(['find_rentals']);
    // After the catalog's words (once), only request words the catalog does not know are looked up.
    expect(vectors.calls.slice(1).flat()).toEqual(['umbrella', 'facing', 'eviction']);
    expect(names(ranker.search('tomorrow calendar'))).toEqual(['list_events']);
    expect(vectors.calls).toHaveLength(4);
  });

  it('no longer counts a request fully answered by its one known word', () => {
    const plain = createKeywordRanker(tools).search('umbrella tomorrow');
    const ranker = createKeywordRanker(tools, { wordVectors: scriptedVectors() });
    const results = ranker.search('umbrella tomorrow');
    expect(names(plain)).toEqual(['list_events']);
    // Each tool now answers one of the two words: the calendar tool's score falls.
    expect(names(results).sort()).toEqual(['get_forecast', 'list_events']);
    const events = results.find((result) => result.name === 'list_events')!;
    expect(events.score).toBeLessThan(plain[0]!.score);
    for (const result of results) expect(result.score).toBeGreaterThan(0);
  });

  it('tries a typo’s correction before meaning', () => {
    const vectors = scriptedVectors();
    const ranker = createKeywordRanker(tools, { wordVectors: vectors });
    expect(names(ranker.search('wether forcast'))[0]).toBe('get_forecast');
    // Both words were corrected as typos: the word vectors were never asked.
    expect(vectors.calls).toEqual([]);
  });

  it('answers without the word vectors when they fail, and says so to onError', () => {
    const onError = vi.fn(() => {
      throw new Error('a listener that throws changes nothing');
    });
    const ranker = createKeywordRanker(tools, {
      wordVectors: () => {
        throw new Error('model not loaded');
      },
      onError,
    });
    expect(ranker.search('umbrella tomorrow').map((result) => result.name)).toEqual(['list_events']);
    expect(onError).toHaveBeenCalledWith(expect.any(ToolSearchError));
    // Without onError the failure is silent and the search the same.
    const quiet = createKeywordRanker(tools, {
      wordVectors: () => {
        throw new Error('model not loaded');
      },
    });
    expect(names(quiet.search('umbrella tomorrow'))).toEqual(['list_events']);
  });

  it('takes odd requests in its stride: unicode, __proto__, a 100 kB request', () => {
    const ranker = createKeywordRanker(tools, { wordVectors: scriptedVectors() });
    expect(ranker.search('__proto__ constructor')).toEqual([]);
    expect(ranker.search('météo à Paris ☔')).toEqual([]);
    const long = `umbrella ${'lorem ipsum '.repeat(9_000)}`;
    expect(names(ranker.search(long))).toEqual(['get_forecast']);
  });

  it('looks up at most 32 words by meaning per search, the first ones, whatever the request', () => {
    const vectors = scriptedVectors();
    const ranker = createKeywordRanker(tools, { wordVectors: vectors });
    // 40 made-up words (no typos of catalog words), then "umbrella".
    const filler = Array.from(
      { length: 40 },
      (_, index) =>
        `zq${String.fromCharCode(97 + (index % 26))}${String.fromCharCode(97 + Math.floor(index / 26))}xv`,
    );
    expect(ranker.search(`${filler.join(' ')} umbrella`)).toEqual([]);
    expect(vectors.calls.slice(1).flat()).toHaveLength(32);
    expect(names(ranker.search(`umbrella ${filler.join(' ')}`))).toEqual(['get_forecast']);
  });

  it('rejects a wordVectors or onError that is not a function', () => {
    expect(() => createKeywordRanker(tools, { wordVectors: 'glove' as never })).toThrow(/wordVectors/);
    expect(() => createKeywordRanker(tools, { onError: 1 as never })).toThrow(/onError/);
  });
});
