import type { ToolDescriptor } from '../types';
import {
  createInvertedIndexBuilder,
  type FieldSpec,
  type InvertedIndex,
  type InvertedIndexBuilder,
} from './inverted-index';
import { keepShape } from './keep-shape';
import {
  createNameMatcher,
  extendNameKey,
  finishNameKey,
  NAME_KEY_START,
  type NameKeys,
  type NameMatcher,
  type NameStemmer,
} from './name-matcher';
import { forEachSchemaText, type SchemaTextSink } from './schema-texts';
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
  /**
   * Per term (index order): the first catalog word it was made from ('' for a term made from
   * no indexed word). Kept only when asked for (`keepSurfaceWords`): word vectors know words,
   * not stems.
   */
  readonly surfaceWords?: readonly string[];
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
  options: {
    fields: readonly FieldSpec[];
    k1: number;
    stemWord: (word: string) => string;
    keepSurfaceWords?: boolean;
  },
): CatalogIndex {
  const indexer = new CatalogIndexer(
    options.fields,
    options.k1,
    options.stemWord,
    tools.length,
    options.keepSurfaceWords === true,
  );
  for (const tool of tools) indexer.addTool(tool);
  return indexer.finish();
}

/**
 * The state of one build. A class, not closures over locals: the per-tool work is a method,
 * called once per tool, whose optimised code lives as long as the class, so a catalog built
 * after a full garbage collection runs optimised from its first tool (with closures, V8 dropped
 * that code with the previous catalog's closures and compiled it again in each such build).
 */
class CatalogIndexer implements WordSink, SchemaTextSink, NameStemmer {
  private readonly builder: InvertedIndexBuilder;
  private readonly words = createWordTable();
  /** Word-table entry → its term (NOT_INDEXED for a stopword). */
  private readonly termOfWord: number[] = [];
  private readonly termsOfShortText = new Map<string, number[]>();
  private readonly names: string[] = [];
  private readonly descriptions: string[] = [];
  /** Per tool, its name's words: kept only when names are not indexed (else `keys` has what the name matcher needs). */
  private readonly nameWords: string[][] = [];
  /** Per tool, its name's key hashes for the name matcher and its word count, made while its name is indexed. */
  private readonly keys: NameKeys;
  /** While a name is scanned: its keys so far. */
  private naming = false;
  private plainKey = NAME_KEY_START;
  private stemmedKey = NAME_KEY_START;
  private nameWordCount = 0;
  private readonly indexesName: boolean;
  private readonly indexesTags: boolean;
  private readonly indexesDescription: boolean;
  private readonly indexesParameters: boolean;
  /** Where the words being scanned go: a field of the index, or `terms` when not undefined. */
  private field = FIELD_NAME;
  private terms: number[] | undefined = undefined;
  /** The index's terms, once built (for the stems of name words). */
  private indexTerms: readonly string[] = [];
  /** Term → the first word it was made from (when kept). */
  private readonly surfaceWords: string[] = [];

  constructor(
    fields: readonly FieldSpec[],
    k1: number,
    private readonly stemWord: (word: string) => string,
    expectedTools: number,
    private readonly keepSurfaceWords: boolean,
  ) {
    this.builder = createInvertedIndexBuilder(fields, k1, expectedTools);
    this.keys = {
      plain: new Int32Array(expectedTools),
      stemmed: new Int32Array(expectedTools),
      counts: new Int32Array(expectedTools),
    };
    this.indexesName = fields[FIELD_NAME]!.weight > 0;
    this.indexesTags = fields[FIELD_TAGS]!.weight > 0;
    this.indexesDescription = fields[FIELD_DESCRIPTION]!.weight > 0;
    this.indexesParameters = fields[FIELD_PARAMETERS]!.weight > 0;
  }

  addTool(tool: ToolDescriptor): void {
    const name = typeof tool?.name === 'string' ? tool.name : '';
    const description = typeof tool?.description === 'string' ? tool.description : '';
    const document = this.names.length;
    this.names.push(name);
    this.descriptions.push(description);
    this.builder.addDocument();
    if (this.indexesName) {
      // The name's words go to the index and into the name matcher's keys (the words joined
      // as written, and stemmed) in one scan, with no string made per word.
      this.naming = true;
      this.plainKey = NAME_KEY_START;
      this.stemmedKey = NAME_KEY_START;
      this.nameWordCount = 0;
      forEachWord(name, this);
      this.naming = false;
      const { keys } = this;
      keys.plain[document] = finishNameKey(this.plainKey);
      keys.stemmed[document] = finishNameKey(this.stemmedKey);
      keys.counts[document] = this.nameWordCount;
    } else {
      this.nameWords.push(tokenize(name));
    }
    if (this.indexesTags && Array.isArray(tool?.tags)) {
      for (const tag of tool.tags) if (typeof tag === 'string') this.addText(FIELD_TAGS, tag);
    }
    if (this.indexesDescription) this.addText(FIELD_DESCRIPTION, description);
    if (this.indexesParameters) forEachSchemaText(tool?.parameters, this);
  }

  finish(): CatalogIndex {
    const index = this.builder.build();
    const { names, descriptions, nameWords, stemWord } = this;
    this.indexTerms = index.terms;
    const nameMatcher = createNameMatcher(
      names,
      this.indexesName
        ? { queryStemmer: { stemNameWord: stemWord }, keys: this.keys }
        : { stemmer: this, queryStemmer: { stemNameWord: stemWord }, words: nameWords },
    );
    if (!this.keepSurfaceWords) return { index, names, descriptions, nameMatcher };
    const surfaceWords = this.surfaceWords;
    for (let term = 0; term < index.terms.length; term++) surfaceWords[term] ??= '';
    return { index, names, descriptions, nameMatcher, surfaceWords };
  }

  /** The stem of a name word, at hand in the term table (a stopword's is computed). */
  stemNameWord(word: string): string {
    const term = this.termOf(this.words.internWord(word));
    return term === NOT_INDEXED ? this.stemWord(word) : this.indexTerms[term]!;
  }

  /** A word of the text being scanned (the tokenizer's sink). */
  word(text: string, start: number, end: number, hash: number): void {
    if (this.naming) {
      this.nameWord(this.words.intern(text, start, end, hash));
      return;
    }
    const term = this.termOf(this.words.intern(text, start, end, hash));
    if (term === NOT_INDEXED) return;
    if (this.terms === undefined) this.builder.add(this.field, term);
    else this.terms.push(term);
  }

  /**
   * A word of the name being scanned (its word-table entry): every word of a name is indexed,
   * a stopword too (by its stem), and added to the name's keys.
   */
  private nameWord(entry: number): void {
    const { builder } = this;
    const indexed = this.termOf(entry);
    const word = this.words.word(entry);
    const term = indexed === NOT_INDEXED ? builder.term(this.stemWord(word)) : indexed;
    builder.add(FIELD_NAME, term);
    this.plainKey = extendNameKey(this.plainKey, word);
    this.stemmedKey = extendNameKey(this.stemmedKey, builder.termText(term));
    this.nameWordCount++;
  }

  /** A text of the tool's parameter schema. */
  schemaText(text: string): void {
    this.addText(FIELD_PARAMETERS, text);
  }

  private termOf(entry: number): number {
    const { termOfWord } = this;
    while (termOfWord.length <= entry) {
      const word = this.words.word(termOfWord.length);
      if (isStopword(word)) {
        termOfWord.push(NOT_INDEXED);
        continue;
      }
      const term = this.builder.term(this.stemWord(word));
      if (this.keepSurfaceWords) this.surfaceWords[term] ??= word;
      termOfWord.push(term);
    }
    return termOfWord[entry]!;
  }

  /** A text's words go straight into the index (a long text) or through its kept terms (a short one, which recurs). */
  private addText(field: number, text: string): void {
    this.field = field;
    if (text.length > MAX_CACHED_TEXT) {
      this.terms = undefined;
      forEachWord(text, this);
      return;
    }
    let terms = this.termsOfShortText.get(text);
    if (terms === undefined) {
      this.terms = terms = [];
      forEachWord(text, this);
      this.termsOfShortText.set(text, terms);
    }
    const { builder } = this;
    for (const term of terms) builder.add(field, term);
  }
}

keepShape(
  new CatalogIndexer(
    [FIELD_NAME, FIELD_TAGS, FIELD_DESCRIPTION, FIELD_PARAMETERS].map(() => ({ weight: 1, b: 0 })),
    1,
    (word) => word,
    0,
    false,
  ),
);
