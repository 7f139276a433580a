import { stem } from './stemmer';
import { mixHash, tokenize } from './tokenizer';

/** A chunk written as an identifier: a separator between letters/digits, or a lower→upper case change. */
const IDENTIFIER = /[\p{L}\p{N}][_.\-/:][\p{L}\p{N}]|\p{Ll}\p{Lu}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** {@link LETTER_OR_DIGIT} at one position (`lastIndex`) only. */
const LETTER_OR_DIGIT_AT = /[\p{L}\p{N}]/uy;
const HAS_LETTER = /\p{L}/u;
/** A whole query longer than this is not a tool name. */
const MAX_NAME_WORDS = 16;

/** A name word → its stem. An object with a method, not a bare function, for the reason in `keep-shape.ts`. */
export interface NameStemmer {
  stemNameWord(word: string): string;
}

const PORTER_STEMMER: NameStemmer = { stemNameWord: stem };

/** Where a name key's hash starts (FNV-1a's offset basis): see {@link extendNameKey}. */
export const NAME_KEY_START = 0x811c9dc5;

/** A name key's hash (FNV-1a) with `word` appended to the key. */
export function extendNameKey(hash: number, word: string): number {
  let extended = hash;
  for (let index = 0; index < word.length; index++) {
    extended = Math.imul(extended ^ word.charCodeAt(index), 0x01000193);
  }
  return extended;
}

/** The hash a name key is kept by, from {@link extendNameKey}'s over all its words. */
export function finishNameKey(hash: number): number {
  return mixHash(hash);
}

/** FNV-1a over the words joined, as written or stemmed (without building the joined string). */
function hashWords(words: readonly string[], stemmer: NameStemmer | undefined): number {
  let hash = NAME_KEY_START;
  for (const word of words)
    hash = extendNameKey(hash, stemmer === undefined ? word : stemmer.stemNameWord(word));
  return finishNameKey(hash);
}

/**
 * Each name's two key hashes ({@link finishNameKey}: its words as written, and stemmed), made by a
 * caller that read the words anyway (the catalog index, while indexing the names).
 */
export interface NameKeys {
  readonly plain: Int32Array;
  readonly stemmed: Int32Array;
  /** The words of each name (a name of none has no key). */
  readonly counts: Int32Array;
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
  keys: NameKeys | undefined,
): KeyTable {
  let capacity = 16;
  while (capacity < names.length * 4) capacity *= 2;
  const table: KeyTable = {
    mask: capacity - 1,
    slots: new Int32Array(capacity).fill(-1),
    hashes: new Int32Array(capacity),
  };
  for (let document = 0; document < names.length; document++) {
    let plain: number;
    let stemmed: number;
    if (keys === undefined) {
      const words = nameWords?.[document] ?? tokenize(names[document]!);
      if (words.length === 0) continue;
      plain = hashWords(words, undefined);
      stemmed = hashWords(words, stemmer);
    } else {
      if (keys.counts[document] === 0) continue;
      plain = keys.plain[document]!;
      stemmed = keys.stemmed[document]!;
    }
    insertKey(table, plain, document);
    if (stemmed !== plain) insertKey(table, stemmed, document);
  }
  return table;
}

/**
 * `chunk` without the punctuation at its ends (everything before its first letter or digit and
 * after its last), in one pass: the expression `[^\p{L}\p{N}]+$` would scan a run of
 * punctuation from each of its characters, in time quadratic in the run.
 */
export function trimToWord(chunk: string): string {
  const start = chunk.search(LETTER_OR_DIGIT);
  if (start === -1) return '';
  let end = chunk.length;
  for (;;) {
    // The last character before `end`: a surrogate pair is one character.
    const code = chunk.charCodeAt(end - 1);
    const previous = end - 2 >= start ? chunk.charCodeAt(end - 2) : 0;
    const width = code >= 0xdc00 && code <= 0xdfff && previous >= 0xd800 && previous <= 0xdbff ? 2 : 1;
    LETTER_OR_DIGIT_AT.lastIndex = end - width;
    if (LETTER_OR_DIGIT_AT.test(chunk)) return chunk.slice(start, end);
    end -= width;
  }
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
    /** The names' key hashes, when the caller has made them (with the same stemmer); `words` is then not read. */
    keys?: NameKeys;
  } = {},
): NameMatcher {
  const queryStemmer = options.queryStemmer ?? options.stemmer ?? PORTER_STEMMER;
  const { mask, slots, hashes } = buildKeyTable(
    names,
    options.stemmer ?? PORTER_STEMMER,
    options.words,
    options.keys,
  );
  const keysOf = (words: readonly string[]): string[] => [
    words.join(''),
    words.map((word) => queryStemmer.stemNameWord(word)).join(''),
  ];

  // `found` in order, and as a set: a long query of many names must not scan the list per name.
  const lookup = (words: readonly string[], found: number[], seen: Set<number>): void => {
    const wanted = keysOf(words);
    for (const hash of new Set([hashWords(words, undefined), hashWords(words, queryStemmer)])) {
      for (let slot = hash & mask; slots[slot] !== -1; slot = (slot + 1) & mask) {
        const document = slots[slot]!;
        if (hashes[slot] !== hash || seen.has(document)) continue;
        const keys = keysOf(tokenize(names[document]!));
        if (keys.some((key) => wanted.includes(key))) {
          found.push(document);
          seen.add(document);
        }
      }
    }
  };

  return {
    find(query: string): number[] {
      const found: number[] = [];
      const seen = new Set<number>();
      const words = tokenize(query);
      if (words.length === 0) return found;
      if (words.length <= MAX_NAME_WORDS) lookup(words, found, seen);
      for (const raw of query.split(/\s+/)) {
        const chunk = trimToWord(raw);
        if (IDENTIFIER.test(chunk) && HAS_LETTER.test(chunk)) lookup(tokenize(chunk), found, seen);
      }
      return found;
    },
  };
}
