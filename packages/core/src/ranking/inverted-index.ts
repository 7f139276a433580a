import { keepShape } from './keep-shape';

/**
 * A BM25F inverted index in compressed-row form: for each term, the tools that contain it and
 * the term's saturated weight in each. Fields (name, description...) are combined the BM25F
 * way: each field's term frequency is length-normalised and weighted, the weighted sum is
 * saturated once, so a word repeated across fields helps a little and never without bound.
 */

export interface FieldSpec {
  /** How much one occurrence in this field counts (the name counts more than a parameter). */
  readonly weight: number;
  /** Length normalisation, 0 (none) to 1 (full), as BM25's b. */
  readonly b: number;
}

export interface InvertedIndex {
  /** Number of documents (tools). */
  readonly size: number;
  /** Term id → term. */
  readonly terms: readonly string[];
  readonly termIds: ReadonlyMap<string, number>;
  /** Postings of term t are positions offsets[t] .. offsets[t + 1] - 1 of `documents` and `weights`. */
  readonly offsets: Int32Array;
  readonly documents: Int32Array;
  /** Saturated weight tf / (k1 + tf) in 0..1, where tf is the BM25F pseudo-frequency. */
  readonly weights: Float32Array;
  /** Inverse document frequency per term: ln(1 + (N - df + 0.5) / (df + 0.5)). */
  readonly idf: Float64Array;
}

export interface InvertedIndexBuilder {
  /** The id of a term, new or known. */
  term(text: string): number;
  /** The text of a term (by its id). */
  termText(term: number): string;
  /** Starts the next document (ids 0, 1, 2... in order). */
  addDocument(): void;
  /** Adds one occurrence of a term to a field of the current document. */
  add(field: number, term: number): void;
  build(): InvertedIndex;
}

/** Fields are packed in the low bits of an occurrence: up to four fields, 2^29 terms. */
const FIELD_BITS = 2;
const FIELD_MASK = (1 << FIELD_BITS) - 1;

class GrowableInt32 {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
}

/**
 * Collects documents field by field, then builds the index in two passes over the stored term
 * ids. `expectedDocuments` sizes the buffers up front (they grow past it if need be).
 */
export function createInvertedIndexBuilder(
  fields: readonly FieldSpec[],
  k1: number,
  expectedDocuments = 0,
): InvertedIndexBuilder {
  if (fields.length > 1 << FIELD_BITS) throw new RangeError(`at most ${1 << FIELD_BITS} fields`);
  return new Bm25fIndexBuilder(fields, k1, expectedDocuments);
}

/**
 * A class rather than closures, as the word table: one set of methods for the process, whose
 * optimised code outlives the builders (see `word-table.ts`).
 */
class Bm25fIndexBuilder implements InvertedIndexBuilder {
  private readonly fieldCount: number;
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly documentFrequency = new GrowableInt32();
  private readonly lastDocument = new GrowableInt32();
  /** Each occurrence as (term id << FIELD_BITS) | field. */
  private readonly occurrences: GrowableInt32;
  private readonly documentStarts: GrowableInt32;
  private readonly fieldLengths: GrowableInt32;
  private document = -1;

  constructor(
    private readonly fields: readonly FieldSpec[],
    private readonly k1: number,
    expectedDocuments: number,
  ) {
    this.fieldCount = fields.length;
    this.occurrences = new GrowableInt32(Math.max(1024, expectedDocuments * 48));
    this.documentStarts = new GrowableInt32(expectedDocuments + 2);
    this.fieldLengths = new GrowableInt32(Math.max(16, expectedDocuments * this.fieldCount));
  }

  term(text: string): number {
    let id = this.termIds.get(text);
    if (id === undefined) {
      id = this.terms.length;
      this.termIds.set(text, id);
      this.terms.push(text);
      this.documentFrequency.push(0);
      this.lastDocument.push(-1);
    }
    return id;
  }

  termText(term: number): string {
    return this.terms[term]!;
  }

  addDocument(): void {
    this.document++;
    this.documentStarts.push(this.occurrences.length);
    for (let field = 0; field < this.fieldCount; field++) this.fieldLengths.push(0);
  }

  add(field: number, term: number): void {
    const { document } = this;
    this.occurrences.push((term << FIELD_BITS) | field);
    this.fieldLengths.data[document * this.fieldCount + field]!++;
    const lastDocument = this.lastDocument.data;
    if (lastDocument[term] !== document) {
      lastDocument[term] = document;
      this.documentFrequency.data[term]!++;
    }
  }

  build(): InvertedIndex {
    const { fields, fieldCount, k1, terms, termIds, occurrences, documentStarts } = this;
    const fieldLengths = this.fieldLengths.data;
    const documentFrequency = this.documentFrequency.data;
    const size = this.document + 1;
    documentStarts.push(occurrences.length);
    const starts = documentStarts.data;
    const codes = occurrences.data;
    const termCount = terms.length;
    const offsets = new Int32Array(termCount + 1);
    for (let id = 0; id < termCount; id++) offsets[id + 1] = offsets[id]! + documentFrequency[id]!;
    const postingCount = offsets[termCount]!;
    const documents = new Int32Array(postingCount);
    const weights = new Float32Array(postingCount);
    const cursor = offsets.slice(0, termCount);
    const averages = fields.map((_, field) => {
      let total = 0;
      for (let current = 0; current < size; current++) total += fieldLengths[current * fieldCount + field]!;
      return size > 0 ? total / size || 1 : 1;
    });

    // BM25F pseudo-frequency of each term of each document, saturated, written to its postings.
    // One call per document, not one loop here: a method called 10,000 times is optimised as
    // a whole and keeps its code from one build to the next, where this loop, run once per
    // build, ran unoptimised until on-stack replacement in every build.
    const writer = new PostingsWriter(
      fields,
      k1,
      averages,
      fieldLengths,
      starts,
      codes,
      termCount,
      cursor,
      documents,
      weights,
    );
    for (let current = 0; current < size; current++) writer.write(current);

    const idf = new Float64Array(termCount);
    for (let id = 0; id < termCount; id++) {
      const df = documentFrequency[id]!;
      idf[id] = Math.log(1 + (size - df + 0.5) / (df + 0.5));
    }
    return { size, terms, termIds, offsets, documents, weights, idf };
  }
}

/** Writes each document's postings: its terms' BM25F pseudo-frequencies, saturated. */
class PostingsWriter {
  private readonly fieldCount: number;
  private readonly frequency: Float64Array;
  private readonly increments: Float64Array;
  private readonly touched: number[] = [];

  constructor(
    private readonly fields: readonly FieldSpec[],
    private readonly k1: number,
    private readonly averages: readonly number[],
    private readonly fieldLengths: Int32Array,
    private readonly starts: Int32Array,
    private readonly codes: Int32Array,
    termCount: number,
    private readonly cursor: Int32Array,
    private readonly documents: Int32Array,
    private readonly weights: Float32Array,
  ) {
    this.fieldCount = fields.length;
    this.frequency = new Float64Array(termCount);
    this.increments = new Float64Array(this.fieldCount);
  }

  write(current: number): void {
    const { fields, fieldCount, fieldLengths, averages, increments, frequency, codes, touched, cursor, k1 } =
      this;
    for (let field = 0; field < fieldCount; field++) {
      const { weight, b } = fields[field]!;
      const length = fieldLengths[current * fieldCount + field]!;
      increments[field] = weight / (1 - b + (b * length) / averages[field]!);
    }
    const end = this.starts[current + 1]!;
    for (let position = this.starts[current]!; position < end; position++) {
      const code = codes[position]!;
      const id = code >>> FIELD_BITS;
      if (frequency[id] === 0) touched.push(id);
      frequency[id]! += increments[code & FIELD_MASK]!;
    }
    const { documents, weights } = this;
    for (const id of touched) {
      const slot = cursor[id]!++;
      documents[slot] = current;
      weights[slot] = frequency[id]! / (k1 + frequency[id]!);
      frequency[id] = 0;
    }
    touched.length = 0;
  }
}

keepShape(new Bm25fIndexBuilder([{ weight: 1, b: 0 }], 1, 0));
keepShape(
  new PostingsWriter(
    [{ weight: 1, b: 0 }],
    1,
    [1],
    new Int32Array(1),
    new Int32Array(2),
    new Int32Array(0),
    0,
    new Int32Array(0),
    new Int32Array(0),
    new Float32Array(0),
  ),
);
