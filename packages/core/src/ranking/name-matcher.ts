import { stem } from './stemmer';
import { mixHash, tokenize } from './tokenizer';

/** A chunk written as an identifier: a separator between letters/digits, or a lower→upper case change. */
const IDENTIFIER = /[\p{L}\p{N}][_.\-/:][\p{L}\p{N}]|\p{Ll}\p{Lu}/u;
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const HAS_LETTER = /\p{L}/u;
/** A whole query longer than this is not a tool name. */
const MAX_NAME_WORDS = 16;

/** A name word → its stem. An object with a method, not a bare function, for the reason in `keep-shape.ts`. */
export interface NameStemmer {
  stemNameWord(word: string): string;
}

const PORTER_STEMMER: NameStemmer = { stemNameWord: stem };

/** FNV-1a over the words joined, as written or stemmed (without building the joined string). */
function hashWords(words: readonly string[], stemmer: NameStemmer | undefined): number {
  let hash = 0x811c9dc5;
  for (const word of words) {
    const mapped = stemmer === undefined ? word : stemmer.stemNameWord(word);
    for (let index = 0; index < mapped.length; index++) {
      hash = Math.imul(hash ^ mapped.charCodeAt(index), 0x01000193);
    }
  }
  return mixHash(hash);
}

interface KeyTable {
  readonly mask: number;
  readonly slots: Int32Array;
  readonly hashes: Int32Array;
}

function insertKey(table: KeyTable, hash: number, document: number): void {
  const { mask, slots, hashes } = table;
  let slot = hash & mask;
  while (slots[slot] !== -1) slot = (slot + 1) & mask;
  slots[slot] = document;
  hashes[slot] = hash;
}

/**
 * The open-addressing table of the names' key hashes. A function of its own, so that nothing
 * used only while building (a caller's stem cache, say) stays reachable from the matcher.
 */
function buildKeyTable(
  names: readonly string[],
  stemmer: NameStemmer,
  nameWords: readonly (readonly string[])[] | undefined,
): KeyTable {
  let capacity = 16;
  while (capacity < names.length * 4) capacity *= 2;
  const table: KeyTable = {
    mask: capacity - 1,
    slots: new Int32Array(capacity).fill(-1),
    hashes: new Int32Array(capacity),
  };
  for (let document = 0; document < names.length; document++) {
    const words = nameWords?.[document] ?? tokenize(names[document]!);
    if (words.length === 0) continue;
    const plain = hashWords(words, undefined);
    const stemmed = hashWords(words, stemmer);
    insertKey(table, plain, document);
    if (stemmed !== plain) insertKey(table, stemmed, document);
  }
  return table;
}

export interface NameMatcher {
  /** The tools a query names, in the order named (a whole query equal to a name first). */
  find(query: string): number[];
}

/**
 * Recognises a query that names a tool, exactly or nearly: `list_github_prs`,
 * `listGithubPrs`, `list-github-prs`, `ListGithubPR` and `list github prs` all name the tool
 * `list_github_prs`, since their words are the same once case, separators and word endings
 * (stems) are set aside. Inside a longer request only chunks written as identifiers (with a
 * separator or a case change) count, so the plain word "search" does not name a tool called
 * `search`.
 *
 * Each name is known by two keys, its words joined as written and stemmed. The keys live in
 * an open-addressing table of 32-bit hashes (no strings kept); a hit is confirmed against the
 * name itself.
 */
export function createNameMatcher(
  names: readonly string[],
  options: {
    /** The stemmer of the names' words (default Porter's). */
    stemmer?: NameStemmer;
    /** The same stemmer for queries, when `stemmer` only works while building (a cache). */
    queryStemmer?: NameStemmer;
    /** The names' words, when the caller has them already. */
    words?: readonly (readonly string[])[];
  } = {},
): NameMatcher {
  const queryStemmer = options.queryStemmer ?? options.stemmer ?? PORTER_STEMMER;
  const { mask, slots, hashes } = buildKeyTable(names, options.stemmer ?? PORTER_STEMMER, options.words);
  const keysOf = (words: readonly string[]): string[] => [
    words.join(''),
    words.map((word) => queryStemmer.stemNameWord(word)).join(''),
  ];

  const lookup = (words: readonly string[], found: number[]): void => {
    const wanted = keysOf(words);
    for (const hash of new Set([hashWords(words, undefined), hashWords(words, queryStemmer)])) {
      for (let slot = hash & mask; slots[slot] !== -1; slot = (slot + 1) & mask) {
        const document = slots[slot]!;
        if (hashes[slot] !== hash || found.includes(document)) continue;
        const keys = keysOf(tokenize(names[document]!));
        if (keys.some((key) => wanted.includes(key))) found.push(document);
      }
    }
  };

  return {
    find(query: string): number[] {
      const found: number[] = [];
      const words = tokenize(query);
      if (words.length === 0) return found;
      if (words.length <= MAX_NAME_WORDS) lookup(words, found);
      for (const raw of query.split(/\s+/)) {
        const chunk = raw.replace(EDGE_PUNCTUATION, '');
        if (IDENTIFIER.test(chunk) && HAS_LETTER.test(chunk)) lookup(tokenize(chunk), found);
      }
      return found;
    },
  };
}
