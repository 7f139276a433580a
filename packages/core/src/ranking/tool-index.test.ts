import { describe, expect, it } from 'vitest';
import type { Ranker, ToolDescriptor } from '../types';
import { errorCode } from './__fixtures__/error-code';
import { sampleCatalog } from './__fixtures__/sample-catalog';
import { createToolIndex } from './tool-index';

describe('createToolIndex', () => {
  const index = createToolIndex({ tools: sampleCatalog });

  it('holds the catalog and searches it with the keyword ranker', () => {
    expect(index.size).toBe(sampleCatalog.length);
    expect(index.has('getWeather')).toBe(true);
    expect(index.has('nope')).toBe(false);
    expect(index.get('getWeather')).toBe(sampleCatalog[0]);
    expect(index.names()).toEqual(sampleCatalog.map((tool) => tool.name));
    const results = index.search('weather forecast', { topK: 3 });
    expect(results.map((result) => result.name)[0]).toBe('get_weather_forecast');
    expect(results).toHaveLength(3);
    expect(index.search('weather')).toHaveLength(3);
  });

  it('returns a copy of the names', () => {
    (index.names() as string[]).push('injected');
    expect(index.has('injected')).toBe(false);
    expect(index.names()).toHaveLength(sampleCatalog.length);
  });

  it('rejects missing, empty and non-string names', () => {
    for (const tools of [
      [{ name: '' }],
      [{ name: '  ' }],
      [{ name: 42 }],
      [{}],
      [null],
    ] as unknown as ToolDescriptor[][]) {
      expect(errorCode(() => createToolIndex({ tools }))).toBe('INVALID_TOOL_NAME');
    }
  });

  it('keeps its catalog when the caller changes the array afterwards', () => {
    const tools: ToolDescriptor[] = [{ name: 'a' }, { name: 'b' }];
    const own = createToolIndex({ tools });
    tools.reverse();
    tools.push({ name: 'c' });
    expect(own.size).toBe(2);
    expect(own.get('a')).toEqual({ name: 'a' });
    expect(own.get('c')).toBeUndefined();
    expect(own.names()).toEqual(['a', 'b']);
  });

  it('rejects duplicate names', () => {
    const tools = [{ name: 'a' }, { name: 'b' }, { name: 'a' }];
    expect(errorCode(() => createToolIndex({ tools }))).toBe('DUPLICATE_TOOL_NAME');
  });

  it('rejects bad options', () => {
    expect(errorCode(() => createToolIndex(undefined as never))).toBe('INVALID_OPTIONS');
    expect(errorCode(() => createToolIndex({ tools: 'x' } as never))).toBe('INVALID_OPTIONS');
  });

  it('accepts __proto__ and constructor as names without touching any prototype', () => {
    const tools = [{ name: '__proto__', description: 'odd' }, { name: 'constructor' }, { name: 'toString' }];
    const odd = createToolIndex({ tools });
    expect(odd.has('__proto__')).toBe(true);
    expect(odd.get('__proto__')).toBe(tools[0]);
    expect(odd.has('hasOwnProperty')).toBe(false);
    expect(odd.get('valueOf')).toBeUndefined();
    expect(odd.search('__proto__')[0]!.name).toBe('__proto__');
    expect(({} as Record<string, unknown>).odd).toBeUndefined();
  });

  it('uses a given ranker, and refuses one that answers with a promise', () => {
    const fixed: Ranker = { search: () => [{ name: 'x', description: '', score: 0.5 }] };
    expect(createToolIndex({ tools: [{ name: 'x' }], ranker: () => fixed }).search('q')).toEqual([
      { name: 'x', description: '', score: 0.5 },
    ]);
    const slow: Ranker = { search: async () => [] };
    expect(errorCode(() => createToolIndex({ tools: [{ name: 'x' }], ranker: () => slow }).search('q'))).toBe(
      'INVALID_OPTIONS',
    );
  });

  it('refuses a ranker factory that is none or builds no ranker, where it is built', () => {
    const tools = [{ name: 'x' }];
    for (const ranker of [5, 'keyword', {}]) {
      expect(errorCode(() => createToolIndex({ tools, ranker: ranker as never }))).toBe('INVALID_OPTIONS');
    }
    for (const built of [null, undefined, 5, {}, { search: 'x' }]) {
      expect(errorCode(() => createToolIndex({ tools, ranker: (() => built) as never }))).toBe(
        'INVALID_OPTIONS',
      );
    }
  });

  it("reads a ranker's answer as the engine does: unknown, nameless and repeated items left out, scores clamped, topK kept", () => {
    const tools = [{ name: 'a' }, { name: 'b' }, { name: '__proto__' }];
    const sloppy: Ranker = {
      search: () =>
        [
          null,
          'a',
          { name: 3, score: 1 },
          { name: 'zzz', score: 0.9 },
          { name: 'a', score: 7 },
          { name: 'a', score: 0.5 },
          { name: 'toString', score: 0.5 },
          { name: '__proto__', description: 5, score: Number.NaN },
          { name: 'b', description: 'b tool', score: -1 },
        ] as never,
    };
    const index = createToolIndex({ tools, ranker: () => sloppy });
    expect(index.search('q')).toEqual([
      { name: 'a', description: '', score: 1 },
      { name: '__proto__', description: '', score: 0 },
      { name: 'b', description: 'b tool', score: 0 },
    ]);
    expect(index.search('q', { topK: 1 })).toEqual([{ name: 'a', description: '', score: 1 }]);
    const notAList: Ranker = { search: () => ({ results: [] }) as never };
    expect(errorCode(() => createToolIndex({ tools, ranker: () => notAList }).search('q'))).toBe(
      'INVALID_OPTIONS',
    );
  });

  it('handles an empty catalog', () => {
    const empty = createToolIndex({ tools: [] });
    expect(empty.size).toBe(0);
    expect(empty.search('anything')).toEqual([]);
  });
});
