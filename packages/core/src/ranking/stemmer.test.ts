import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stem } from './stemmer';

describe('stem (Porter)', () => {
  it('matches the examples of Porter (1980)', () => {
    const examples: Record<string, string> = {
      caresses: 'caress',
      ponies: 'poni',
      cats: 'cat',
      feed: 'feed',
      agreed: 'agre',
      plastered: 'plaster',
      motoring: 'motor',
      sing: 'sing',
      conflated: 'conflat',
      troubled: 'troubl',
      sized: 'size',
      hopping: 'hop',
      falling: 'fall',
      filing: 'file',
      happy: 'happi',
      relational: 'relat',
      conditional: 'condit',
      digitizer: 'digit',
      hopefulness: 'hope',
      triplicate: 'triplic',
      electrical: 'electr',
      revival: 'reviv',
      adjustment: 'adjust',
      adoption: 'adopt',
      controlling: 'control',
      rate: 'rate',
      generalization: 'gener',
    };
    for (const [word, expected] of Object.entries(examples)) expect(stem(word), word).toBe(expected);
  });

  it('brings the word forms of tool requests together', () => {
    expect(stem('tickets')).toBe(stem('ticket'));
    expect(stem('searching')).toBe(stem('search'));
    expect(stem('searches')).toBe(stem('search'));
    expect(stem('calculation')).toBe(stem('calculate'));
    expect(stem('conversion')).not.toBe(stem('weather'));
    expect(stem('forecasts')).toBe('forecast');
    expect(stem('weather')).toBe('weather');
  });

  it('leaves short words, numbers and other scripts alone', () => {
    expect(stem('is')).toBe('is');
    expect(stem('2024s')).toBe('2024s');
    expect(stem('天气')).toBe('天气');
    expect(stem('größe')).toBe('größe');
  });

  it('never throws, never lengthens a word by more than one letter, and gives a non-empty stem', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{0,20}$/), (word) => {
        const stemmed = stem(word);
        expect(stemmed.length).toBeLessThanOrEqual(word.length + 1);
        if (word.length > 0) expect(stemmed.length).toBeGreaterThan(0);
      }),
      { numRuns: 1000 },
    );
  });
});
