import { isStopword } from './stopwords';
import { tokenize } from './tokenizer';

/*
 * The boundaries between a request's parts, found by one scan of the text (no regular
 * expression: `\s*,?\s+(?:and|…)\s+` backtracks in cubic time on a run of spaces):
 * - a sentence end: a run of `.` `!` `?` `;` `:` each before a space or the end (not `3.5` or
 *   `math.factorial`), CJK stops and newlines;
 * - a joining word ("... and convert 200 euros"): spaces, an optional comma, spaces, one of
 *   {@link JOINING_WORD}'s words in any case, spaces;
 * - a CJK comma (`，` or `、`).
 * At each position a sentence end is tried first, then a joining word, then a CJK comma; the
 * first that matches is the boundary and the scan goes on after it (as a regular expression
 * with those three alternatives would find them).
 */

/** A word that joins two requests in one sentence, then a space; tried only where it must start. */
const JOINING_WORD =
  /(?:and then|and also|and|then|also|as well as|plus|after that|afterwards|additionally|furthermore|moreover|besides)\s/iuy;
const COMMA = 0x2c;

/** Whether a UTF-16 code unit is white space as `\s` sees it (all such characters are in the BMP). */
export function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** `.` `!` `?` `;` `:`: a sentence end before a space or the end of the text. */
const isEndPunctuation = (code: number): boolean =>
  code === 0x2e || code === 0x21 || code === 0x3f || code === 0x3b || code === 0x3a;
/** CJK full stop, exclamation, question and semicolon marks, and the newline: a sentence end anywhere. */
const isStop = (code: number): boolean =>
  code === 0x3002 || code === 0xff01 || code === 0xff1f || code === 0xff1b || code === 0x0a;
const isCjkComma = (code: number): boolean => code === 0xff0c || code === 0x3001;

/** A boundary between two parts: `text.slice(start, end)`. */
export interface ClauseBoundary {
  readonly start: number;
  readonly end: number;
}

/** The boundaries of {@link splitClauses} in `text`, in order; time linear in its length. */
export function clauseBoundaries(text: string): ClauseBoundary[] {
  const length = text.length;
  // spaceEnd[i]: the first position at or after i that is not white space.
  const spaceEnd = new Int32Array(length + 1);
  spaceEnd[length] = length;
  for (let index = length - 1; index >= 0; index--)
    spaceEnd[index] = isSpace(text.charCodeAt(index)) ? spaceEnd[index + 1]! : index;

  /** The end of a sentence end at `start`, or `start`. */
  const sentenceEnd = (start: number): number => {
    let index = start;
    while (index < length) {
      const code = text.charCodeAt(index);
      const ends =
        isStop(code) ||
        (isEndPunctuation(code) && (index + 1 === length || isSpace(text.charCodeAt(index + 1))));
      if (!ends) break;
      index++;
    }
    return index;
  };

  /**
   * The end of a joining word's boundary at `start`, or `start`. The leading spaces reach the
   * first non-space; there a comma needs spaces after it, and anything else needs spaces before
   * it. Either way the word can only start at the first non-space after those spaces, so each
   * position costs one look-up, however long the run of spaces.
   */
  const joiningWord = (start: number): number => {
    const afterSpaces = spaceEnd[start]!;
    let word: number;
    if (text.charCodeAt(afterSpaces) === COMMA) {
      word = spaceEnd[afterSpaces + 1]!;
      if (word === afterSpaces + 1) return start;
    } else {
      if (afterSpaces === start) return start;
      word = afterSpaces;
    }
    JOINING_WORD.lastIndex = word;
    const match = JOINING_WORD.exec(text);
    return match === null ? start : spaceEnd[word + match[0].length]!;
  };

  const boundaries: ClauseBoundary[] = [];
  let index = 0;
  while (index < length) {
    let end = sentenceEnd(index);
    if (end === index) end = joiningWord(index);
    if (end === index && isCjkComma(text.charCodeAt(index))) end = index + 1;
    if (end === index) {
      index++;
      continue;
    }
    boundaries.push({ start: index, end });
    index = end;
  }
  return boundaries;
}

/** A part needs this many content words to stand alone; a shorter part rejoins its neighbour. */
const MIN_CONTENT_WORDS = 2;

function contentWords(text: string): number {
  let count = 0;
  for (const token of tokenize(text)) if (!isStopword(token)) count++;
  return count;
}

/**
 * Splits a request into its parts: sentences, then clauses joined by "and", "then",
 * "also"... A part with fewer than two content words ("and referees") is not a request of its
 * own and stays with its neighbour, joining word included. Returns the trimmed parts in order:
 * `[request]` for a request of one part, `[]` for an empty one.
 */
export function splitClauses(text: string): string[] {
  if (typeof text !== 'string') return [];
  const trimmed = text.trim();
  if (trimmed.length === 0) return [];
  const pieces: { start: number; end: number }[] = [];
  let start = 0;
  for (const boundary of clauseBoundaries(trimmed)) {
    pieces.push({ start, end: boundary.start });
    start = boundary.end;
  }
  pieces.push({ start, end: trimmed.length });
  const parts: { start: number; end: number; words: number }[] = [];
  for (const piece of pieces) {
    if (trimmed.slice(piece.start, piece.end).trim().length === 0) continue;
    const words = contentWords(trimmed.slice(piece.start, piece.end));
    const last = parts[parts.length - 1];
    if (last !== undefined && (words < MIN_CONTENT_WORDS || last.words < MIN_CONTENT_WORDS)) {
      last.end = piece.end;
      last.words += words;
    } else {
      parts.push({ ...piece, words });
    }
  }
  if (parts.length === 0) return [trimmed];
  return parts.map((part) => trimmed.slice(part.start, part.end).trim());
}

/** At most this many parts of a request are ranked separately; more are grouped. */
export const MAX_REQUEST_PARTS = 6;

/** The last request split by {@link requestParts}, and its parts. */
let lastRequest: { readonly text: string; readonly parts: readonly string[] } | undefined;

/**
 * The parts of a request to rank separately: `[]` for a request of one part; more than
 * MAX_REQUEST_PARTS parts are grouped, neighbours together, into that many. The last request's
 * parts are remembered: the hybrid ranker and the keyword ranker inside it split the same text.
 */
export function requestParts(text: string): string[] {
  if (lastRequest?.text !== text) lastRequest = { text, parts: groupParts(splitClauses(text)) };
  return [...lastRequest.parts];
}

function groupParts(parts: string[]): string[] {
  if (parts.length <= 1) return [];
  if (parts.length <= MAX_REQUEST_PARTS) return parts;
  const size = Math.ceil(parts.length / MAX_REQUEST_PARTS);
  const grouped: string[] = [];
  for (let start = 0; start < parts.length; start += size)
    grouped.push(parts.slice(start, start + size).join(' '));
  return grouped;
}
