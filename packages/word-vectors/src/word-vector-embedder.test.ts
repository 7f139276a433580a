import {
  createHybridRanker,
  createKeywordRanker,
  hashWord,
  type ToolDescriptor,
  ToolSearchError,
} from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import {
  createVocabulary,
  createWordVectorEmbedder,
  estimateWordProbability,
  splitGluedWord,
} from './word-vector-embedder';

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

  it('reads a word it does not know as known words glued together ("stellarexplorer")', () => {
    const zero = (vector: Float32Array) => vector.every((value) => value === 0);
    for (const [glued, apart] of [
      ['stellarexplorer', 'stellar explorer'],
      ['getfileslist', 'get files list'],
      ['keywordexplorer', 'keyword explorer'],
    ] as const) {
      expect(zero(embed(glued))).toBe(false);
      expect(cosine(embed(glued), embed(apart))).toBeGreaterThan(0.999);
      expect(cosine(embedder.embedWords([glued])[0]!, embed(apart))).toBeGreaterThan(0.999);
    }
    // Not split: parts of under three letters ("co" + "pilot"), more than three parts, letters
    // that are no words, and a word too long to be three of the vocabulary's words.
    for (const word of ['copilot', 'timezonedatafileslist', 'qqqwwweee', 'time'.repeat(40)]) {
      expect(zero(embed(word))).toBe(true);
    }
    // Within a text the parts count as the words they are, each once per occurrence.
    expect(cosine(embed('stellarexplorer tours'), embed('stellar explorer tours'))).toBeGreaterThan(0.999);
    // Texts with glued words embed unlike before: vectors cached under the old id are not reused.
    expect(embedder.id).toContain(':glued');
  });

  it('reads a word with an invisible character inside it, or a letter that has no decomposition, as the word', () => {
    // A soft hyphen or zero-width space (text copied from a web page) no longer splits a word
    // into two unknown or wrong ones, and æ, ø, ł, ß read as ae, o, l, ss, as accents are read.
    expect(
      cosine(embed('e\u00admail the wea\u200bther re\u2060port'), embed('email the weather report')),
    ).toBeGreaterThan(0.999);
    expect(cosine(embed('Æsthetic design'), embed('aesthetic design'))).toBeGreaterThan(0.999);
    // Texts with such words embed unlike before: vectors cached under the old id are not reused.
    expect(embedder.id).toContain(':folded');
  });

  it('weighs words by rarity: function words barely move a text', () => {
    const padded = 'the weather of the city and the forecast for it';
    const core = 'weather city forecast';
    expect(cosine(embed(padded), embed(core))).toBeGreaterThan(0.95);
    const flat = createWordVectorEmbedder({ smoothing: 1 }).embed([padded, core]);
    expect(cosine(embed(padded), embed(core))).toBeGreaterThan(cosine(flat[0]!, flat[1]!));
  });

  it('smooths by 2e-4 by default, and names it in its id (vectors cached under 1e-4 are not reused)', () => {
    const texts = ['get the weather forecast for a city', 'book a table at a restaurant'];
    expect(createWordVectorEmbedder().id).toContain(':sif=0.0002:');
    expect(createWordVectorEmbedder().embed(texts)).toEqual(
      createWordVectorEmbedder({ smoothing: 2e-4 }).embed(texts),
    );
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
    // An item that is not a text is an error, not a zero vector (nor the text "null").
    for (const item of [null, undefined, 42, {}]) {
      expect(() => embedder.embed(['weather', item as never])).toThrow(/item 1 is/);
      expect(() => embedder.embedWords([item as never])).toThrow(/item 0 is/);
    }
    expect(() => embedder.embed(new Array(2))).toThrow(/item 0 is undefined/);
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

  it('rejects a smoothing so small that the words count for nothing (every text a zero vector)', () => {
    for (const smoothing of [Number.MIN_VALUE, 1e-7, 1e-6, 9e-6]) {
      expect(() => createWordVectorEmbedder({ smoothing })).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTIONS' }),
      );
    }
    for (const vector of createWordVectorEmbedder({ smoothing: 1e-5 }).embed([
      'weather forecast',
      'create a ticket',
    ])) {
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    }
  });

  it('rejects options that are not an object, and a removeCommonDirection that is not a boolean', () => {
    expect(() => createWordVectorEmbedder('fast' as never)).toThrow(/takes an options object, got string/);
    expect(() => createWordVectorEmbedder({ removeCommonDirection: 'no' as never })).toThrow(
      /removeCommonDirection must be a boolean/,
    );
    expect(createWordVectorEmbedder(null).id).toBe(embedder.id);
  });

  it('rejects an option it does not have (a misspelt one built the default embedder)', () => {
    expect(() => createWordVectorEmbedder({ smooting: 1e-3 } as never)).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTIONS',
        message: 'unknown option `smooting` of createWordVectorEmbedder; did you mean `smoothing`?',
      }),
    );
    expect(() => createWordVectorEmbedder({ dimensions: 50 } as never)).toThrow(
      'unknown option `dimensions` of createWordVectorEmbedder; its options are smoothing, removeCommonDirection',
    );
    expect(() => createWordVectorEmbedder([] as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/got an array/) }),
    );
    expect(createWordVectorEmbedder({ smoothing: undefined, removeCommonDirection: true }).id).toBe(
      embedder.id,
    );
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

  it('lets the rankers find a tool by the words glued into its name ("diceroller")', () => {
    const tools: ToolDescriptor[] = [
      { name: 'diceroller', description: 'For a board game.' },
      { name: 'city_reviews', description: 'Reviews of a city by visitors.' },
      { name: 'stellarexplorer', description: 'An interactive guide.' },
    ];
    const names = (results: readonly { name: string }[] | Promise<unknown>) => {
      if (results instanceof Promise) throw new Error('the offline embedder ranks synchronously');
      return results.map((result) => result.name);
    };
    // No tool contains "roll" or "dice": the keyword ranker alone finds nothing.
    expect(names(createKeywordRanker(tools).search('roll two dice'))).toEqual([]);
    expect(names(createHybridRanker({ embedder })(tools).search('roll two dice', { topK: 1 }))).toEqual([
      'diceroller',
    ]);
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

  it('finds a word inside a longer text by its span and hash, without the string', () => {
    const vocabulary = createVocabulary(['time', 'zone', '__proto__', 'café']);
    const span = (text: string, start: number, end: number) =>
      vocabulary.findSpan(text, start, end, hashWord(text.slice(start, end)));
    expect(span('timezone', 0, 4)).toBe(0);
    expect(span('timezone', 4, 8)).toBe(1);
    expect(span('x__proto__x', 1, 10)).toBe(2);
    expect(span('un café', 3, 7)).toBe(3);
    expect(span('timezone', 0, 3)).toBe(-1); // a prefix of a word is not the word
    expect(span('timezone', 0, 8)).toBe(-1);
    expect(span('zones', 0, 5)).toBe(-1);
  });
});

describe('splitGluedWord', () => {
  // Position = index; the ranks make "files" likelier than "slist", "file" likelier than "files".
  const words = ['get', 'file', 'files', 'list', 'slist', 'time', 'zones', 'co', 'pilot', '__proto__'];
  const ranks = Uint32Array.from([10, 40, 50, 60, 30_000, 20, 900, 5, 3_000, 99]);
  const table = { ranks, vocabularySize: 40_000 };
  const vocabulary = createVocabulary(words);
  const split = (word: string) => splitGluedWord(word, vocabulary, table)?.map((position) => words[position]);

  it('takes the split whose parts are likeliest by Zipf’s law', () => {
    expect(split('getfileslist')).toEqual(['get', 'files', 'list']);
    expect(split('timezones')).toEqual(['time', 'zones']);
    expect(split('filelist')).toEqual(['file', 'list']);
  });

  it('splits into two or three known parts of three letters or more, letters only', () => {
    expect(split('file')).toBeUndefined(); // one part is a word, not a glued word
    expect(split('copilot')).toBeUndefined(); // "co" is too short
    expect(split('getfilelisttime')).toBeUndefined(); // four parts
    expect(split('file2list')).toBeUndefined();
    expect(split('filexlist')).toBeUndefined();
    expect(split('__proto__list')).toBeUndefined();
    expect(split('')).toBeUndefined();
    expect(split('fïlelist')).toBeUndefined();
    // Longer than three of the longest word: rejected before any lookup.
    expect(split('file'.repeat(7))).toBeUndefined();
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
