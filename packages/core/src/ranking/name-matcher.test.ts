import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createNameMatcher, trimToWord } from './name-matcher';

const names = [
  'list_github_prs',
  'listGithubIssues',
  'search',
  'get-weather',
  '__proto__',
  'calculate_BMI',
  'calculate_bmi',
];
const matcher = createNameMatcher(names);
const found = (query: string) => matcher.find(query).map((index) => names[index]);

describe('createNameMatcher', () => {
  it('recognises a name in any case, separator or word ending', () => {
    for (const query of [
      'list_github_prs',
      'listGithubPrs',
      'list-github-prs',
      'ListGithubPR',
      'LIST_GITHUB_PRS',
      'listgithubprs',
    ]) {
      expect(found(query), query).toEqual(['list_github_prs']);
    }
    expect(found('list github prs')).toEqual(['list_github_prs']);
    expect(found('getWeather')).toEqual(['get-weather']);
  });

  it('finds identifier-like names inside a longer request, in order', () => {
    expect(found('use `get_weather()` then listGithubIssues, please')).toEqual([
      'get-weather',
      'listGithubIssues',
    ]);
  });

  it('does not take a plain word of a longer request for a one-word name', () => {
    expect(found('search for flights')).toEqual([]);
    expect(found('search')).toEqual(['search']);
  });

  it('returns every tool that shares a key', () => {
    expect(found('calculateBMI')).toEqual(['calculate_BMI', 'calculate_bmi']);
  });

  it('handles odd names and queries', () => {
    expect(found('__proto__')).toEqual(['__proto__']);
    expect(found('constructor')).toEqual([]);
    expect(found('')).toEqual([]);
    expect(found('___ ---')).toEqual([]);
    expect(createNameMatcher([]).find('anything')).toEqual([]);
  });
});

describe('trimToWord', () => {
  // eslint-disable-next-line regexp/no-super-linear-move -- the old expression, kept as the reference
  const reference = (chunk: string) => chunk.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

  it('drops what the old expression dropped: the punctuation before the first letter or digit and after the last', () => {
    const piece = fc.constantFrom(
      'a',
      'Z',
      '7',
      'é',
      '𝐀',
      '😀',
      '_',
      '-',
      '.',
      '(',
      ')',
      '"',
      '\ud800',
      '\udc00',
      '\u0301',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const chunk = pieces.join('');
        expect(trimToWord(chunk)).toBe(reference(chunk));
      }),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 30, unit: 'binary' }), (chunk) => {
        expect(trimToWord(chunk)).toBe(reference(chunk));
      }),
      { numRuns: 1_000 },
    );
  });

  it('trims a long run of punctuation in one pass', () => {
    expect(trimToWord(`(${'!'.repeat(100_000)}a${'!?'.repeat(50_000)}b${'.'.repeat(100_000)}`)).toBe(
      `a${'!?'.repeat(50_000)}b`,
    );
  });
});

describe('createNameMatcher on long queries', () => {
  it('answers a 100 kB run of punctuation at once (a hang guard: it took seconds)', () => {
    const start = performance.now();
    expect(matcher.find(`a${'!'.repeat(100_000)}b list_github_prs`)).toEqual([0]);
    expect(performance.now() - start).toBeLessThan(1_000);
  });

  it('finds each of a thousand names in one query once, in order', () => {
    const many = Array.from({ length: 1_000 }, (_, index) => `tool_number_${index}`);
    const manyMatcher = createNameMatcher(many);
    const query = many.map((name) => `${name},`).join(' ');
    expect(manyMatcher.find(query)).toEqual(many.map((_, index) => index));
  });
});
