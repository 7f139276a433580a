/**
 * The binary format of the shipped word vectors (little-endian, version 1):
 *
 * | bytes | content |
 * |---|---|
 * | 32 | header: magic `TSWV`, version, word count, dimensions, source vocabulary size, words byte length, 2 reserved |
 * | 4 × dimensions | the common direction (float32, unit length) |
 * | 4 × count | each word's frequency rank in the source vocabulary (uint32, 1 = most frequent) |
 * | 4 × count | each word's scale (float32): value = code × scale |
 * | count × dimensions | the codes (int8), word after word |
 * | words byte length | the words, UTF-8, joined by `\n`, in the order above |
 */
import { ToolSearchError } from '@tool-search/core';

/** The word vectors as the embedder reads them. */
export interface WordVectorTable {
  readonly dimensions: number;
  /** The words, most frequent first. */
  readonly words: readonly string[];
  /** Each word's rank (1-based) in the source vocabulary, used to estimate its frequency. */
  readonly ranks: Uint32Array;
  /** Each word's quantisation scale. */
  readonly scales: Float32Array;
  /** int8 codes, `dimensions` per word. */
  readonly codes: Int8Array;
  /** The direction every text shares, removed from each embedding (unit length). */
  readonly common: Float32Array;
  /** How many words the source vocabulary had (the denominator of the rank-based frequency estimate). */
  readonly vocabularySize: number;
}

/** Euler–Mascheroni: the harmonic number H(n) ≈ ln n + γ normalises Zipf's law. */
const EULER_GAMMA = 0.5772156649;

/**
 * Zipf's law: the word of rank r in a vocabulary of n words has frequency ≈ 1 / (r · H(n)).
 * GloVe's vocabulary is sorted by corpus frequency, so the rank stands in for a count.
 */
export function estimateWordProbability(rank: number, vocabularySize: number): number {
  return 1 / (rank * (Math.log(vocabularySize) + EULER_GAMMA));
}

const MAGIC = 0x56575354; // 'TSWV' read as a little-endian uint32
const VERSION = 1;
const HEADER_BYTES = 32;

export function encodeWordVectors(table: WordVectorTable): Uint8Array {
  const { dimensions } = table;
  const count = table.words.length;
  const words = new TextEncoder().encode(table.words.join('\n'));
  const total = HEADER_BYTES + 4 * dimensions + 8 * count + count * dimensions + words.length;
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  view.setUint32(8, count, true);
  view.setUint32(12, dimensions, true);
  view.setUint32(16, table.vocabularySize, true);
  view.setUint32(20, words.length, true);
  let offset = HEADER_BYTES;
  for (let dimension = 0; dimension < dimensions; dimension++, offset += 4) {
    view.setFloat32(offset, table.common[dimension]!, true);
  }
  for (let word = 0; word < count; word++, offset += 4) view.setUint32(offset, table.ranks[word]!, true);
  for (let word = 0; word < count; word++, offset += 4) view.setFloat32(offset, table.scales[word]!, true);
  bytes.set(new Uint8Array(table.codes.buffer, table.codes.byteOffset, count * dimensions), offset);
  offset += count * dimensions;
  bytes.set(words, offset);
  return bytes;
}

function corrupt(reason: string): ToolSearchError {
  return new ToolSearchError('INVALID_OPTIONS', `word vector data is not valid: ${reason}`);
}

/** Reads the format above. The typed arrays view the given bytes (copied first only when misaligned). */
export function decodeWordVectors(input: Uint8Array): WordVectorTable {
  if (input.byteLength < HEADER_BYTES) throw corrupt('too short');
  const bytes = input.byteOffset % 4 === 0 ? input : input.slice();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw corrupt('wrong magic number');
  const version = view.getUint32(4, true);
  if (version !== VERSION) throw corrupt(`version ${version} is not supported`);
  const count = view.getUint32(8, true);
  const dimensions = view.getUint32(12, true);
  const vocabularySize = view.getUint32(16, true);
  const wordsLength = view.getUint32(20, true);
  const expected = HEADER_BYTES + 4 * dimensions + 8 * count + count * dimensions + wordsLength;
  if (dimensions === 0 || bytes.byteLength !== expected) throw corrupt(`expected ${expected} bytes`);
  let offset = bytes.byteOffset + HEADER_BYTES;
  const common = new Float32Array(bytes.buffer, offset, dimensions);
  offset += 4 * dimensions;
  const ranks = new Uint32Array(bytes.buffer, offset, count);
  offset += 4 * count;
  const scales = new Float32Array(bytes.buffer, offset, count);
  offset += 4 * count;
  const codes = new Int8Array(bytes.buffer, offset, count * dimensions);
  offset += count * dimensions;
  const words = new TextDecoder().decode(new Uint8Array(bytes.buffer, offset, wordsLength)).split('\n');
  if (words.length !== count) throw corrupt(`expected ${count} words, found ${words.length}`);
  return { dimensions, words, ranks, scales, codes, common, vocabularySize };
}

/**
 * Reads the format above from its base64 text (the shipped data is an ES module exporting that
 * text, so every runtime and bundler loads it as code, synchronously: no file system, no fetch).
 */
export function decodeWordVectorsBase64(base64: string): WordVectorTable {
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    throw corrupt('not base64');
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return decodeWordVectors(bytes);
}
