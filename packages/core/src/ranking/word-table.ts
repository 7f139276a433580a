import { keepShape } from './keep-shape';
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

/**
 * A class, not closures in the factory, with one instance kept (see `keep-shape.ts`): the
 * optimised code V8 makes for its methods then survives a full garbage collection after the
 * tables that used it are gone, where a closure's was dropped with its last closure and
 * compiled again by the next build.
 */
class OpenAddressingWordTable implements WordTable {
  private readonly words: string[] = [];
  private mask = (1 << 12) - 1;
  private slots = new Int32Array(this.mask + 1).fill(EMPTY);
  private hashes = new Int32Array(this.mask + 1);

  get size(): number {
    return this.words.length;
  }

  intern(text: string, start: number, end: number, wordHash: number): number {
    const hash = mixHash(wordHash);
    const { slots, hashes, words, mask } = this;
    let slot = hash & mask;
    for (let entry = slots[slot]!; entry !== EMPTY; entry = slots[slot]!) {
      if (hashes[slot] === hash && sameWord(words[entry]!, text, start, end)) return entry;
      slot = (slot + 1) & mask;
    }
    return this.insert(slot, hash, text.slice(start, end).toLowerCase());
  }

  internWord(word: string): number {
    return this.intern(word, 0, word.length, hashWord(word));
  }

  word(entry: number): string {
    return this.words[entry]!;
  }

  private insert(slot: number, hash: number, word: string): number {
    const entry = this.words.length;
    this.words.push(word);
    this.slots[slot] = entry;
    this.hashes[slot] = hash;
    if (this.words.length * 2 > this.mask) this.grow();
    return entry;
  }

  private grow(): void {
    const { mask, slots, hashes } = this;
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
    this.mask = nextMask;
    this.slots = nextSlots;
    this.hashes = nextHashes;
  }
}

function sameWord(word: string, text: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let index = 0; index < word.length; index++) {
    const code = text.charCodeAt(start + index);
    if ((code >= 65 && code <= 90 ? code | 32 : code) !== word.charCodeAt(index)) return false;
  }
  return true;
}

export function createWordTable(): WordTable {
  return new OpenAddressingWordTable();
}

keepShape(new OpenAddressingWordTable());
