/**
 * The catalog words closest in meaning to a request word that no tool contains, by the cosine
 * of their word vectors: the keyword ranker's counterpart, for meaning, of its typo tolerance
 * for spelling ("sunny" → "weather", "landlord" → "property").
 */
import { ToolSearchError } from '../errors';
import type { EmbeddingVector } from './embedder';
import { compareWords } from './fuzzy-matcher';
import { isStopword } from './stopwords';
import {
  finishMatrix,
  type PrefilterSettings,
  QueryViews,
  quantiseInto,
  semanticCandidates,
  type ToolMatrix,
  unitVector,
} from './tool-vectors';

/**
 * Vectors of single words, one per word and in order, answered synchronously (an offline
 * word-level model such as `createWordVectorEmbedder().embedWords`). A word the model does
 * not know gets a zero vector (or an empty one).
 */
export type WordVectors = (words: readonly string[]) => readonly EmbeddingVector[];

/** A catalog term close to a request word. */
export interface WordNeighbour {
  /** The term's id in the index. */
  readonly term: number;
  /** The cosine of the two words' vectors (at least {@link MIN_WORD_SIMILARITY}). */
  readonly similarity: number;
}

export interface WordNeighbours {
  /** The catalog terms closest to `word` (a request word as tokenised), best first; [] for none. */
  of(word: string): readonly WordNeighbour[];
}

/** Catalog words less alike than this (cosine of their vectors) never stand in for a request word. */
export const MIN_WORD_SIMILARITY = 0.5;
/** At most this many catalog words stand in for one request word. */
export const MAX_WORD_NEIGHBOURS = 2;
/** Terms looked at per word (the best, by exact cosine, of those the prefilter leaves). */
const CANDIDATES = 8;
/**
 * A large vocabulary (512 terms or more) is first scanned in a 16-dimension subspace, then
 * the best 8 × 32 estimates are checked exactly. Word vectors spread over every dimension, so
 * the subspace is used however little of their energy it holds (the tools' prefilter asks for
 * 60%): with this many checked, no NDCG@10 figure of the four eval sets moved against exact
 * cosines, and the lookup of a new word fell from about 1.5 ms to 0.2–0.3 ms at 5,500 terms.
 */
const PREFILTER: PrefilterSettings = { minEnergy: 0, oversampling: 32 };
/** Request words whose neighbours are remembered (the memory restarts when full). */
const MEMO_SIZE = 4_096;
/**
 * Only words of letters are matched by meaning, on either side: a number, an id or a code
 * ("2019", "v2", "x86") is close in a word model to other numbers and codes, not to what a
 * request asks for.
 */
const LETTERS_ONLY = /^\p{L}{2,}$/u;

/** Whether `word` can stand in for, or be stood in for by, a word of like meaning. */
export function isMeaningWord(word: string): boolean {
  return LETTERS_ONLY.test(word) && !isStopword(word);
}

/** The vectors of `words` from `wordVectors`, checked to be one per word, given synchronously. */
function vectorsOf(wordVectors: WordVectors, words: readonly string[]): readonly EmbeddingVector[] {
  let vectors: unknown;
  try {
    vectors = wordVectors(words);
  } catch (error) {
    throw new ToolSearchError('INVALID_OPTIONS', 'wordVectors threw', { cause: error });
  }
  if (vectors instanceof Promise) {
    vectors.catch(() => undefined);
    throw new ToolSearchError('INVALID_OPTIONS', 'wordVectors must answer synchronously');
  }
  if (!Array.isArray(vectors) || vectors.length !== words.length) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `wordVectors returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${words.length} words`,
    );
  }
  return vectors as readonly EmbeddingVector[];
}

/** The length of a vector from `wordVectors`: 0 (an unknown word) or `dimensions`. */
function checkedLength(vector: unknown, dimensions: number): number {
  const length = (vector as { length?: unknown } | null)?.length;
  if (typeof length !== 'number') {
    throw new ToolSearchError('INVALID_OPTIONS', 'wordVectors returned something that is not a vector');
  }
  if (length !== 0 && length !== dimensions) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `wordVectors returned vectors of lengths ${length} and ${dimensions}`,
    );
  }
  return length;
}

/** `convert()`, its error about a value that is not finite given this module's terms. */
function finite<T>(convert: () => T): T {
  try {
    return convert();
  } catch (error) {
    throw new ToolSearchError('INVALID_OPTIONS', 'wordVectors returned a value that is not finite', {
      cause: error,
    });
  }
}

/**
 * The neighbours of request words among the catalog's terms. `surfaceWords[term]` is a word of
 * the catalog that the term stands for ('' for none: such terms are never neighbours). The
 * terms' vectors are asked for on the first request word that needs them (one call), not when
 * the catalog is built. A failing `wordVectors` throws a {@link ToolSearchError}
 * (`INVALID_OPTIONS`) from `of`, once: after a failure on the catalog's words no word has
 * neighbours (`of` gives []), and a word whose own vector fails has none from then on.
 */
export function createWordNeighbours(
  surfaceWords: readonly string[],
  wordVectors: WordVectors,
): WordNeighbours {
  let matrix: ToolMatrix | undefined;
  /** Row → term. */
  let termOfRow: Int32Array | undefined;
  const memo = new Map<string, readonly WordNeighbour[]>();
  let failed = false;

  const build = (): ToolMatrix => {
    const rows: number[] = [];
    const words: string[] = [];
    for (let term = 0; term < surfaceWords.length; term++) {
      const word = surfaceWords[term]!;
      if (word !== '' && isMeaningWord(word)) {
        rows.push(term);
        words.push(word);
      }
    }
    const vectors = words.length > 0 ? vectorsOf(wordVectors, words) : [];
    // The length of the first known word's vector: every other must have it (or none).
    let dimensions = 0;
    for (const vector of vectors) {
      const length = (vector as { length?: unknown } | null)?.length;
      if (typeof length === 'number' && length > 0) {
        dimensions = length;
        break;
      }
    }
    const codes = new Int8Array(rows.length * dimensions);
    const scales = new Float32Array(rows.length);
    for (let row = 0; row < rows.length; row++) {
      const vector = vectors[row]!;
      // An unknown word keeps scale 0: it is close to nothing.
      if (checkedLength(vector, dimensions) === 0) continue;
      scales[row] = finite(() => quantiseInto(vector, dimensions, codes, row * dimensions));
    }
    termOfRow = Int32Array.from(rows);
    return finishMatrix(codes, scales, dimensions, PREFILTER);
  };

  const lookUp = (word: string): readonly WordNeighbour[] => {
    if (failed) return [];
    try {
      matrix ??= build();
    } catch (error) {
      // A local word model that fails on the catalog's words fails the same way next time:
      // reported once, then this catalog is searched without meaning.
      failed = true;
      throw error;
    }
    const { dimensions } = matrix;
    if (dimensions === 0 || termOfRow!.length === 0) return [];
    const vector = vectorsOf(wordVectors, [word])[0]!;
    if (checkedLength(vector, dimensions) === 0) return [];
    const view = finite(() => unitVector(vector, dimensions));
    // A word the model does not know may come as a vector of zeros: it is close to nothing, and
    // scanning the catalog's words for it would find every cosine 0.
    if (view.every((value) => value === 0)) return [];
    const found = semanticCandidates(new QueryViews(matrix, [view]), matrix, CANDIDATES);
    const neighbours: WordNeighbour[] = [];
    for (let position = 0; position < found.tools.length; position++) {
      const similarity = found.similarities[position]!;
      if (similarity >= MIN_WORD_SIMILARITY)
        neighbours.push({ term: termOfRow![found.tools[position]!]!, similarity });
    }
    neighbours.sort(
      (left, right) =>
        right.similarity - left.similarity ||
        compareWords(surfaceWords[left.term]!, surfaceWords[right.term]!),
    );
    return neighbours.slice(0, MAX_WORD_NEIGHBOURS);
  };

  return {
    of(word: string): readonly WordNeighbour[] {
      if (!isMeaningWord(word)) return [];
      const known = memo.get(word);
      if (known !== undefined) return known;
      if (memo.size >= MEMO_SIZE) memo.clear();
      try {
        const neighbours = lookUp(word);
        memo.set(word, neighbours);
        return neighbours;
      } catch (error) {
        // Reported once per word: the same word fails the same way.
        memo.set(word, []);
        throw error;
      }
    },
  };
}
