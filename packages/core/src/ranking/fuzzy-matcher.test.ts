import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFuzzyMatcher, editDistance, MAX_FUZZY_LENGTH, maxEditsFor } from './fuzzy-matcher';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent transpositions', () => {
    expect(editDistance('forecast', 'forecast')).toBe(0);
    expect(editDistance('forcast', 'forecast')).toBe(1);
    expect(editDistance('whether', 'weather')).toBe(2);
    expect(editDistance('wetaher', 'weather')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('stops early past the maximum', () => {
    expect(editDistance('abcdefgh', 'zzzzzzzz', 2)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });

  it('is a symmetric distance that never exceeds the longer length', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (left, right) => {
        const distance = editDistance(left, right);
        expect(distance).toBe(editDistance(right, left));
        expect(distance).toBeLessThanOrEqual(Math.max(left.length, right.length));
        expect(distance === 0).toBe(left === right);
      }),
    );
  });
});

describe('createFuzzyMatcher', () => {
  const vocabulary = ['weather', 'forecast', 'ticket', 'search', 'flight', 'fight', 'light', 'cat', '2024'];
  const matcher = createFuzzyMatcher(vocabulary);
  const words = (word: string, maximum = maxEditsFor(word.length)) =>
    matcher.lookup(word, maximum).map((match) => vocabulary[match.index]);

  it('allows more edits for longer words, none for short ones', () => {
    expect([2, 3, 4, 5, 6, 12].map(maxEditsFor)).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it('finds the vocabulary words within the allowed edits, closest first', () => {
    expect(words('forcast')).toEqual(['forecast']);
    expect(words('whether')).toEqual(['weather']);
    expect(words('tikcet')).toEqual(['ticket']);
    expect(words('flght')).toEqual(['fight', 'flight']); // equally close: in code-unit order
    expect(words('serach')).toEqual(['search']);
  });

  it('never returns the word itself, short words or words with digits', () => {
    expect(words('weather')).toEqual([]);
    expect(words('ct', 1)).toEqual([]);
    expect(words('2025', 1)).toEqual([]);
    expect(words('cats', 1)).toEqual(['cat']);
  });

  it('finds every vocabulary word one edit away (exhaustive check)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{3,9}$/), (word) => {
        const expected = vocabulary.filter(
          (entry) => entry !== word && /^\p{L}{3,}$/u.test(entry) && editDistance(word, entry) === 1,
        );
        const found = matcher.lookup(word, 1).map((match) => vocabulary[match.index]);
        expect(found.sort()).toEqual(expected.sort());
      }),
      { numRuns: 300 },
    );
  });
});

describe('createFuzzyMatcher on long words', () => {
  const letters = (length: number) =>
    Array.from({ length }, (_, index) => String.fromCharCode(97 + ((index * 7) % 26))).join('');

  it(`looks up words of up to ${MAX_FUZZY_LENGTH} letters, and finds what a longer vocabulary word could match`, () => {
    const long = letters(MAX_FUZZY_LENGTH);
    const vocabulary = [`${long}x`, `${long.slice(2)}`, letters(100_000), 'weather'];
    const matcher = createFuzzyMatcher(vocabulary);
    const start = performance.now();
    expect(matcher.lookup(long, 2).map((match) => vocabulary[match.index])).toEqual([
      `${long}x`,
      long.slice(2),
    ]);
    expect(matcher.lookup(`${long}x`, 2)).toEqual([]);
    expect(matcher.lookup(letters(100_000), 2)).toEqual([]);
    expect(matcher.lookup('weathr', 2).map((match) => vocabulary[match.index])).toEqual(['weather']);
    // A hang guard: a 100,000-letter word's deletions took minutes to index and to look up.
    expect(performance.now() - start).toBeLessThan(1_000);
  });
});
