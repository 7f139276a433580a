import { hashWord, mixHash } from './tokenizer';

/**
 * Words → small integers, looked up straight from a span of a text, so that indexing a catalog
 * makes no string per word: open addressing on the words' FNV-1a hashes, keys compared
 * character by character (ASCII letters case-insensitively). Used while building an index.
 */
export interface WordTable {
  /** Entries so far (ids are 0 .. size − 1, in order of first sight). */
  readonly size: number;
  /** The entry of `text.slice(start, end)` lowercased (ASCII), added if new. */
  intern(text: string, start: number, end: number, hash: number): number;
  /** The entry of a (lowercase) word, added if new. */
  internWord(word: string): number;
  /** The lowercase word of an entry. */
  word(entry: number): string;
}

const EMPTY = -1;

export function createWordTable(): WordTable {
  const words: string[] = [];
  let mask = (1 << 12) - 1;
  let slots = new Int32Array(mask + 1).fill(EMPTY);
  let hashes = new Int32Array(mask + 1);

  const grow = (): void => {
    const nextMask = mask * 2 + 1;
    const nextSlots = new Int32Array(nextMask + 1).fill(EMPTY);
    const nextHashes = new Int32Array(nextMask + 1);
    for (let slot = 0; slot <= mask; slot++) {
      const entry = slots[slot]!;
      if (entry === EMPTY) continue;
      let target = hashes[slot]! & nextMask;
      while (nextSlots[target] !== EMPTY) target = (target + 1) & nextMask;
      nextSlots[target] = entry;
      nextHashes[target] = hashes[slot]!;
    }
    mask = nextMask;
    slots = nextSlots;
    hashes = nextHashes;
  };

  const sameWord = (word: string, text: string, start: number, end: number): boolean => {
    if (word.length !== end - start) return false;
    for (let index = 0; index < word.length; index++) {
      const code = text.charCodeAt(start + index);
      if ((code >= 65 && code <= 90 ? code | 32 : code) !== word.charCodeAt(index)) return false;
    }
    return true;
  };

  const insert = (slot: number, hash: number, word: string): number => {
    const entry = words.length;
    words.push(word);
    slots[slot] = entry;
    hashes[slot] = hash;
    if (words.length * 2 > mask) grow();
    return entry;
  };

  const table: WordTable = {
    get size() {
      return words.length;
    },
    intern(text: string, start: number, end: number, wordHash: number): number {
      const hash = mixHash(wordHash);
      let slot = hash & mask;
      for (let entry = slots[slot]!; entry !== EMPTY; entry = slots[slot]!) {
        if (hashes[slot] === hash && sameWord(words[entry]!, text, start, end)) return entry;
        slot = (slot + 1) & mask;
      }
      return insert(slot, hash, text.slice(start, end).toLowerCase());
    },
    internWord(word: string): number {
      return table.intern(word, 0, word.length, hashWord(word));
    },
    word: (entry: number): string => words[entry]!,
  };
  return table;
}
