import { describe, expect, it } from 'vitest';
import { createNameMatcher } from './name-matcher';

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
