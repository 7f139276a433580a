/**
 * Unicode-aware tokenisation shared by indexing and querying.
 *
 * - Identifiers are split into words: camelCase, PascalCase, ACRONYMWords, letter/digit
 *   boundaries, and every non-letter separator (`_`, `-`, `.`, `/`, spaces...).
 * - Text is folded: lowercased, compatibility forms unified (NFKD: full-width letters,
 *   ligatures) and accents removed (`café` → `cafe`; Arabic and Hebrew vowel marks too), then
 *   recomposed (NFC) so that Hangul and kana keep their composed forms. Latin letters that do
 *   not decompose are folded as accented ones are (`ł` → `l`, `ø` → `o`, `ß` → `ss`, Turkish
 *   `ı` → `i`, so that `IŞIK` and `ışık` are one word), and invisible format characters (soft
 *   hyphens, zero-width spaces and joiners) are dropped, so they never split a word.
 * - Scripts written without spaces: Han, Hiragana and Katakana runs become single characters
 *   plus overlapping bigrams (the CJK bigram scheme of classic search engines); Hangul words
 *   keep the whole word plus bigrams, since Korean particles attach to words; Thai, Lao, Khmer
 *   and Myanmar runs go through the platform's word segmenter (`Intl.Segmenter`).
 */

/**
 * The marks a folded word goes without: combining diacritical marks (U+0300–U+036F, the accents
 * of Latin, Greek and Cyrillic), Hebrew points and cantillation, Arabic vowel marks (harakat,
 * and the hamza and madda that NFKD splits off `أ`, `إ`, `آ`), Quranic annotation signs, and the
 * Arabic tatweel that stretches a word. Each is written in some texts and left out in others.
 */
const ACCENTS =
  /[\u0300-\u036f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u0640\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed]/g;
/**
 * Lowercase letters that no decomposition folds, written as ASCII (as Lucene's ASCII folding
 * does), and the final sigma as σ (as Unicode case folding does): `IŞIK` folds to `isik`
 * and `ışık` must match it, `STRASSE` and `straße` are one word, and `Łódź` is typed `Lodz`.
 */
const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ı: 'i',
  ß: 'ss',
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ħ: 'h',
  ŧ: 't',
  æ: 'ae',
  œ: 'oe',
  þ: 'th',
  ð: 'd',
  ς: 'σ',
};
const FOLDED_LETTERS = /[ıßłøđħŧæœþðς]/g;
/** {@link FOLDED_LETTERS} without the global flag: whether a text has any (no replace without). */
const FOLDED_LETTER = /[ıßłøđħŧæœþðς]/;
const foldLetter = (letter: string): string => LETTER_FOLDS[letter]!;
/**
 * Invisible characters that are no part of the text's words (Unicode's default-ignorable code
 * points: soft hyphen, zero-width space, non-joiner and joiner, word joiner, BOM, bidi controls,
 * variation selectors, Hangul fillers), and the keycap mark of `5️⃣`. Text copied from web
 * pages and documents has them inside words, where they would split a word in two; the
 * variation selector after an emoji (U+FE0F in ☀️, ⚡️) would glue it to the next word (⚡️Fast).
 */
const INVISIBLES = /\p{Default_Ignorable_Code_Point}|\u20E3/gu;
/** {@link INVISIBLES} without the global flag: whether a text has any (no replace without). */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}|\u20E3/u;
/**
 * A word: a letter or digit, then letters, digits and the combining marks inside them. A mark
 * alone is no word: the variation selector after an emoji (U+FE0F in ☀️, ⚡️) would otherwise
 * be one, shared by every text with such an emoji, or glued to the next word (⚡️Fast).
 */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
/** Whether a text may have a possessive at all (no replace without). */
const APOSTROPHE = /['’]/;
/** Identifier boundaries inside a word (before normalisation, while case is still known). */
const CAMEL_BOUNDARY =
  /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
const POSSESSIVE = /(?<=\p{L})['’][sS](?![\p{L}\p{N}])/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]/u;
const HANGUL = /\p{Script=Hangul}/u;
const SEGMENTED_SCRIPT = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const CJK_RUNS = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]+)/u;

/**
 * Combining marks in a row kept before normalising (Unicode's stream-safe limit, UAX #15), and
 * the halfwidth kana voicing marks that decompose to combining marks. The platform's
 * normalisation sorts a run of marks in time quadratic in its length (a hundred thousand
 * marks: seconds); no writing system puts more than a few on one letter.
 */
export const MAX_MARKS_IN_A_ROW = 30;
const LONG_MARK_RUN = /[\p{M}\uff9e\uff9f]{31}/u;
const MARKS_PAST_LIMIT = /(?<=[\p{M}\uff9e\uff9f]{30})[\p{M}\uff9e\uff9f]+/gu;

/** `text` with each run of combining marks cut to its first {@link MAX_MARKS_IN_A_ROW}. */
export function capMarkRuns(text: string): string {
  return LONG_MARK_RUN.test(text) ? text.replace(MARKS_PAST_LIMIT, '') : text;
}

/**
 * Lowercases and folds a text: compatibility forms unified, accents removed, Latin letters
 * without a decomposition folded (`ł` → `l`, `ß` → `ss`, `ı` → `i`), invisible format
 * characters dropped, a run of more than 30 combining marks cut to 30. Idempotent:
 * `normalizeText(normalizeText(x)) === normalizeText(x)`.
 */
export function normalizeText(text: string): string {
  // Invisibles go first: dropped after recomposition, they could leave characters that compose.
  // Mark runs are cut after them: an invisible between two runs would otherwise hide a long one.
  const visible = capMarkRuns(INVISIBLE.test(text) ? text.replace(INVISIBLES, '') : text);
  // Decomposing can lengthen a run of marks again (one mark may decompose into two): cut again.
  const folded = capMarkRuns(visible.toLowerCase().normalize('NFKD').replace(ACCENTS, ''))
    .normalize('NFC')
    .toLowerCase();
  return FOLDED_LETTER.test(folded) ? folded.replace(FOLDED_LETTERS, foldLetter) : folded;
}

/** What every boundary of {@link CAMEL_BOUNDARY} needs: an uppercase letter or a digit. */
const UPPER_OR_DIGIT = /[\p{Lu}\p{N}]/u;

/** Splits one identifier-like word at its case and letter/digit boundaries (no normalisation). */
export function splitIdentifier(word: string): string[] {
  // A word without an uppercase letter or a digit has no boundary: most words of a text, and
  // every word of a script without case (Chinese, Japanese), where the lookbehinds cost a third
  // of the tokenising.
  if (!UPPER_OR_DIGIT.test(word)) return word.length > 0 ? [word] : [];
  return word.split(CAMEL_BOUNDARY).filter((part) => part.length > 0);
}

let segmenter: Intl.Segmenter | undefined;

function segmentWords(run: string, out: string[]): void {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  for (const piece of segmenter.segment(run)) {
    if (piece.isWordLike) out.push(piece.segment);
  }
}

function pushCharactersAndBigrams(run: string, out: string[]): void {
  const characters = Array.from(run);
  for (let index = 0; index < characters.length; index++) {
    out.push(characters[index]!);
    if (index + 1 < characters.length) out.push(characters[index]! + characters[index + 1]!);
  }
}

/** Emits the tokens of one normalised word (letters, digits and marks only). */
function pushWord(word: string, out: string[]): void {
  if (CJK.test(word)) {
    for (const part of word.split(CJK_RUNS)) {
      if (part.length === 0) continue;
      if (CJK.test(part)) pushCharactersAndBigrams(part, out);
      else pushWord(part, out);
    }
    return;
  }
  if (SEGMENTED_SCRIPT.test(word)) {
    segmentWords(word, out);
    return;
  }
  out.push(word);
  if (HANGUL.test(word) && word.length > 2) {
    const characters = Array.from(word);
    for (let index = 0; index + 1 < characters.length; index++) {
      out.push(characters[index]! + characters[index + 1]!);
    }
  }
}

/** Character classes of the ASCII scanner: 0 separator, 1 digit, 2 upper, 3 lower. */
const SEPARATOR = 0;
const DIGIT = 1;
const UPPER = 2;
const LOWER = 3;
const ASCII_CLASS = new Uint8Array(128);
for (let code = 48; code <= 57; code++) ASCII_CLASS[code] = DIGIT;
for (let code = 65; code <= 90; code++) ASCII_CLASS[code] = UPPER;
for (let code = 97; code <= 122; code++) ASCII_CLASS[code] = LOWER;

function classAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code < 128 ? ASCII_CLASS[code]! : SEPARATOR;
}

/** Receives the words of {@link scanAsciiWords}. */
export interface WordSink {
  /**
   * One word: `text.slice(start, end)` lowercased. `hash` is the 32-bit FNV-1a hash of the
   * lowercased word's character codes (see {@link hashWord}).
   */
  word(text: string, start: number, end: number, hash: number): void;
}

const NON_ASCII = /[\u0080-\uffff]/;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * Spreads a 32-bit hash over all its bits (MurmurHash3's finaliser), so that the low bits a
 * power-of-two table uses do not cluster for similar words.
 */
export function mixHash(hash: number): number {
  let mixed = hash ^ (hash >>> 16);
  mixed = Math.imul(mixed, 0x85ebca6b);
  mixed ^= mixed >>> 13;
  mixed = Math.imul(mixed, 0xc2b2ae35);
  return mixed ^ (mixed >>> 16);
}

/**
 * The hash a {@link WordSink} is given with a word: the 32-bit FNV-1a hash of its (lowercase)
 * character codes. For tables of words keyed the same way.
 */
export function hashWord(word: string): number {
  let hash = FNV_OFFSET;
  for (let index = 0; index < word.length; index++)
    hash = Math.imul(hash ^ word.charCodeAt(index), FNV_PRIME);
  return hash;
}

/**
 * The fast path for ASCII text (most of any catalog): one scan that splits words and
 * identifiers, with the same words as the general path, handed to `sink` as spans of the text
 * (no string is made per word). Returns false, without calling the sink, if the text is not
 * ASCII.
 */
export function scanAsciiWords(text: string, sink: WordSink): boolean {
  if (NON_ASCII.test(text)) return false;
  const length = text.length;
  let index = 0;
  while (index < length) {
    let code = text.charCodeAt(index);
    let kind = ASCII_CLASS[code]!;
    if (kind === SEPARATOR) {
      // Skip separators, and the 's of a possessive ("Messi's").
      const possessive =
        code === 39 &&
        classAt(text, index - 1) >= UPPER &&
        (text.charCodeAt(index + 1) | 32) === 115 &&
        classAt(text, index + 2) === SEPARATOR;
      index += possessive ? 2 : 1;
      continue;
    }
    let start = index;
    let previous = kind;
    let hash = Math.imul(FNV_OFFSET ^ (kind === UPPER ? code | 32 : code), FNV_PRIME);
    for (index++; index < length; index++) {
      code = text.charCodeAt(index);
      kind = ASCII_CLASS[code]!;
      if (kind === SEPARATOR) break;
      // camelCase (lower→Upper), digits↔letters, and ACRONYMWord (the last capital starts a word).
      const boundary =
        (kind !== previous &&
          (previous === DIGIT || kind === DIGIT || (previous === LOWER && kind === UPPER))) ||
        (previous === UPPER && kind === UPPER && classAt(text, index + 1) === LOWER);
      if (boundary) {
        sink.word(text, start, index, hash);
        start = index;
        hash = FNV_OFFSET;
      }
      hash = Math.imul(hash ^ (kind === UPPER ? code | 32 : code), FNV_PRIME);
      previous = kind;
    }
    sink.word(text, start, index, hash);
  }
  return true;
}

/** Collects the words of an ASCII text as lowercase strings (one sink for every call: no closure per call). */
const collector = {
  out: [] as string[],
  lower: '',
  word(_text: string, start: number, end: number): void {
    this.out.push(this.lower.slice(start, end));
  },
};

function tokenizeAscii(text: string): string[] | undefined {
  const out: string[] = [];
  collector.out = out;
  collector.lower = text.toLowerCase();
  const ascii = scanAsciiWords(text, collector);
  collector.out = [];
  collector.lower = '';
  return ascii ? out : undefined;
}

/**
 * The words of a text, in order: identifiers split, folded to lowercase without accents,
 * CJK runs as characters and bigrams. Never throws; every token is non-empty.
 */
export function tokenize(text: string): string[] {
  if (typeof text !== 'string' || text.length === 0) return [];
  return tokenizeAscii(text) ?? tokenizeUnicode(text);
}

/**
 * The words of {@link tokenize}, handed to `sink` one by one with their hashes: for ASCII text
 * (most of any catalog) as spans of the text, with no string made per word; otherwise each
 * word as a string of its own (`start` 0, `end` its length). For code that looks words up in
 * a table of its own, such as an embedder's vocabulary (see {@link createWordTable}).
 */
export function forEachWord(text: string, sink: WordSink): void {
  if (typeof text !== 'string' || text.length === 0) return;
  if (scanAsciiWords(text, sink)) return;
  for (const word of tokenizeUnicode(text)) sink.word(word, 0, word.length, hashWord(word));
}

/**
 * The last text of {@link tokenizeUnicode} and its words: a search tokenises its request three
 * times (the name matcher, the scorer, the clause splitter), and a script without spaces costs
 * the platform's word segmenter each time.
 */
let lastUnicode: { readonly text: string; readonly words: readonly string[] } | undefined;

/** The general path of {@link tokenize}, for any text (exported for tests). */
export function tokenizeUnicode(text: string): string[] {
  if (lastUnicode?.text !== text) lastUnicode = { text, words: tokenizeUnicodeText(text) };
  return [...lastUnicode.words];
}

function tokenizeUnicodeText(text: string): string[] {
  const out: string[] = [];
  let cleaned = capMarkRuns(text).normalize('NFC');
  // Most texts have neither: no replace (a pass over the text and a copy of it) without.
  if (INVISIBLE.test(cleaned)) cleaned = capMarkRuns(cleaned.replace(INVISIBLES, ''));
  if (APOSTROPHE.test(cleaned)) cleaned = cleaned.replace(POSSESSIVE, '');
  for (const word of cleaned.match(WORD) ?? []) {
    for (const part of splitIdentifier(word)) {
      for (const normalised of normalizeText(part).match(WORD) ?? []) pushWord(normalised, out);
    }
  }
  return out;
}
