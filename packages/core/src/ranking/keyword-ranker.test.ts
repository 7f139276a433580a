import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../types';
import { errorCode } from './__fixtures__/error-code';
import { sampleCatalog } from './__fixtures__/sample-catalog';
import { createKeywordRanker } from './keyword-ranker';

const ranker = createKeywordRanker(sampleCatalog);
const names = (query: string, topK = 5) => ranker.search(query, { topK }).map((result) => result.name);
const first = (query: string) => names(query, 1)[0];

describe('keyword ranker: what it searches', () => {
  it('finds a tool by the words of its name, in any naming style', () => {
    expect(first('forecast weather')).toBe('get_weather_forecast');
    expect(first('flight status')).toBe('getFlightStatus');
  });

  it('finds a tool by its description, parameters (nested too) and tags', () => {
    expect(first('pull requests')).toBe('list_github_prs');
    expect(first('recipient attachment')).toBe('sendEmail');
    expect(first('compliance')).toBe('archiveRecords');
  });

  it('weighs a name hit over a description hit over a parameter hit', () => {
    const tools: ToolDescriptor[] = [
      { name: 'inParameters', description: 'Does things.', parameters: { properties: { invoice: text() } } },
      { name: 'inDescription', description: 'Reads an invoice.' },
      { name: 'getInvoice', description: 'Reads a thing.' },
    ];
    expect(
      createKeywordRanker(tools)
        .search('invoice')
        .map((result) => result.name),
    ).toEqual(['getInvoice', 'inDescription', 'inParameters']);
  });
});

function text() {
  return { type: 'string' };
}

describe('keyword ranker: word forms, typos, chatty requests', () => {
  it('matches word forms', () => {
    expect(first('weather')).toBe('getWeather');
    expect(first('tickets')).toBe('createTicket');
    expect(first('searching documents')).toBe('searchDocuments');
  });

  it('ranks the same after more distinct request words than it remembers the stems of', () => {
    const used = createKeywordRanker(sampleCatalog);
    const queries = ['searching documents', 'forecasts for the weather', 'creating tickets'];
    const before = queries.map((query) => used.search(query));
    // 5,000 made-up words, 50 per request: the remembered stems start over on the way.
    for (let request = 0; request < 100; request++) {
      const words = Array.from({ length: 50 }, (_, word) => `zq${request}x${word}ings`);
      used.search(words.join(' '));
    }
    expect(queries.map((query) => used.search(query))).toEqual(before);
    expect(before.map((results) => results[0]?.name)).toEqual([
      'searchDocuments',
      'get_weather_forecast',
      'createTicket',
    ]);
  });

  it('tolerates small typos', () => {
    expect(first('whether forcast')).toBe('get_weather_forecast');
    expect(first('convert curency')).toBe('convertCurrency');
    // Without typo tolerance the typos find nothing better than "forecast" alone.
    const strict = createKeywordRanker(sampleCatalog, { fuzzy: false });
    expect(strict.search('whther forcast')).toEqual([]);
  });

  it('takes equally close and common spellings in code-unit order, whatever the catalog order', () => {
    // "hear" is one edit from each of the five; three stand in for it.
    const tools: ToolDescriptor[] = ['head', 'heat', 'heap', 'heal', 'heard'].map((word) => ({
      name: `${word}_tool`,
      description: `Reads the ${word}.`,
    }));
    const ranked = (catalog: ToolDescriptor[]) =>
      createKeywordRanker(catalog)
        .search('hear', { topK: 5 })
        .map((result) => `${result.name} ${result.score}`);
    const forward = ranked(tools);
    expect(forward.map((line) => line.split(' ')[0])).toEqual(['head_tool', 'heal_tool', 'heap_tool']);
    expect(ranked([...tools].reverse())).toEqual(forward);
  });

  it('does not let the common words of a chatty request drown the words that matter', () => {
    const chatty = ranker.search('Hey, can you please help me with the weather?');
    expect(chatty.slice(0, 3).map((result) => result.name)).toEqual(names('weather', 3));
    // "help" names helpCenterArticles, but as a chatty word it weighs a tenth of a content word.
    const help = chatty.find((result) => result.name === 'helpCenterArticles');
    expect(help?.score ?? 0).toBeLessThan(0.2);
    expect(names('could you please tell me if there are any flight deals for me', 1)).toEqual([
      'listFlightDeals',
    ]);
  });

  it('does not double a score for a repeated word', () => {
    expect(ranker.search('weather weather weather forecast')).toEqual(ranker.search('weather forecast'));
    expect(ranker.search('tickets ticket')).toEqual(ranker.search('ticket'));
  });
});

describe('keyword ranker: names, languages, multi-part requests', () => {
  it('ranks a tool first when the request names it, exactly or nearly', () => {
    for (const query of [
      'list_github_prs',
      'listGithubPrs',
      'list-github-prs',
      'ListGithubPR',
      'list github prs',
      'please run `list_github_prs()` for the issues of my GitHub repository',
    ]) {
      const [top] = ranker.search(query);
      expect(top, query).toEqual({ name: 'list_github_prs', description: expect.any(String), score: 1 });
    }
  });

  it('does not treat a plain word as naming a one-word tool inside a longer request', () => {
    const tools = [
      { name: 'search', description: 'Design courses.' },
      { name: 'searchFlights', description: 'Flights.' },
    ];
    expect(createKeywordRanker(tools).search('search flights')[0]!.name).toBe('searchFlights');
  });

  it('matches Spanish and Chinese requests on what they share with a tool', () => {
    expect(first('¿Búsqueda de vuelos baratos a Madrid?')).toBe('buscarVuelos');
    expect(first('北京明天的天气预报')).toBe('cityWeatherCn');
  });

  it('finds a tool in its own script whatever the case, diacritics or invisible characters of either', () => {
    const ranker = createKeywordRanker([
      { name: 'lights', description: 'Işıkları aç veya kapat' },
      { name: 'timetable', description: 'Rozkład jazdy tramwajów w Łodzi' },
      { name: 'weather', description: 'توقعات الطقس للمدينة' },
      { name: 'mailer', description: 'Send an e\u00admail to a con\u200btact' },
      { name: 'other', description: 'Something else entirely' },
    ]);
    const top = (query: string) => ranker.search(query, { topK: 1 })[0]?.name;
    expect(top('IŞIKLARI')).toBe('lights');
    expect(top('rozklad lodzi')).toBe('timetable');
    expect(top('الطَّقْس')).toBe('weather');
    expect(top('email contact')).toBe('mailer');
  });

  it('returns tools for every part of a multi-part request', () => {
    const query = 'find flights to Rome and convert 200 euros to dollars';
    const top = names(query, 3);
    expect(top).toContain('search_flights');
    expect(top).toContain('convertCurrency');
    const together = names('Check the weather in Rome. Then open a support ticket.', 2);
    expect(together.sort()).toEqual(['createTicket', 'getWeather']);
  });

  it('gives a weakly matched part its place next to a strongly matched one', () => {
    // Two parts about flights match five flight tools; the weather part must still get a slot.
    const query =
      'Search flights between two airports on a date, book a seat on the flight, and check the weather';
    const withParts = names(query, 4);
    expect(withParts).toEqual(expect.arrayContaining(['search_flights', 'bookFlight', 'getWeather']));
    const withoutParts = createKeywordRanker(sampleCatalog, { multiPart: false })
      .search(query, { topK: 4 })
      .map((result) => result.name);
    expect(withoutParts).not.toContain('getWeather');
  });
});

describe('keyword ranker: scores', () => {
  it('scores in 0..1, best first, and calls a word found in a name a full match', () => {
    expect(ranker.search('weather forecast')[0]).toMatchObject({ name: 'get_weather_forecast', score: 1 });
    for (const query of [
      'weather forecast',
      'city airport flight',
      'find flights to Rome and convert 200 euros to dollars',
      'Check the weather in Rome. Then open a support ticket; and list the pull requests.',
    ]) {
      const results = ranker.search(query, { topK: 20 });
      expect(results.length, query).toBeGreaterThan(1);
      for (const [position, result] of results.entries()) {
        expect(result.score).toBeGreaterThan(0);
        expect(result.score).toBeLessThanOrEqual(1);
        if (position > 0) expect(result.score, query).toBeLessThanOrEqual(results[position - 1]!.score);
      }
    }
  });

  it('drops results under minScore', () => {
    const all = ranker.search('city airport flight', { topK: 20 });
    const strong = ranker.search('city airport flight', { topK: 20, minScore: 0.4 });
    expect(strong.length).toBeGreaterThan(0);
    expect(strong.length).toBeLessThan(all.length);
    expect(strong).toEqual(all.filter((result) => result.score >= 0.4));
  });

  it('breaks ties by name and honours topK', () => {
    const tools = ['delta', 'alpha', 'charlie', 'bravo'].map((name) => ({
      name,
      description: 'Same words.',
    }));
    const same = createKeywordRanker(tools);
    expect(same.search('same words', { topK: 3 }).map((result) => result.name)).toEqual([
      'alpha',
      'bravo',
      'charlie',
    ]);
  });

  it('leaves nothing of a search behind for the next, whether it touched few tools or most', () => {
    // 400 tools: every one has "record", one in eight "audit", and each a word of its own.
    const own = (index: number) =>
      `mark${String.fromCharCode(97 + Math.floor(index / 26))}${String.fromCharCode(97 + (index % 26))}`;
    const tools: ToolDescriptor[] = Array.from({ length: 400 }, (_, index) => ({
      name: `tool_${index}`,
      description: `Keeps a record${index % 8 === 0 ? ' for the audit' : ''}; code word ${own(index)}.`,
    }));
    const shared = createKeywordRanker(tools);
    const later = [`${own(7)} and ${own(9)}`, `audit the record ${own(5)}`, own(12)];
    // Every tool's score compared, not only the first ten.
    const expected = later.map((query) => createKeywordRanker(tools).search(query, { topK: 400 }));
    // Searches that touch every tool, one, and several parts, before each later one.
    for (const before of ['record', own(5), `audit every record, then ${own(3)}, then ${own(4)}`]) {
      for (const [index, query] of later.entries()) {
        shared.search(before, { topK: 10 });
        expect(shared.search(query, { topK: 400 })).toEqual(expected[index]);
      }
    }
  });

  it('returns nothing for a request that shares no word with the catalog', () => {
    expect(ranker.search('zebra xylophone quux')).toEqual([]);
  });
});

describe('keyword ranker: bad input', () => {
  it('gives a clean result for empty, blank, punctuation-only, huge and odd queries', () => {
    for (const query of [
      '',
      '   ',
      '?!…---',
      '🙂🙂',
      '\u0000\uffff',
      'x'.repeat(100_000),
      'weather '.repeat(15_000),
    ]) {
      const results = ranker.search(query);
      expect(Array.isArray(results)).toBe(true);
      expect(results.length).toBeLessThanOrEqual(5);
    }
  });

  it('is safe with __proto__ and constructor as tool names and queries', () => {
    const tools: ToolDescriptor[] = [
      { name: '__proto__', description: 'Prototype tool.' },
      { name: 'constructor', description: 'Builds things.' },
      { name: 'toString', description: 'Text.' },
      { name: 'hasOwnProperty', description: 'Checks.' },
    ];
    const odd = createKeywordRanker(tools);
    expect(odd.search('__proto__')[0]).toMatchObject({ name: '__proto__', score: 1 });
    expect(odd.search('constructor')[0]).toMatchObject({ name: 'constructor', score: 1 });
    expect(odd.search('toString valueOf')[0]!.name).toBe('toString');
    expect(ranker.search('__proto__ constructor prototype')).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  it('reads descriptors defensively', () => {
    const tools = [
      { name: 'a', description: 42, parameters: 'nope', tags: 'x' },
      { name: 'b', parameters: { properties: { self: {} } } },
    ] as unknown as ToolDescriptor[];
    const cyclic = tools[1]!.parameters!.properties as Record<string, unknown>;
    cyclic.self = tools[1]!.parameters;
    expect(createKeywordRanker(tools).search('self')[0]!.name).toBe('b');
  });

  it('rejects invalid options and non-string queries with typed errors', () => {
    expect(errorCode(() => ranker.search('weather', { topK: -1 }))).toBe('INVALID_OPTIONS');
    expect(errorCode(() => ranker.search('weather', { topK: Number.NaN }))).toBe('INVALID_OPTIONS');
    expect(errorCode(() => ranker.search('weather', { minScore: Number.NaN }))).toBe('INVALID_OPTIONS');
    expect(errorCode(() => ranker.search(42 as unknown as string))).toBe('INVALID_INPUT');
    expect(ranker.search('weather', { topK: 0 })).toEqual([]);
    expect(ranker.search('weather', { topK: 2.7 })).toHaveLength(2);
  });

  it('rejects options that are not an object, misspelt field weights and flags that are not booleans', () => {
    const tools = sampleCatalog;
    const code = (options: unknown) => errorCode(() => createKeywordRanker(tools, options as never));
    expect(code('fast')).toBe('INVALID_OPTIONS');
    expect(code({ fieldWeights: { name: 0, tags: 0, description: 0, parameters: 0, nmae: 3 } })).toBe(
      'INVALID_OPTIONS',
    );
    expect(code({ fieldWeights: [3] })).toBe('INVALID_OPTIONS');
    for (const flag of ['stemming', 'fuzzy', 'multiPart'])
      expect(code({ [flag]: 'false' })).toBe('INVALID_OPTIONS');
    expect(createKeywordRanker(tools, null).search('weather').length).toBeGreaterThan(0);
    expect(
      createKeywordRanker(tools, { fieldWeights: { name: 2 }, fuzzy: false }).search('weather').length,
    ).toBeGreaterThan(0);
  });

  it('works on an empty catalog', () => {
    expect(createKeywordRanker([]).search('weather')).toEqual([]);
  });

  it('rejects a tool list that is not an array of uniquely named descriptors, with typed errors', () => {
    const code = (tools: unknown) => errorCode(() => createKeywordRanker(tools as ToolDescriptor[]));
    for (const tools of [undefined, null, {}, 'abc', 7]) expect(code(tools)).toBe('INVALID_OPTIONS');
    for (const tools of [
      [null],
      ['a'],
      [{}],
      [{ name: '' }],
      [{ name: ' ' }],
      [{ name: 5 }],
      [{ description: 'x' }],
    ]) {
      expect(code(tools)).toBe('INVALID_TOOL_NAME');
    }
    expect(code([{ name: 'a' }, { name: 'b' }, { name: 'a', description: 'again' }])).toBe(
      'DUPLICATE_TOOL_NAME',
    );
    expect(code([{ name: '__proto__' }, { name: 'constructor' }])).toBe('none');
  });
});
