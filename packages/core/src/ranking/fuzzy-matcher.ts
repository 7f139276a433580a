import { mixHash } from './tokenizer';

/**
 * Typo tolerance: finds the catalog words within a small edit distance of a query word.
 *
 * A symmetric-delete index (as in SymSpell): every vocabulary word is stored under itself and
 * each of its one-letter deletions; a query word looks up itself, its one-letter and (for
 * long words) two-letter deletions, and each candidate is verified with the true distance.
 * This finds every word within one edit, and the two-edit neighbours that differ by at most
 * one change on the catalog side (two insertions, a deletion plus an insertion, a
 * transposition...), at the memory cost of one-letter deletions only.
 */

/**
 * Allowed edits by word length, as Elasticsearch's `fuzziness: AUTO:4,6`: 0–3 letters → 0,
 * 4–5 → 1, 6+ → 2. (A three-letter word is one edit from dozens of others: expanding it
 * would add noise, not fix typos.)
 */
export function maxEditsFor(length: number): number {
  if (length < 4) return 0;
  return length < 6 ? 1 : 2;
}

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), or
 * `maximum + 1` as soon as it is known to exceed `maximum`.
 */
export function editDistance(left: string, right: string, maximum = Number.POSITIVE_INFINITY): number {
  if (left === right) return 0;
  const leftLength = left.length;
  const rightLength = right.length;
  if (Math.abs(leftLength - rightLength) > maximum) return maximum + 1;
  let previousPrevious = new Array<number>(rightLength + 1).fill(0);
  let previous = Array.from({ length: rightLength + 1 }, (_, index) => index);
  let current = new Array<number>(rightLength + 1).fill(0);
  for (let row = 1; row <= leftLength; row++) {
    current[0] = row;
    let rowMinimum = row;
    for (let column = 1; column <= rightLength; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      let value = Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + cost);
      if (
        row > 1 &&
        column > 1 &&
        left[row - 1] === right[column - 2] &&
        left[row - 2] === right[column - 1]
      ) {
        value = Math.min(value, previousPrevious[column - 2]! + 1);
      }
      current[column] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > maximum) return maximum + 1;
    [previousPrevious, previous, current] = [previous, current, previousPrevious];
  }
  const distance = previous[rightLength]!;
  return distance > maximum ? maximum + 1 : distance;
}

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let index = 0; index < word.length; index++) out.push(word.slice(0, index) + word.slice(index + 1));
  return out;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a (mixed) of `word` without the character at `skip` (−1: the whole word), without building that string. */
function hashWithout(word: string, skip: number): number {
  let hash = FNV_OFFSET;
  for (let index = 0; index < word.length; index++) {
    if (index !== skip) hash = Math.imul(hash ^ word.charCodeAt(index), FNV_PRIME);
  }
  return mixHash(hash);
}

/** Code-unit order of two words (as the engine breaks ties between names). */
export function compareWords(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

export interface FuzzyMatch {
  /** Position of the matched word in the vocabulary given to the matcher. */
  readonly index: number;
  readonly distance: number;
}

export interface FuzzyMatcher {
  /** Vocabulary words within `maximum` edits of `word` (itself excluded), closest first, then in code-unit order. */
  lookup(word: string, maximum: number): FuzzyMatch[];
}

const FUZZY_WORD = /^\p{L}{3,}$/u;
/**
 * Longer query words are not looked up (they are not typos of words, and their deletions grow
 * quadratically with the length); the vocabulary keeps only the words that can be within two
 * edits of one that is (a word's deletions cost time quadratic in its length too).
 */
export const MAX_FUZZY_LENGTH = 24;
const MAX_VOCABULARY_LENGTH = MAX_FUZZY_LENGTH + 2;
const fuzzyWord = (word: string, maximum: number): boolean => word.length <= maximum && FUZZY_WORD.test(word);

/**
 * A matcher over `vocabulary` (words of three to 26 letters take part; words of three to 24
 * letters are looked up). The delete index
 * holds 32-bit hashes, not strings: each word under the hash of itself and of each one-letter
 * deletion, in an open-addressing multimap. A hash collision only adds a candidate, which the
 * distance check then drops. It is built on the first lookup, so a catalog that never sees a
 * typo never pays for it.
 */
export function createFuzzyMatcher(vocabulary: readonly string[]): FuzzyMatcher {
  let built: { mask: number; keys: Int32Array; words: Int32Array } | undefined;

  const build = (): NonNullable<typeof built> => {
    let count = 0;
    for (const word of vocabulary) if (fuzzyWord(word, MAX_VOCABULARY_LENGTH)) count += word.length + 1;
    let capacity = 16;
    while (capacity < count * 2) capacity *= 2;
    const mask = capacity - 1;
    const keys = new Int32Array(capacity);
    const words = new Int32Array(capacity).fill(-1);
    const add = (hash: number, id: number): void => {
      let slot = hash & mask;
      while (words[slot] !== -1) {
        if (keys[slot] === hash && words[slot] === id) return;
        slot = (slot + 1) & mask;
      }
      keys[slot] = hash;
      words[slot] = id;
    };
    vocabulary.forEach((word, id) => {
      if (!fuzzyWord(word, MAX_VOCABULARY_LENGTH)) return;
      for (let skip = -1; skip < word.length; skip++) add(hashWithout(word, skip), id);
    });
    return { mask, keys, words };
  };

  return {
    lookup(word: string, maximum: number): FuzzyMatch[] {
      if (maximum <= 0 || !fuzzyWord(word, MAX_FUZZY_LENGTH)) return [];
      built ??= build();
      const { mask, keys, words } = built;
      // The query word and its deletions (up to two letters), each looked up by hash.
      const variants = new Set<string>([word]);
      let frontier = [word];
      for (let depth = 0; depth < Math.min(maximum, 2); depth++) {
        const next: string[] = [];
        for (const variant of frontier) {
          for (const deleted of deletions(variant)) {
            if (deleted.length > 0 && !variants.has(deleted)) {
              variants.add(deleted);
              next.push(deleted);
            }
          }
        }
        frontier = next;
      }
      const distances = new Map<number, number>();
      for (const variant of variants) {
        const hash = hashWithout(variant, -1);
        for (let slot = hash & mask; words[slot] !== -1; slot = (slot + 1) & mask) {
          const id = words[slot]!;
          if (keys[slot] !== hash || distances.has(id)) continue;
          distances.set(id, editDistance(word, vocabulary[id]!, maximum));
        }
      }
      const matches: FuzzyMatch[] = [];
      for (const [id, distance] of distances) {
        if (distance > 0 && distance <= maximum) matches.push({ index: id, distance });
      }
      // Ties go by the word (code-unit order), not its position: the same catalog in another
      // order gives the same matches.
      return matches.sort(
        (left, right) =>
          left.distance - right.distance || compareWords(vocabulary[left.index]!, vocabulary[right.index]!),
      );
    },
  };
}
