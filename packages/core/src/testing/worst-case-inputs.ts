import type { ToolDescriptor } from '../types';
import { sampleTools } from './sample-tools';

/**
 * Pieces of text that, repeated, make the slowest inputs for text code: runs of white space
 * (each kind), of commas and other punctuation, separators alternating with joining words
 * (", and , and …"), combining marks (alternating classes, which the platform's
 * normalisation sorts), invisible characters between marks, identifier glue, scripts without
 * spaces and surrogate pairs. Each is a known way to make a regular expression backtrack or a
 * loop rescan a run.
 */
export const WORST_CASE_PIECES: readonly string[] = [
  ' ',
  '\t',
  '\n',
  '\u00a0',
  ' \t\n',
  ',',
  ', ',
  ' ,',
  ', and ',
  ' and ',
  ' and then ',
  ',and',
  '!',
  '?.',
  '. ',
  ';:',
  '...',
  '_',
  '-',
  '/',
  "'",
  "'s ",
  '"',
  ' "x',
  '`',
  '\u0301',
  '\u0301\u0316',
  'e\u0301\u0316',
  '\uff9e\u0301',
  '\u0301\u200d\u0316',
  '\u200b',
  '，',
  '、',
  '。',
  'aB',
  'a1',
  'x_',
  'abcdefghijklmnopqrstuvwxyz',
  'weather ',
  '中文',
  '한국어',
  'ภาษาไทย',
  '😀',
];

export interface WorstCaseInput {
  /** What the text is made of, e.g. `", and " × 16,666`. */
  readonly name: string;
  readonly text: string;
}

/**
 * `piece` repeated to `length` characters (UTF-16 code units), between two words (`a … b`)
 * so that trimming does not remove the run.
 */
export function repeatedInput(piece: string, length: number): string {
  const inner = Math.max(0, length - 2);
  return `a${piece.repeat(Math.ceil(inner / piece.length)).slice(0, inner)}b`;
}

/** Each of {@link WORST_CASE_PIECES} repeated to `length` characters ({@link repeatedInput}). */
export function worstCaseInputs(length: number): WorstCaseInput[] {
  return WORST_CASE_PIECES.map((piece) => ({
    name: `${JSON.stringify(piece)} × ${Math.ceil(Math.max(0, length - 2) / piece.length).toLocaleString('en-US')}`,
    text: repeatedInput(piece, length),
  }));
}

/**
 * `count` tool descriptors made from the sample tools (each sample tool again and again, under
 * a name and a description of its own), for tests that need a large catalog.
 */
export function manySampleTools(count: number): ToolDescriptor[] {
  return Array.from({ length: count }, (_, index) => {
    const tool = sampleTools[index % sampleTools.length]!;
    const copy = Math.floor(index / sampleTools.length);
    return {
      ...tool,
      name: `${tool.name}_${copy}`,
      description: `${tool.description ?? ''} Served from region ${copy}.`,
    };
  });
}
