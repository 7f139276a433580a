import {
  checkOptionNames,
  createWordTable,
  type Embedder,
  forEachWord,
  hashWord,
  type OptionNamesOf,
  optionsObject,
  ToolSearchError,
  type WordSink,
  type WordTable,
} from '@tool-search/core';
import shippedData from '../data/glove-6b-40k-int8.js';
import { decodeWordVectorsBase64, estimateWordProbability, type WordVectorTable } from './word-vector-file';

export { estimateWordProbability };

/** The shipped data's name (`data/glove-6b-40k-int8.js`), part of the embedder's id. */
const DATA_NAME = 'glove-6b-40k-int8';
const DEFAULT_SMOOTHING = 2e-4;
/**
 * The least smoothing accepted. A word weighs `a / (a + p)` and is left out under MIN_WEIGHT,
 * so a smaller `a` leaves out more of the frequent words: at 1e-5 the 400 or so most frequent;
 * at 1e-6 the 4,000 or so most frequent, "weather", "ticket" and "flights" among them (those
 * texts embed as the zero vector); below about 1e-7 every word of the shipped vocabulary, so
 * every text does.
 */
const MIN_SMOOTHING = 1e-5;
/**
 * Words weighing less than this are left out ("the", "of", "and": the twenty or so most frequent
 * words at the default smoothing). Their share of a text's vector is a few percent, measured
 * to change no ranking, and skipping them saves work on running text (a quarter at an `a` of
 * 1e-4, which left out the forty or so most frequent).
 */
const MIN_WEIGHT = 0.05;
/** Fixed-point steps of the largest word weight (12 bits: a relative error under 0.1% for content words). */
const FACTOR_STEPS = 4096;
/** Groups of four words summed in int32 before they are carried over (4 × 2¹² × 127 × 512 < 2³⁰). */
const GROUPS_PER_FLUSH = 512;
/** Distinct words whose vocabulary position is remembered (the memory restarts when full). */
const MEMO_SIZE = 50_000;
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
/** A word outside the vocabulary is read as at most this many known words glued together. */
const MAX_GLUED_PARTS = 3;
/** Each part of a glued word has at least this many letters ("copilot" is not "co" + "pilot"). */
const MIN_GLUED_PART = 3;
const LETTERS = /^\p{L}+$/u;

export interface WordVectorEmbedderOptions {
  /**
   * SIF smoothing `a`: a word of estimated frequency `p` weighs `a / (a + p)`, so "the" counts
   * for almost nothing and "forecast" almost fully (default 2e-4; at least 1e-5: below it
   * common words of tools and requests, and then every word, count for nothing).
   */
  readonly smoothing?: number;
  /** Remove the direction that all text shares from every embedding (default true). */
  readonly removeCommonDirection?: boolean;
}

/** An offline {@link Embedder}: synchronous, no network, no key. */
export interface WordVectorEmbedder extends Embedder {
  readonly dimensions: number;
  embed(texts: readonly string[]): Float32Array[];
  /** A word's vector is its text's: the word's own vector, at unit length (zero when unknown). */
  embedWords(words: readonly string[]): Float32Array[];
}

const OPTION_NAMES = {
  smoothing: true,
  removeCommonDirection: true,
} as const satisfies OptionNamesOf<WordVectorEmbedderOptions>;

let shipped: WordVectorTable | undefined;

/** Word → vocabulary position. */
export interface Vocabulary {
  /** The position of `word` (exact, lowercase), or −1. */
  find(word: string): number;
  /**
   * The position of the word `text.slice(start, end)`, whose `hashWord` hash is `hash`, without
   * making that string; or −1.
   */
  findSpan(text: string, start: number, end: number, hash: number): number;
  /** The length of the longest word (the longest part a glued word can have). */
  readonly longestWord: number;
}

/** `hashWord` (FNV-1a) of a word one character longer: a word's prefixes hashed in one pass. */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const extendHash = (hash: number, code: number): number => Math.imul(hash ^ code, FNV_PRIME);

/**
 * Builds the lookup of `words` (the first of repeated words wins): open addressing on the
 * words' hashes (`hashWord`, the tokenizer's), `slots` holding position + 1 (0: empty) and `hashes` each slot's full hash.
 * A `Map` of the 40,000 shipped words took 25–35 ms to fill in a fresh process; this takes a
 * few.
 */
export function createVocabulary(words: readonly string[]): Vocabulary {
  let bits = 4;
  while (1 << bits < words.length * 2) bits++;
  const mask = (1 << bits) - 1;
  const slots = new Int32Array(mask + 1);
  const hashes = new Int32Array(mask + 1);
  const slotOf = (word: string, hash: number): number => {
    // Fibonacci hashing: the top bits of hash × 2³²/φ, well spread for similar words.
    let slot = Math.imul(hash, 0x9e3779b1) >>> (32 - bits);
    for (let entry = slots[slot]!; entry !== 0; entry = slots[slot]!) {
      if (hashes[slot] === hash && words[entry - 1] === word) return slot;
      slot = (slot + 1) & mask;
    }
    return slot;
  };
  let longestWord = 0;
  for (let position = 0; position < words.length; position++) {
    const word = words[position]!;
    longestWord = Math.max(longestWord, word.length);
    const hash = hashWord(word) | 0; // int32, as stored
    const slot = slotOf(word, hash);
    if (slots[slot] !== 0) continue;
    slots[slot] = position + 1;
    hashes[slot] = hash;
  }
  return {
    longestWord,
    find(word: string): number {
      return slots[slotOf(word, hashWord(word) | 0)]! - 1;
    },
    findSpan(text: string, start: number, end: number, hash: number): number {
      const stored = hash | 0;
      const length = end - start;
      for (let slot = Math.imul(stored, 0x9e3779b1) >>> (32 - bits); ; slot = (slot + 1) & mask) {
        const entry = slots[slot]!;
        if (entry === 0) return -1;
        if (hashes[slot] !== stored) continue;
        const word = words[entry - 1]!;
        if (word.length === length && text.startsWith(word, start)) return entry - 1;
      }
    },
  };
}

/** The lookup of a table's words, built once per table and shared by every embedder over it. */
const vocabularies = new WeakMap<WordVectorTable, Vocabulary>();

function vocabularyOf(table: WordVectorTable): Vocabulary {
  let vocabulary = vocabularies.get(table);
  if (vocabulary === undefined) {
    vocabulary = createVocabulary(table.words);
    vocabularies.set(table, vocabulary);
  }
  return vocabulary;
}

/**
 * Decodes the shipped vectors once per process: GloVe 6B (PDDL-1.0), 40,000 words × 100
 * dimensions, int8, about 4.6 MB as 6.2 MB of base64 in an ES module (see `decodeWordVectorsBase64`).
 */
function loadShippedVectors(): WordVectorTable {
  shipped ??= decodeWordVectorsBase64(shippedData);
  return shipped;
}

interface Model {
  readonly table: WordVectorTable;
  readonly vocabulary: Vocabulary;
  /** Per word: its SIF weight × its quantisation scale (0: left out). */
  readonly factors: Float32Array;
  /** The factors in fixed point: factor ≈ integer × factorUnit, integers up to FACTOR_STEPS. */
  readonly integerFactors: Int32Array;
  readonly factorUnit: number;
}

/** Models by table and smoothing: embedders with the same settings share one. */
const models = new WeakMap<WordVectorTable, Map<number, Model>>();

/** The word weights of a table at a smoothing, computed once per process (40,000 words: ~10 ms). */
function modelOf(table: WordVectorTable, smoothing: number): Model {
  let bySmoothing = models.get(table);
  if (bySmoothing === undefined) {
    bySmoothing = new Map();
    models.set(table, bySmoothing);
  }
  const known = bySmoothing.get(smoothing);
  if (known) return known;
  const factors = new Float32Array(table.words.length);
  for (let word = 0; word < factors.length; word++) {
    const probability = estimateWordProbability(table.ranks[word]!, table.vocabularySize);
    const weight = smoothing / (smoothing + probability);
    factors[word] = weight < MIN_WEIGHT ? 0 : weight * table.scales[word]!;
  }
  let largestFactor = 0;
  for (const factor of factors) largestFactor = Math.max(largestFactor, factor);
  const factorUnit = largestFactor / FACTOR_STEPS || 1;
  const integerFactors = Int32Array.from(factors, (factor) => Math.round(factor / factorUnit));
  const model: Model = { table, vocabulary: vocabularyOf(table), factors, integerFactors, factorUnit };
  bySmoothing.set(smoothing, model);
  return model;
}

/**
 * An embedder over static word vectors (GloVe 6B shipped in this package): a text's vector
 * is the sum of its words' vectors, each weighted by its rarity (SIF, Arora et al. 2017),
 * with the direction all text shares removed, at unit length. Identifiers are split into
 * words (`getWeatherForecast` → get, weather, forecast); a word outside the vocabulary is
 * tried without a common ending, then as known words glued together (`stellarexplorer` →
 * stellar, explorer), then ignored. A text with no known word gets the zero
 * vector. The vectors are read from the package on first use (about 25–30 ms in a fresh process).
 */
export function createWordVectorEmbedder(given?: WordVectorEmbedderOptions | null): WordVectorEmbedder {
  const options = optionsObject(given, 'createWordVectorEmbedder');
  // A misspelt option ({ smooting: 1e-3 }) would otherwise build the default embedder, silently.
  // (An array never gets here: optionsObject refuses it.)
  checkOptionNames(options, OPTION_NAMES, 'createWordVectorEmbedder');
  const smoothing = options.smoothing ?? DEFAULT_SMOOTHING;
  if (typeof smoothing !== 'number' || !(smoothing >= MIN_SMOOTHING) || !Number.isFinite(smoothing)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `smoothing must be a finite number >= ${MIN_SMOOTHING} (below it the frequent words, and then every word, count for nothing), got ${String(smoothing)}`,
    );
  }
  const removeCommonDirection = options.removeCommonDirection ?? true;
  if (typeof removeCommonDirection !== 'boolean') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `removeCommonDirection must be a boolean, got ${typeof removeCommonDirection}`,
    );
  }
  const texts = new TextEmbedding(smoothing, removeCommonDirection);
  const embedChecked = (input: readonly string[], misuse: string): Float32Array[] => {
    if (!Array.isArray(input)) throw new ToolSearchError('INVALID_INPUT', misuse);
    // A hole, null or number would otherwise embed as no words: a zero vector, silently.
    for (let index = 0; index < input.length; index++) {
      if (typeof input[index] !== 'string') {
        throw new ToolSearchError('INVALID_INPUT', `${misuse}; item ${index} is ${typeof input[index]}`);
      }
    }
    return texts.embedAll(input);
  };

  return {
    // `glued`: glued words are split; `folded`: invisible characters inside words are dropped
    // and letters such as æ, ø, ł, ß folded (texts with either embed unlike under the ids before).
    id: `word-vectors:${DATA_NAME}:sif=${smoothing}:glued:folded${removeCommonDirection ? '' : ':keep-common'}`,
    get dimensions() {
      return texts.model().table.dimensions;
    },
    embed: (input: readonly string[]) => embedChecked(input, 'embed expects an array of texts'),
    // A word is embedded as its one-word text.
    embedWords: (words: readonly string[]) => embedChecked(words, 'embedWords expects an array of words'),
  };
}

/** Vocabulary position of a word (−1: unknown), trying it without a common ending. */
function resolve(vocabulary: Vocabulary, token: string): number {
  const known = vocabulary.find(token);
  if (known >= 0) return known;
  for (const [suffix, replacement] of SUFFIXES) {
    if (token.length > suffix.length + 2 && token.endsWith(suffix)) {
      const found = vocabulary.find(token.slice(0, -suffix.length) + replacement);
      if (found >= 0) return found;
    }
  }
  return -1;
}

/** The dynamic programme's arrays, shared by every split (one word is split at a time). */
interface SplitScratch {
  readonly cost: Float64Array;
  readonly parts: Int32Array;
  readonly lastStart: Int32Array;
  readonly lastWord: Int32Array;
}

const createSplitScratch = (size: number): SplitScratch => ({
  cost: new Float64Array(size),
  parts: new Int32Array(size),
  lastStart: new Int32Array(size),
  lastWord: new Int32Array(size),
});

let splitScratch = createSplitScratch(64);

/**
 * The vocabulary positions of the known words that `word` is glued from (`getfileslist` → get,
 * files, list), or undefined: the most likely split by Zipf's law (the least sum of
 * `−log p(part)`), into 2 to MAX_GLUED_PARTS parts of at least MIN_GLUED_PART letters each,
 * letters only. A dynamic programme over the word's letters, each part at most the
 * vocabulary's longest word, so a long word costs O(length × longest word) lookups, and one
 * longer than MAX_GLUED_PARTS longest words none.
 */
export function splitGluedWord(
  word: string,
  vocabulary: Vocabulary,
  table: Pick<WordVectorTable, 'ranks' | 'vocabularySize'>,
): number[] | undefined {
  const { longestWord } = vocabulary;
  const length = word.length;
  if (length < 2 * MIN_GLUED_PART || length > MAX_GLUED_PARTS * longestWord || !LETTERS.test(word)) {
    return undefined;
  }
  // Per end position: the least cost of the word's first `end` letters as parts, the parts
  // that took, where the last part starts and which word it is. Each reachable start is
  // extended one letter at a time, its hash with it, so no part is made as a string.
  if (splitScratch.cost.length <= length) splitScratch = createSplitScratch(2 * length + 2);
  const { cost, parts, lastStart, lastWord } = splitScratch;
  cost.fill(Number.POSITIVE_INFINITY, 0, length + 1);
  cost[0] = 0;
  parts[0] = 0;
  for (let start = 0; start <= length - MIN_GLUED_PART; start++) {
    if (cost[start] === Number.POSITIVE_INFINITY || parts[start]! >= MAX_GLUED_PARTS) continue;
    const last = Math.min(length, start + longestWord);
    let hash = FNV_OFFSET;
    for (let end = start + 1; end <= last; end++) {
      hash = extendHash(hash, word.charCodeAt(end - 1));
      if (end - start < MIN_GLUED_PART) continue;
      const found = vocabulary.findSpan(word, start, end, hash);
      if (found < 0) continue;
      const total =
        cost[start]! - Math.log(estimateWordProbability(table.ranks[found]!, table.vocabularySize));
      if (total < cost[end]!) {
        cost[end] = total;
        parts[end] = parts[start]! + 1;
        lastStart[end] = start;
        lastWord[end] = found;
      }
    }
  }
  if (cost[length] === Number.POSITIVE_INFINITY || parts[length]! < 2) return undefined;
  const split: number[] = [];
  for (let end = length; end > 0; end = lastStart[end]!) split.unshift(lastWord[end]!);
  return split;
}

/**
 * The work and scratch state of one embedder. A class, not closures in the factory: its
 * methods are one function each for the process, and one instance is kept (below), so V8's
 * optimised code for them survives a full garbage collection after an embedder is dropped
 * (see `keep-shape.ts` in `@tool-search/core`).
 */
class TextEmbedding implements WordSink {
  private loaded: Model | undefined;
  // Words seen → their vocabulary positions, looked up straight from spans of the texts (no
  // string per word): a word is resolved once, on first sight. Both restart past MEMO_SIZE.
  // A position is −2 for a word not yet resolved, −1 for an unknown word, and −3 − i for a
  // glued word whose parts are `glued[i]`.
  private seen: WordTable = createWordTable();
  private positions = new Int32Array(1024).fill(-2);
  private glued: number[][] = [];
  /** The known words of the text being embedded (`count` of them). */
  private wordBuffer = new Int32Array(256);
  private count = 0;
  private integerSum = new Int32Array(0);

  constructor(
    private readonly smoothing: number,
    private readonly removeCommonDirection: boolean,
  ) {}

  /** The word weights, read on first use. */
  model(): Model {
    this.loaded ??= modelOf(loadShippedVectors(), this.smoothing);
    return this.loaded;
  }

  embedAll(texts: readonly string[]): Float32Array[] {
    const { dimensions } = this.model().table;
    // One buffer for the batch: a typed array per text would each need a backing store.
    const out = new Float32Array(texts.length * dimensions);
    const sum = new Float64Array(dimensions);
    if (this.integerSum.length !== dimensions) this.integerSum = new Int32Array(dimensions);
    const vectors: Float32Array[] = new Array(texts.length);
    for (let position = 0; position < texts.length; position++) {
      const at = position * dimensions;
      this.embedInto(texts[position]!, sum, out, at);
      vectors[position] = out.subarray(at, at + dimensions);
    }
    return vectors;
  }

  /** A word of the text being embedded (the tokenizer's sink). */
  word(text: string, start: number, end: number, hash: number): void {
    const entry = this.seen.intern(text, start, end, hash);
    if (entry >= this.positions.length) {
      const grown = new Int32Array(this.positions.length * 2).fill(-2);
      grown.set(this.positions);
      this.positions = grown;
    }
    let word = this.positions[entry]!;
    if (word === -2) {
      word = this.resolveNew(this.seen.word(entry));
      this.positions[entry] = word;
    }
    if (word >= 0) this.add(word);
    else if (word <= -3) for (const part of this.glued[-3 - word]!) this.add(part);
  }

  /** The position of a word met for the first time (see `positions`). */
  private resolveNew(text: string): number {
    const loaded = this.loaded!;
    const known = resolve(loaded.vocabulary, text);
    if (known >= 0) return known;
    const parts = splitGluedWord(text, loaded.vocabulary, loaded.table);
    if (parts === undefined) return -1;
    const index = this.glued.push(parts) - 1;
    return -3 - index;
  }

  /** A known word of the text being embedded. */
  private add(word: number): void {
    // Too frequent to count (its factor is 0).
    if (this.loaded!.factors[word] === 0) return;
    if (this.count === this.wordBuffer.length) {
      const grown = new Int32Array(this.wordBuffer.length * 2);
      grown.set(this.wordBuffer);
      this.wordBuffer = grown;
    }
    this.wordBuffer[this.count++] = word;
  }

  /** Writes the embedding of `text` into `out` at `at` (`sum` is scratch, `dimensions` long). */
  private embedInto(text: string, sum: Float64Array, out: Float32Array, at: number): void {
    const loaded = this.loaded!;
    const { dimensions, codes, common } = loaded.table;
    sum.fill(0);
    // The text's known words and their weights, then their vectors added four at a time (one
    // pass over `sum` per four words).
    if (this.seen.size >= MEMO_SIZE) {
      this.seen = createWordTable();
      this.positions.fill(-2);
      this.glued = [];
    }
    this.count = 0;
    forEachWord(typeof text === 'string' ? text : '', this);
    const { count, wordBuffer, integerSum } = this;
    // Integer sums (codes × fixed-point weights), cheaper than floating point; carried over to
    // `sum` every GROUPS_PER_FLUSH groups of four words, long before they could overflow.
    const { integerFactors, factorUnit } = loaded;
    integerSum.fill(0);
    let next = 0;
    let groups = 0;
    for (; next + 4 <= count; next += 4) {
      const first = wordBuffer[next]!;
      const second = wordBuffer[next + 1]!;
      const third = wordBuffer[next + 2]!;
      const fourth = wordBuffer[next + 3]!;
      const f1 = integerFactors[first]!;
      const f2 = integerFactors[second]!;
      const f3 = integerFactors[third]!;
      const f4 = integerFactors[fourth]!;
      const o1 = first * dimensions;
      const o2 = second * dimensions;
      const o3 = third * dimensions;
      const o4 = fourth * dimensions;
      for (let dimension = 0; dimension < dimensions; dimension++) {
        integerSum[dimension] =
          (integerSum[dimension]! +
            f1 * codes[o1 + dimension]! +
            f2 * codes[o2 + dimension]! +
            f3 * codes[o3 + dimension]! +
            f4 * codes[o4 + dimension]!) |
          0;
      }
      if (++groups === GROUPS_PER_FLUSH) {
        for (let dimension = 0; dimension < dimensions; dimension++)
          sum[dimension]! += integerSum[dimension]! * factorUnit;
        integerSum.fill(0);
        groups = 0;
      }
    }
    for (; next < count; next++) {
      const word = wordBuffer[next]!;
      const factor = integerFactors[word]!;
      const offset = word * dimensions;
      for (let dimension = 0; dimension < dimensions; dimension++)
        integerSum[dimension] = (integerSum[dimension]! + factor * codes[offset + dimension]!) | 0;
    }
    for (let dimension = 0; dimension < dimensions; dimension++)
      sum[dimension]! += integerSum[dimension]! * factorUnit;
    if (this.removeCommonDirection) {
      let projection = 0;
      for (let dimension = 0; dimension < dimensions; dimension++)
        projection += sum[dimension]! * common[dimension]!;
      for (let dimension = 0; dimension < dimensions; dimension++)
        sum[dimension] = sum[dimension]! - projection * common[dimension]!;
    }
    let length = 0;
    for (let dimension = 0; dimension < dimensions; dimension++) length += sum[dimension]! * sum[dimension]!;
    if (length > 0) {
      const inverse = 1 / Math.sqrt(length);
      for (let dimension = 0; dimension < dimensions; dimension++)
        out[at + dimension] = sum[dimension]! * inverse;
    }
  }
}

/** One instance kept for the life of the module: it keeps the class's hidden class alive (see above). */
const keptShapes: TextEmbedding[] = [];
keptShapes.push(new TextEmbedding(DEFAULT_SMOOTHING, true));
