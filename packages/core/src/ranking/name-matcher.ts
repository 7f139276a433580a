import { stem } from './stemmer';
import { mixHash, tokenize } from './tokenizer';

/** A chunk written as an identifier: a separator between letters/digits, or a lower→upper case change. */
const IDENTIFIER = /[\p{L}\p{N}][_.\-/:][\p{L}\p{N}]|\p{Ll}\p{Lu}/u;
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const HAS_LETTER = /\p{L}/u;
/** A whole query longer than this is not a tool name. */
const MAX_NAME_WORDS = 16;

/** FNV-1a over the words joined (without building the joined string). */
function hashWords(words: readonly string[], map: (word: string) => string): number {
  let hash = 0x811c9dc5;
  for (const word of words) {
    const mapped = map(word);
    for (let index = 0; index < mapped.length; index++) {
      hash = Math.imul(hash ^ mapped.charCodeAt(index), 0x01000193);
    }
  }
  return mixHash(hash);
}

const asWritten = (word: string): string => word;

/**
 * The open-addressing table of the names' key hashes. A function of its own, so that nothing
 * used only while building (a caller's stem cache, say) stays reachable from the matcher.
 */
function buildKeyTable(
  names: readonly string[],
  stemWord: (word: string) => string,
  nameWords: readonly (readonly string[])[] | undefined,
): { mask: number; slots: Int32Array; hashes: Int32Array } {
  let capacity = 16;
  while (capacity < names.length * 4) capacity *= 2;
  const mask = capacity - 1;
  const slots = new Int32Array(capacity).fill(-1);
  const hashes = new Int32Array(capacity);
  const insert = (hash: number, document: number): void => {
    let slot = hash & mask;
    while (slots[slot] !== -1) slot = (slot + 1) & mask;
    slots[slot] = document;
    hashes[slot] = hash;
  };
  names.forEach((name, document) => {
    const words = nameWords?.[document] ?? tokenize(name);
    if (words.length === 0) return;
    const plain = hashWords(words, asWritten);
    const stemmed = hashWords(words, stemWord);
    insert(plain, document);
    if (stemmed !== plain) insert(stemmed, document);
  });
  return { mask, slots, hashes };
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
    /** The stemmer (default Porter's). */
    stemWord?: (word: string) => string;
    /** The same stemmer for queries, when `stemWord` only works while building (a cache). */
    queryStemWord?: (word: string) => string;
    /** The names' words, when the caller has them already. */
    words?: readonly (readonly string[])[];
  } = {},
): NameMatcher {
  const stemWord = options.queryStemWord ?? options.stemWord ?? stem;
  const { mask, slots, hashes } = buildKeyTable(names, options.stemWord ?? stem, options.words);
  const keysOf = (words: readonly string[]): string[] => [words.join(''), words.map(stemWord).join('')];

  const lookup = (words: readonly string[], found: number[]): void => {
    const wanted = keysOf(words);
    for (const hash of new Set([hashWords(words, asWritten), hashWords(words, stemWord)])) {
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
