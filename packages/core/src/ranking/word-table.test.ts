import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashWord, scanAsciiWords, tokenize } from './tokenizer';
import { createWordTable } from './word-table';

function scannedWords(text: string): { words: string[]; hashes: number[] } | undefined {
  const words: string[] = [];
  const hashes: number[] = [];
  const ok = scanAsciiWords(text, {
    word(source, start, end, hash) {
      words.push(source.slice(start, end).toLowerCase());
      hashes.push(hash);
    },
  });
  return ok ? { words, hashes } : undefined;
}

describe('scanAsciiWords', () => {
  it('gives the words of tokenize, with their hashes, without strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary-ascii', maxLength: 60 }),
          fc.stringMatching(/^[A-Za-z0-9_' .-]{0,40}$/),
        ),
        (text) => {
          const scanned = scannedWords(text)!;
          expect(scanned.words).toEqual(tokenize(text));
          expect(scanned.hashes).toEqual(scanned.words.map(hashWord));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses non-ASCII text without calling the sink', () => {
    expect(scannedWords('café au lait')).toBeUndefined();
    expect(scannedWords('ok then 天气')).toBeUndefined();
  });
});

describe('createWordTable', () => {
  it('gives each distinct word one entry, whatever its case or the text around it', () => {
    const table = createWordTable();
    const text = 'Weather WEATHER weather';
    const weather = table.intern(text, 0, 7, hashWord('weather'));
    expect(table.intern(text, 8, 15, hashWord('weather'))).toBe(weather);
    expect(table.intern(text, 16, 23, hashWord('weather'))).toBe(weather);
    expect(table.internWord('weather')).toBe(weather);
    expect(table.word(weather)).toBe('weather');
    expect(table.internWord('forecast')).toBe(weather + 1);
    expect(table.internWord('天气')).toBe(weather + 2);
    expect(table.internWord('天气')).toBe(weather + 2);
    expect(table.size).toBe(3);
  });

  it('keeps every word apart as it grows, colliding hashes included', () => {
    const table = createWordTable();
    const words = Array.from({ length: 20_000 }, (_, index) => `w${index.toString(36)}`);
    const entries = words.map((word) => table.internWord(word));
    expect(new Set(entries).size).toBe(words.length);
    expect(words.map((word) => table.internWord(word))).toEqual(entries);
    // Forced collisions: one hash for every word.
    const colliding = createWordTable();
    expect(colliding.intern('alpha', 0, 5, 7)).toBe(0);
    expect(colliding.intern('gamma', 0, 5, 7)).toBe(1);
    expect(colliding.intern('ALPHA', 0, 5, 7)).toBe(0);
  });
});
