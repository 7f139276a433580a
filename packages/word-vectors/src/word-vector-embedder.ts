import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Embedder, ToolSearchError, tokenize } from '@tool-search/core';
import { decodeWordVectors, type WordVectorTable } from './word-vector-file';

/** The shipped data: GloVe 6B (PDDL-1.0), 40,000 words × 100 dimensions, int8. */
const DATA_NAME = 'glove-6b-40k-int8';
const DATA_URL = new URL(`../data/${DATA_NAME}.bin`, import.meta.url);
const DEFAULT_SMOOTHING = 1e-4;
/** Euler–Mascheroni: the harmonic number H(n) ≈ ln n + γ normalises Zipf's law. */
const EULER_GAMMA = 0.5772156649;
/** Endings tried, in order, when a word is not in the vocabulary ("geocoding" → "geocode", "apis" → "api"). */
const SUFFIXES: readonly (readonly [string, string])[] = [
  ['ies', 'y'],
  ['es', ''],
  ['s', ''],
  ['ing', 'e'],
  ['ing', ''],
  ['ed', 'e'],
  ['ed', ''],
  ['ly', ''],
  ['er', ''],
];

export interface WordVectorEmbedderOptions {
  /**
   * SIF smoothing `a`: a word of estimated frequency `p` weighs `a / (a + p)`, so "the" counts
   * for almost nothing and "forecast" almost fully (default 1e-4).
   */
  readonly smoothing?: number;
  /** Remove the direction that all text shares from every embedding (default true). */
  readonly removeCommonDirection?: boolean;
}

/** An offline {@link Embedder}: synchronous, no network, no key. */
export interface WordVectorEmbedder extends Embedder {
  readonly dimensions: number;
  embed(texts: readonly string[]): Float32Array[];
}

let shipped: WordVectorTable | undefined;
/** Word → position, built once per table and shared by every embedder over it. */
const indexes = new WeakMap<WordVectorTable, Map<string, number>>();

function indexOf(table: WordVectorTable): Map<string, number> {
  let index = indexes.get(table);
  if (index === undefined) {
    index = new Map<string, number>();
    const { words } = table;
    for (let position = 0; position < words.length; position++) {
      if (!index.has(words[position]!)) index.set(words[position]!, position);
    }
    indexes.set(table, index);
  }
  return index;
}

/** Reads the shipped vectors once per process (about 4.6 MB, a few milliseconds). */
function loadShippedVectors(): WordVectorTable {
  shipped ??= decodeWordVectors(readFileSync(fileURLToPath(DATA_URL)));
  return shipped;
}

/**
 * Zipf's law: the word of rank r in a vocabulary of n words has frequency ≈ 1 / (r · H(n)).
 * GloVe's vocabulary is sorted by corpus frequency, so the rank stands in for a count.
 */
export function estimateWordProbability(rank: number, vocabularySize: number): number {
  return 1 / (rank * (Math.log(vocabularySize) + EULER_GAMMA));
}

interface Model {
  readonly table: WordVectorTable;
  readonly index: Map<string, number>;
  /** Per word: its SIF weight × its quantisation scale. */
  readonly factors: Float32Array;
}

/**
 * An embedder over static word vectors (GloVe 6B shipped in this package): a text's vector
 * is the sum of its words' vectors, each weighted by its rarity (SIF, Arora et al. 2017),
 * with the direction all text shares removed, at unit length. Identifiers are split into
 * words (`getWeatherForecast` → get, weather, forecast); a word outside the vocabulary is
 * tried without a common ending, then ignored. A text with no known word gets the zero
 * vector. The vectors are read from the package on first use (a few milliseconds).
 */
export function createWordVectorEmbedder(options: WordVectorEmbedderOptions = {}): WordVectorEmbedder {
  const smoothing = options.smoothing ?? DEFAULT_SMOOTHING;
  if (typeof smoothing !== 'number' || !(smoothing > 0) || !Number.isFinite(smoothing)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `smoothing must be a positive number, got ${String(smoothing)}`,
    );
  }
  const removeCommonDirection = options.removeCommonDirection ?? true;
  let model: Model | undefined;

  const load = (): Model => {
    if (model) return model;
    const table = loadShippedVectors();
    const index = indexOf(table);
    const factors = new Float32Array(table.words.length);
    for (let word = 0; word < factors.length; word++) {
      const probability = estimateWordProbability(table.ranks[word]!, table.vocabularySize);
      factors[word] = (smoothing / (smoothing + probability)) * table.scales[word]!;
    }
    model = { table, index, factors };
    return model;
  };

  const lookup = (index: Map<string, number>, word: string): number | undefined => {
    const known = index.get(word);
    if (known !== undefined) return known;
    for (const [suffix, replacement] of SUFFIXES) {
      if (word.length > suffix.length + 2 && word.endsWith(suffix)) {
        const found = index.get(word.slice(0, -suffix.length) + replacement);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };

  const embedOne = ({ table, index, factors }: Model, text: string): Float32Array => {
    const { dimensions, codes, common } = table;
    const sum = new Float64Array(dimensions);
    for (const token of tokenize(typeof text === 'string' ? text : '')) {
      const word = lookup(index, token);
      if (word === undefined) continue;
      const factor = factors[word]!;
      const offset = word * dimensions;
      for (let dimension = 0; dimension < dimensions; dimension++) {
        sum[dimension]! += factor * codes[offset + dimension]!;
      }
    }
    if (removeCommonDirection) {
      let projection = 0;
      for (let dimension = 0; dimension < dimensions; dimension++)
        projection += sum[dimension]! * common[dimension]!;
      for (let dimension = 0; dimension < dimensions; dimension++)
        sum[dimension]! -= projection * common[dimension]!;
    }
    let length = 0;
    for (let dimension = 0; dimension < dimensions; dimension++) length += sum[dimension]! * sum[dimension]!;
    const vector = new Float32Array(dimensions);
    if (length > 0) {
      const inverse = 1 / Math.sqrt(length);
      for (let dimension = 0; dimension < dimensions; dimension++)
        vector[dimension] = sum[dimension]! * inverse;
    }
    return vector;
  };

  return {
    id: `word-vectors:${DATA_NAME}:sif=${smoothing}${removeCommonDirection ? '' : ':keep-common'}`,
    get dimensions() {
      return load().table.dimensions;
    },
    embed(texts: readonly string[]): Float32Array[] {
      if (!Array.isArray(texts)) {
        throw new ToolSearchError('INVALID_INPUT', 'embed expects an array of texts');
      }
      const loaded = load();
      return texts.map((text) => embedOne(loaded, text));
    },
  };
}
