import { isStopword } from './stopwords';
import { tokenize } from './tokenizer';

/** Sentence ends: . ! ? ; : before a space or the end (not `3.5` or `math.factorial`), CJK stops, newlines. */
const SENTENCE_END = /(?:[.!?;:](?=\s|$)|[。！？；\n])+/u.source;
/** Words that join two requests in one sentence ("... and convert 200 euros"), and CJK commas. */
const CONJUNCTION =
  /\s*,?\s+(?:and then|and also|and|then|also|as well as|plus|after that|afterwards|additionally|furthermore|moreover|besides)\s+|[，、]/u
    .source;
const BOUNDARY = new RegExp(`${SENTENCE_END}|${CONJUNCTION}`, 'giu');
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
  for (const match of trimmed.matchAll(BOUNDARY)) {
    pieces.push({ start, end: match.index });
    start = match.index + match[0].length;
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
