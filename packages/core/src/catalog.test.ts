import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { catalogOrderRanker, entry } from './__fixtures__/engine-fixtures';
import {
  buildCatalog,
  createRequestCatalogCache,
  isValidToolName,
  mayNameTool,
  type RejectedToolReason,
} from './catalog';
import type { CatalogEntry } from './types';

describe('buildCatalog', () => {
  it('looks tools up by name, alias and (when unambiguous) case-folded name', () => {
    const weather = entry('getWeather', { aliases: ['get-weather', 'getWeather'] });
    const catalog = buildCatalog([weather, entry('Mail'), entry('mail')], {
      mode: 'strict',
      rankerFactory: catalogOrderRanker,
    });
    expect(catalog.size).toBe(3);
    expect(catalog.byName('getWeather')).toBe(weather);
    expect(catalog.byAlias('get-weather')).toBe(weather);
    expect(catalog.byFoldedName('GETWEATHER')).toBe(weather);
    expect(catalog.byFoldedName('MAIL')).toBeUndefined(); // two tools fold to it
    expect(catalog.byName('__proto__')).toBeUndefined();
  });

  it('lets aliases be searched', async () => {
    const factory = vi.fn(catalogOrderRanker);
    const catalog = buildCatalog([entry('weather', { aliases: ['get-weather'] })], {
      mode: 'strict',
      rankerFactory: factory,
    });
    expect(factory).not.toHaveBeenCalled(); // built on first use
    catalog.ranker();
    catalog.ranker();
    expect(factory).toHaveBeenCalledTimes(1);
    expect(factory.mock.calls[0]![0][0]!.tags).toEqual(['get-weather']);
  });

  it("in 'lenient' mode, leaves out what 'strict' refuses and says why", () => {
    const rejected: [string, RejectedToolReason][] = [];
    const catalog = buildCatalog(
      [
        entry('a', { aliases: ['b', 'shared', 'load_tool', ''] }),
        entry('b', { aliases: ['shared'] }),
        entry('b'),
        entry('search_tools'),
        { descriptor: {}, tool: {} } as unknown as CatalogEntry<never>,
      ],
      {
        mode: 'lenient',
        rankerFactory: catalogOrderRanker,
        onReject: (name, reason) => rejected.push([name, reason]),
      },
    );
    expect([...catalog.names()]).toEqual(['a', 'b']);
    expect(catalog.byAlias('shared')?.descriptor.name).toBe('a');
    expect(rejected).toEqual([
      ['b', 'duplicate-name'],
      ['search_tools', 'reserved-name'],
      ['undefined', 'invalid-name'],
      ['a', 'alias-conflict'],
      ['a', 'reserved-name'],
      ['a', 'invalid-name'],
      ['b', 'alias-conflict'],
    ]);
  });

  it('refuses a description that is not a string, and tags or aliases that are not an array (INVALID_OPTIONS)', () => {
    const bad = [
      { descriptor: { name: 'getWeather', description: 5 }, tool: {} },
      { descriptor: { name: 'getWeather', description: { text: 'weather' } }, tool: {} },
      { descriptor: { name: 'getWeather' }, tool: {}, aliases: 5 },
      { descriptor: { name: 'getWeather' }, tool: {}, aliases: 'wx' },
      { descriptor: { name: 'getWeather', tags: 'weather' }, tool: {} },
      { descriptor: { name: 'getWeather', tags: 'weather' }, tool: {}, aliases: ['wx'] },
    ] as unknown as CatalogEntry<unknown>[];
    for (const tool of bad) {
      expect(() => buildCatalog([tool], { mode: 'strict', rankerFactory: catalogOrderRanker })).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTIONS' }),
      );
    }
    // No description (undefined or null) is fine.
    const fine = [
      { descriptor: { name: 'a' }, tool: {} },
      { descriptor: { name: 'b', description: null, tags: null }, tool: {}, aliases: null },
    ] as unknown as CatalogEntry<unknown>[];
    expect(buildCatalog(fine, { mode: 'strict', rankerFactory: catalogOrderRanker }).size).toBe(2);
  });

  it("in 'lenient' mode, leaves out a tool with a bad description, tags or aliases (a string is not read letter by letter)", () => {
    const rejected: [string, RejectedToolReason][] = [];
    const catalog = buildCatalog(
      [
        { descriptor: { name: 'getWeather', description: 5 }, tool: {} },
        { descriptor: { name: 'sendEmail' }, tool: {}, aliases: 'wx' },
        { descriptor: { name: 'listFiles', tags: 'files' }, tool: {}, aliases: ['ls'] },
        { descriptor: { name: 'getWeather', description: 'The weather' }, tool: {} },
      ] as unknown as CatalogEntry<unknown>[],
      {
        mode: 'lenient',
        rankerFactory: catalogOrderRanker,
        onReject: (name, reason) => rejected.push([name, reason]),
      },
    );
    expect([...catalog.names()]).toEqual(['getWeather']);
    expect(catalog.byName('getWeather')?.descriptor.description).toBe('The weather');
    expect(catalog.byAlias('w')).toBeUndefined();
    expect(rejected).toEqual([
      ['getWeather', 'invalid-entry'],
      ['sendEmail', 'invalid-entry'],
      ['listFiles', 'invalid-entry'],
    ]);
  });

  it('refuses names that are not well-formed Unicode (a lone surrogate cannot round-trip through UTF-8)', () => {
    expect(isValidToolName('tool\ud800')).toBe(false);
    expect(isValidToolName('\udc00tool')).toBe(false);
    expect(isValidToolName('tool\udc00\ud800')).toBe(false);
    expect(isValidToolName('weather😀')).toBe(true);
    expect(() =>
      buildCatalog([entry('tool\ud800')], { mode: 'strict', rankerFactory: catalogOrderRanker }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_TOOL_NAME' }));
    expect(() =>
      buildCatalog([entry('tool', { aliases: ['alias\ud800'] })], {
        mode: 'strict',
        rankerFactory: catalogOrderRanker,
      }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_TOOL_NAME' }));
  });
});

describe('createRequestCatalogCache', () => {
  const build = vi.fn((entries: readonly CatalogEntry<unknown>[]) =>
    buildCatalog(entries, { mode: 'lenient', rankerFactory: catalogOrderRanker }),
  );

  it('reuses a catalog for the same array, and for a new array of the same tool objects', () => {
    build.mockClear();
    const cached = createRequestCatalogCache(build);
    const tools = [entry('a'), entry('b', { aliases: ['bee'] })];
    const catalog = cached(tools);
    expect(cached(tools)).toBe(catalog);
    expect(cached(tools.map((tool) => ({ ...tool })))).toBe(catalog);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('builds anew when a tool object, a name, an alias or the length differs', () => {
    build.mockClear();
    const cached = createRequestCatalogCache(build);
    const tools = [entry('a'), entry('b')];
    const catalog = cached(tools);
    expect(cached([tools[0]!, entry('b')])).not.toBe(catalog);
    expect(cached([tools[0]!, { ...tools[1]!, descriptor: { name: 'c' } }])).not.toBe(catalog);
    expect(cached([tools[0]!, { ...tools[1]!, aliases: ['x'] }])).not.toBe(catalog);
    expect(cached([tools[0]!])).not.toBe(catalog);
    expect(build).toHaveBeenCalledTimes(5);
  });

  it('compares aliases that are not an array without throwing, and only by identity', () => {
    build.mockClear();
    const cached = createRequestCatalogCache(build);
    const tool = { descriptor: { name: 'b' }, tool: {} };
    const odd = [{ ...tool, aliases: 5 }] as unknown as CatalogEntry<unknown>[];
    const catalog = cached(odd);
    expect(catalog.size).toBe(0);
    expect(cached(odd.map((item) => ({ ...item })))).toBe(catalog);
    expect(cached([tool] as CatalogEntry<unknown>[]).size).toBe(1);
    expect(build).toHaveBeenCalledTimes(2);
  });
});

describe('mayNameTool', () => {
  const catalogOf = (names: readonly string[]) =>
    buildCatalog(
      names.map((name) => entry(name)),
      { mode: 'lenient', rankerFactory: catalogOrderRanker },
    );

  it('knows the longest name a catalog can be found by: names, aliases and their folded forms', () => {
    expect(catalogOf(['ab', 'abcd']).longestName).toBe(4);
    expect(catalogOf(['İİİ']).longestName).toBe(6); // each İ lowercases to i + a combining dot
    const aliased = buildCatalog([entry('a', { aliases: ['a_longer_alias'] })], {
      mode: 'strict',
      rankerFactory: catalogOrderRanker,
    });
    expect(aliased.longestName).toBe('a_longer_alias'.length);
  });

  it('never turns away a name that finds a tool in another case or normalisation form', () => {
    // Pieces whose forms differ in length: decomposed accents, Hangul jamo, ᾂ (four characters decomposed), İ, ß, Σ.
    const piece = fc.constantFrom(
      'a',
      'É',
      'e\u0301',
      'İ',
      'ß',
      'ᾂ',
      '\u1100\u1161\u11a8',
      '가',
      'Σ',
      'ς',
      '_',
      '😀',
    );
    const form = fc.constantFrom<(text: string) => string>(
      (text) => text,
      (text) => text.toUpperCase(),
      (text) => text.toLowerCase(),
      (text) => text.normalize('NFD'),
      (text) => text.normalize('NFC'),
      (text) => text.toUpperCase().normalize('NFD'),
      (text) => text.toLowerCase().normalize('NFD'),
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 12 }), form, form, (pieces, named, typed) => {
        const name = named(pieces.join(''));
        const catalog = catalogOf([name]);
        const asked = typed(name);
        if (catalog.byName(asked) !== undefined || catalog.byFoldedName(asked) !== undefined) {
          expect(mayNameTool(asked, catalog.longestName)).toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('turns away a longer name without folding it', () => {
    expect(mayNameTool('abcd', 4)).toBe(true);
    expect(mayNameTool('abcde', 4)).toBe(false);
    expect(mayNameTool('e\u0301e\u0301', 2)).toBe(true);
    expect(mayNameTool('x'.repeat(17), 4)).toBe(false);
  });
});
