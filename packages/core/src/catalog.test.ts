import { describe, expect, it, vi } from 'vitest';
import { catalogOrderRanker, entry } from './__fixtures__/engine-fixtures';
import { buildCatalog, createRequestCatalogCache, type RejectedToolReason } from './catalog';
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
});
