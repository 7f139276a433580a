import type { ToolDescriptor } from '../types';
import { createInvertedIndexBuilder, type FieldSpec, type InvertedIndex } from './inverted-index';
import { createNameMatcher, type NameMatcher } from './name-matcher';
import { forEachSchemaText } from './schema-texts';
import { isStopword } from './stopwords';
import { forEachWord, tokenize, type WordSink } from './tokenizer';
import { createWordTable } from './word-table';

/** The fields of a tool, in index order. */
export const FIELD_NAME = 0;
export const FIELD_TAGS = 1;
export const FIELD_DESCRIPTION = 2;
export const FIELD_PARAMETERS = 3;

export interface CatalogIndex {
  readonly index: InvertedIndex;
  /** Per tool (in catalog order): its name and description as given ('' when not a string). */
  readonly names: readonly string[];
  readonly descriptions: readonly string[];
  readonly nameMatcher: NameMatcher;
}

/** The term of a word that is not indexed (a stopword outside a name). */
const NOT_INDEXED = -1;
/** Texts up to this length (parameter names, tags, stock descriptions) recur: their terms are kept while indexing. */
const MAX_CACHED_TEXT = 64;

/**
 * Indexes a catalog: each tool's name (all its words, stopwords too), tags, description and
 * parameter texts (content words only) go into one BM25F index, words stemmed with `stemWord`.
 * Descriptors are read defensively: a field of the wrong type counts as absent. Each distinct
 * word is analysed once, and ASCII text is scanned without making a string per word.
 */
export function buildCatalogIndex(
  tools: readonly ToolDescriptor[],
  options: { fields: readonly FieldSpec[]; k1: number; stemWord: (word: string) => string },
): CatalogIndex {
  const { fields, stemWord } = options;
  const builder = createInvertedIndexBuilder(fields, options.k1, tools.length);
  const words = createWordTable();
  const termOfWord: number[] = [];
  const termOf = (entry: number): number => {
    while (termOfWord.length <= entry) {
      const word = words.word(termOfWord.length);
      termOfWord.push(isStopword(word) ? NOT_INDEXED : builder.term(stemWord(word)));
    }
    return termOfWord[entry]!;
  };

  // A text's words go to `sink.terms` (a short text, whose terms are kept for its next
  // occurrence) or straight into the index (a long one).
  const sink: WordSink & { field: number; terms: number[] | undefined } = {
    field: FIELD_NAME,
    terms: undefined,
    word(text, start, end, hash) {
      const term = termOf(words.intern(text, start, end, hash));
      if (term === NOT_INDEXED) return;
      if (this.terms === undefined) builder.add(this.field, term);
      else this.terms.push(term);
    },
  };
  const scan = (text: string): void => forEachWord(text, sink);
  const termsOfShortText = new Map<string, number[]>();
  const addText = (field: number, text: string): void => {
    sink.field = field;
    if (text.length > MAX_CACHED_TEXT) {
      sink.terms = undefined;
      scan(text);
      return;
    }
    let terms = termsOfShortText.get(text);
    if (terms === undefined) {
      sink.terms = terms = [];
      scan(text);
      termsOfShortText.set(text, terms);
    }
    for (const term of terms) builder.add(field, term);
  };
  const addParameterText = (text: string): void => addText(FIELD_PARAMETERS, text);

  const names: string[] = [];
  const descriptions: string[] = [];
  const nameWords: string[][] = [];
  const indexes = (field: number): boolean => fields[field]!.weight > 0;
  for (const tool of tools) {
    const name = typeof tool?.name === 'string' ? tool.name : '';
    const description = typeof tool?.description === 'string' ? tool.description : '';
    const wordsOfName = tokenize(name);
    names.push(name);
    descriptions.push(description);
    nameWords.push(wordsOfName);
    builder.addDocument();
    if (indexes(FIELD_NAME)) {
      for (const word of wordsOfName) {
        const term = termOf(words.internWord(word));
        builder.add(FIELD_NAME, term === NOT_INDEXED ? builder.term(stemWord(word)) : term);
      }
    }
    if (indexes(FIELD_TAGS) && Array.isArray(tool?.tags)) {
      for (const tag of tool.tags) if (typeof tag === 'string') addText(FIELD_TAGS, tag);
    }
    if (indexes(FIELD_DESCRIPTION)) addText(FIELD_DESCRIPTION, description);
    if (indexes(FIELD_PARAMETERS)) forEachSchemaText(tool?.parameters, addParameterText);
  }
  const index = builder.build();
  // The stems of name words are at hand in the term table (a stopword's is computed).
  const stemOfNameWord = (word: string): string => {
    const term = termOf(words.internWord(word));
    return term === NOT_INDEXED ? stemWord(word) : index.terms[term]!;
  };
  const nameMatcher = createNameMatcher(names, {
    stemWord: stemOfNameWord,
    queryStemWord: stemWord,
    words: nameWords,
  });
  return { index, names, descriptions, nameMatcher };
}
