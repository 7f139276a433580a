import {
  createHybridRanker,
  createKeywordRanker,
  type ToolDescriptor,
  ToolSearchError,
} from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { createVocabulary, createWordVectorEmbedder, estimateWordProbability } from './word-vector-embedder';

const cosine = (left: Float32Array, right: Float32Array): number => {
  let sum = 0;
  for (let index = 0; index < left.length; index++) sum += left[index]! * right[index]!;
  return sum;
};

describe('createWordVectorEmbedder', () => {
  const embedder = createWordVectorEmbedder();
  const embed = (text: string) => embedder.embed([text])[0]!;

  it('gives one unit vector of 100 dimensions per text, synchronously', () => {
    expect(embedder.dimensions).toBe(100);
    const vectors = embedder.embed(['weather forecast', 'send an email']);
    expect(vectors).toHaveLength(2);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(100);
      expect(cosine(vector, vector)).toBeCloseTo(1, 5);
    }
    expect(embedder.embed([])).toEqual([]);
  });

  it('places texts about the same thing close together even without shared words', () => {
    const rain = embed('will it rain tomorrow');
    expect(cosine(rain, embed('weather forecast for the coming days'))).toBeGreaterThan(
      cosine(rain, embed('convert an amount between currencies')) + 0.1,
    );
    const money = embed('how many dollars is 200 euros');
    expect(cosine(money, embed('currency exchange rates'))).toBeGreaterThan(
      cosine(money, embed('book a flight')),
    );
  });

  it('splits identifiers into words and tries words without a common ending', () => {
    expect(cosine(embed('getWeatherForecast'), embed('get weather forecast'))).toBeGreaterThan(0.999);
    expect(cosine(embed('send_email_message'), embed('send email message'))).toBeGreaterThan(0.999);
    expect(cosine(embed('forecasting'), embed('forecast'))).toBeGreaterThan(0.6);
  });

  it('weighs words by rarity: function words barely move a text', () => {
    const padded = 'the weather of the city and the forecast for it';
    const core = 'weather city forecast';
    expect(cosine(embed(padded), embed(core))).toBeGreaterThan(0.95);
    const flat = createWordVectorEmbedder({ smoothing: 1 }).embed([padded, core]);
    expect(cosine(embed(padded), embed(core))).toBeGreaterThan(cosine(flat[0]!, flat[1]!));
  });

  it('removes the direction all text shares, so unrelated texts are not alike', () => {
    const texts = [
      'the stock market fell',
      'a recipe for pancakes',
      'translate this into french',
      'play some jazz',
    ];
    const vectors = embedder.embed(texts);
    for (let left = 0; left < vectors.length; left++) {
      for (let right = left + 1; right < vectors.length; right++) {
        expect(cosine(vectors[left]!, vectors[right]!)).toBeLessThan(0.5);
      }
    }
    const keep = createWordVectorEmbedder({ removeCommonDirection: false });
    expect(keep.id).not.toBe(embedder.id);
  });

  it('gives the zero vector to a text with no known word, and survives odd input', () => {
    for (const text of ['', '   ', '☔☔', 'zzqxv qqxzv', '天気予報']) {
      expect(embed(text).every((value) => value === 0)).toBe(true);
    }
    expect(embedder.embed(['__proto__', 'constructor', 'weather '.repeat(20_000)])).toHaveLength(3);
    expect(() => embedder.embed('weather' as never)).toThrow(ToolSearchError);
  });

  it('leaves out the most frequent words, and gives the same vectors however many words it has met', () => {
    expect(embed('the of and to a in').every((value) => value === 0)).toBe(true);
    expect(cosine(embed('the weather in the city'), embed('weather city'))).toBeGreaterThan(0.999);
    const fresh = createWordVectorEmbedder();
    const before = fresh.embed(['forecasting the weather', 'Café météo'])[0]!;
    // Far more distinct words than it remembers: its word memory restarts on the way.
    const letters = (index: number): string =>
      index < 26
        ? String.fromCharCode(97 + index)
        : letters(Math.floor(index / 26) - 1) + letters(index % 26);
    fresh.embed(Array.from({ length: 70_000 }, (_, index) => `zq${letters(index)}`));
    expect(fresh.embed(['forecasting the weather'])[0]).toEqual(before);
    expect(cosine(fresh.embed(['Café météo'])[0]!, embed('cafe meteo'))).toBeGreaterThan(0.999);
  });

  it('rejects a smoothing that is not a positive number', () => {
    for (const smoothing of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createWordVectorEmbedder({ smoothing })).toThrow(ToolSearchError);
    }
    expect(createWordVectorEmbedder({ smoothing: 1e-3 }).id).toContain('sif=0.001');
  });

  it('estimates word frequencies from ranks with Zipf’s law (they sum to about 1)', () => {
    let total = 0;
    for (let rank = 1; rank <= 400_000; rank++) total += estimateWordProbability(rank, 400_000);
    expect(total).toBeGreaterThan(0.95);
    expect(total).toBeLessThan(1.05);
    expect(estimateWordProbability(1, 400_000)).toBeGreaterThan(estimateWordProbability(1000, 400_000));
  });

  it('lets the hybrid ranker find a tool that shares no word with the request', () => {
    const tools: ToolDescriptor[] = [
      { name: 'get_forecast', description: 'Weather forecast for a city: temperature and precipitation.' },
      { name: 'convert_currency', description: 'Converts an amount of money between currencies.' },
      { name: 'search_flights', description: 'Finds flights between two airports.' },
      { name: 'send_email', description: 'Sends an email to a recipient.' },
    ];
    const ranker = createHybridRanker({ embedder, weight: 0.5 })(tools);
    const results = ranker.search('will it rain tomorrow?', { topK: 1 });
    if (results instanceof Promise) throw new Error('the offline embedder ranks synchronously');
    expect(results[0]?.name).toBe('get_forecast');
  });
});

describe('createVocabulary', () => {
  it('finds every word at its position, the first of repeated words, and nothing else', () => {
    const words = Array.from({ length: 20_000 }, (_, index) => `w${index.toString(36)}`);
    words.push('__proto__', 'constructor', '', 'w0', 'café');
    const vocabulary = createVocabulary(words);
    for (let position = 0; position < 20_000; position++)
      expect(vocabulary.find(words[position]!)).toBe(position);
    expect(vocabulary.find('__proto__')).toBe(20_000);
    expect(vocabulary.find('constructor')).toBe(20_001);
    expect(vocabulary.find('')).toBe(20_002);
    expect(vocabulary.find('w0')).toBe(0);
    expect(vocabulary.find('café')).toBe(20_004);
    for (const unknown of ['cafe', 'toString', 'w', 'zzzzzz', 'W0'])
      expect(vocabulary.find(unknown)).toBe(-1);
    expect(createVocabulary([]).find('anything')).toBe(-1);
  });
});

describe('createWordVectorEmbedder: word vectors for the keyword ranking', () => {
  const embedder = createWordVectorEmbedder();

  it('gives a word the vector of the one-word text, and the zero vector to an unknown word', () => {
    const words = embedder.embedWords(['sunny', 'forecast', 'zzyzxq']);
    const texts = embedder.embed(['sunny', 'forecast', 'zzyzxq']);
    expect(words).toEqual(texts);
    expect(cosine(words[0]!, words[0]!)).toBeCloseTo(1, 5);
    expect(words[2]!.every((value) => value === 0)).toBe(true);
    expect(() => embedder.embedWords('sunny' as never)).toThrow(ToolSearchError);
  });

  it('lets the keyword ranker answer a word no tool contains ("sunny" → the weather tool)', () => {
    const tools: ToolDescriptor[] = [
      { name: 'get_weather', description: 'Current weather and rain for a city.' },
      { name: 'list_events', description: 'Calendar events for a day.' },
      { name: 'get_stock_price', description: 'Latest price of a stock.' },
    ];
    expect(createKeywordRanker(tools).search('is it sunny?')).toEqual([]);
    const ranker = createKeywordRanker(tools, { wordVectors: (words) => embedder.embedWords(words) });
    expect(ranker.search('is it sunny?').map((result) => result.name)).toEqual(['get_weather']);
    // A word matched by meaning is a partial answer, never a full one.
    expect(ranker.search('is it sunny?')[0]!.score).toBeLessThan(0.75);
  });
});
