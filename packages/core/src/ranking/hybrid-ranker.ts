import { ToolSearchError } from '../errors';
import type {
  MaybePromise,
  Ranker,
  RankerFactory,
  SearchOptions,
  SearchResult,
  ToolDescriptor,
} from '../types';
import type { Embedder, EmbeddingVector } from './embedder';
import { createKeywordRanker, MAX_QUERY_LENGTH } from './keyword-ranker';
import { splitClauses } from './split-clauses';

export interface HybridRankerOptions {
  /** Turns tool and query texts into vectors (the offline word vectors, an AI SDK model, ...). */
  readonly embedder: Embedder;
  /** The lexical ranker whose results are fused (default: the keyword ranker). */
  readonly lexical?: RankerFactory;
  /**
   * Share of the embedding similarity in the fused score, 0..1 (default 0.15): 0 keeps the
   * lexical ranking, 1 ranks by similarity alone.
   */
  readonly weight?: number;
  /** A cosine at or below this counts as no similarity (default 0.2). */
  readonly similarityFloor?: number;
  /** The text embedded for a tool (default: its name, description, tags and parameter names). */
  readonly toolText?: (tool: ToolDescriptor) => string;
  /**
   * Called when the embedder fails or returns unusable vectors. The search then answers
   * from the lexical ranking alone, and the next search tries the embedder again.
   */
  readonly onError?: (error: unknown) => void;
  /** Tool vectors kept by text across the catalogs this factory builds (default 20,000). */
  readonly cacheSize?: number;
}

const DEFAULT_TOP_K = 5;
const DEFAULT_WEIGHT = 0.15;
const DEFAULT_SIMILARITY_FLOOR = 0.2;
const DEFAULT_CACHE_SIZE = 20_000;
/** Lexical results fused per search (at least). */
const LEXICAL_CANDIDATES = 30;
/** Tools added per search for their similarity alone (at least). */
const SEMANTIC_CANDIDATES = 30;
/** Query parts embedded separately (more parts are grouped), as the keyword ranker does. */
const MAX_PARTS = 6;
/** Query texts whose vectors are kept (a repeated search costs no embedding call). */
const QUERY_CACHE_SIZE = 256;
/** From this many tools on, similarity is first estimated in a small subspace. */
const PREFILTER_MIN_TOOLS = 512;
/** Vectors longer than this are scanned in full (the subspace would cost more than it saves). */
const PREFILTER_MAX_DIMENSIONS = 256;
/** Dimensions of the prefilter subspace (the scan in scanSubspace is written out for 16). */
const PREFILTER_DIMENSIONS = 16;
/** Tools whose estimate is checked exactly, per semantic candidate wanted. */
const PREFILTER_OVERSAMPLING = 4;
/** The subspace is used only when it holds at least this share of the tools' energy. */
const PREFILTER_MIN_ENERGY = 0.6;
/** Tool vectors sampled to find the subspace. */
const PREFILTER_SAMPLE = 1_024;
const PREFILTER_ITERATIONS = 12;
/** Parameter names taken from a schema for the default tool text. */
const MAX_PARAMETER_NAMES = 32;

/** A value now or later; `then` runs `next` synchronously when it can. */
function then<T, R>(value: MaybePromise<T>, next: (resolved: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** The default text of a tool: name, description, tags and top-level parameter names. */
export function defaultToolText(tool: ToolDescriptor): string {
  const parts: string[] = [];
  if (typeof tool.name === 'string') parts.push(tool.name);
  if (typeof tool.description === 'string') parts.push(tool.description);
  if (Array.isArray(tool.tags)) {
    for (const tag of tool.tags) if (typeof tag === 'string') parts.push(tag);
  }
  const parameters: unknown = tool.parameters;
  if (typeof parameters === 'object' && parameters !== null && Object.hasOwn(parameters, 'properties')) {
    const properties = (parameters as { properties?: unknown }).properties;
    if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
      parts.push(Object.keys(properties).slice(0, MAX_PARAMETER_NAMES).join(' '));
    }
  }
  return parts.join('. ');
}

/** A unit vector quantised to int8: value ≈ code × scale. */
interface Quantised {
  readonly codes: Int8Array;
  readonly scale: number;
}

function quantise(vector: EmbeddingVector, dimensions: number): Quantised {
  let length = 0;
  for (let index = 0; index < dimensions; index++) {
    const value = Number(vector[index]);
    if (!Number.isFinite(value)) {
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        'the embedder returned a vector with a value that is not finite',
      );
    }
    length += value * value;
  }
  const codes = new Int8Array(dimensions);
  if (length === 0) return { codes, scale: 0 };
  const inverse = 1 / Math.sqrt(length);
  let largest = 0;
  for (let index = 0; index < dimensions; index++)
    largest = Math.max(largest, Math.abs(Number(vector[index]) * inverse));
  const scale = largest / 127;
  for (let index = 0; index < dimensions; index++)
    codes[index] = Math.round((Number(vector[index]) * inverse) / scale);
  return { codes, scale };
}

function unit(vector: EmbeddingVector, dimensions: number): Float32Array {
  const result = new Float32Array(dimensions);
  let length = 0;
  for (let index = 0; index < dimensions; index++) {
    const value = Number(vector[index]);
    if (!Number.isFinite(value)) {
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        'the embedder returned a vector with a value that is not finite',
      );
    }
    result[index] = value;
    length += value * value;
  }
  if (length > 0) {
    const inverse = 1 / Math.sqrt(length);
    for (let index = 0; index < dimensions; index++) result[index]! *= inverse;
  }
  return result;
}

/** A map that forgets its least recently used entries beyond `capacity`. */
class LruMap<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly capacity: number) {}
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }
}

/** The catalog's vectors, int8 and row after row, with the optional prefilter subspace. */
interface ToolMatrix {
  readonly dimensions: number;
  readonly codes: Int8Array;
  readonly scales: Float32Array;
  /** Orthonormal rows spanning most of the tools' energy (PREFILTER_DIMENSIONS × dimensions). */
  readonly basis?: Float32Array;
  /** Each tool's coordinates in the basis, int8 (tools × PREFILTER_DIMENSIONS): value ≈ code / 127. */
  readonly projected?: Int8Array;
}

function checkVectors(
  vectors: unknown,
  count: number,
  dimensions: number | undefined,
): readonly EmbeddingVector[] {
  if (!Array.isArray(vectors) || vectors.length !== count) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `the embedder returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${count} texts`,
    );
  }
  for (const vector of vectors as unknown[]) {
    const length = (vector as { length?: unknown } | null)?.length;
    if (typeof length !== 'number' || (dimensions !== undefined && length !== dimensions) || length === 0) {
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        `the embedder returned a vector of length ${String(length)}; expected ${dimensions ?? 'a non-empty vector'}`,
      );
    }
  }
  return vectors as readonly EmbeddingVector[];
}

/**
 * The top `count` eigenvectors of Σ t·tᵀ over a sample of tool vectors (subspace iteration):
 * the directions in which tools differ most, where a query's dot product is mostly decided.
 */
function prefilterBasis(
  codes: Int8Array,
  scales: Float32Array,
  tools: number,
  dimensions: number,
): Float32Array | undefined {
  const step = Math.max(1, Math.floor(tools / PREFILTER_SAMPLE));
  const moment = new Float64Array(dimensions * dimensions);
  const row = new Float64Array(dimensions);
  for (let tool = 0; tool < tools; tool += step) {
    const offset = tool * dimensions;
    const scale = scales[tool]!;
    for (let index = 0; index < dimensions; index++) row[index] = codes[offset + index]! * scale;
    for (let left = 0; left < dimensions; left++) {
      const value = row[left]!;
      if (value === 0) continue;
      const base = left * dimensions;
      for (let right = left; right < dimensions; right++) moment[base + right]! += value * row[right]!;
    }
  }
  for (let left = 0; left < dimensions; left++) {
    for (let right = 0; right < left; right++)
      moment[left * dimensions + right] = moment[right * dimensions + left]!;
  }
  const count = PREFILTER_DIMENSIONS;
  // Deterministic start: rows of a fixed pseudo-random matrix.
  let basis = new Float64Array(count * dimensions);
  let seed = 0x9e3779b9;
  for (let index = 0; index < basis.length; index++) {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    basis[index] = seed / 2 ** 32 - 0.5;
  }
  const orthonormalise = (rows: Float64Array): void => {
    for (let current = 0; current < count; current++) {
      const base = current * dimensions;
      for (let previous = 0; previous < current; previous++) {
        const other = previous * dimensions;
        let dot = 0;
        for (let index = 0; index < dimensions; index++) dot += rows[base + index]! * rows[other + index]!;
        for (let index = 0; index < dimensions; index++) rows[base + index]! -= dot * rows[other + index]!;
      }
      let length = 0;
      for (let index = 0; index < dimensions; index++) length += rows[base + index]! * rows[base + index]!;
      const inverse = length > 0 ? 1 / Math.sqrt(length) : 0;
      for (let index = 0; index < dimensions; index++) rows[base + index]! *= inverse;
    }
  };
  orthonormalise(basis);
  for (let iteration = 0; iteration < PREFILTER_ITERATIONS; iteration++) {
    const next = new Float64Array(count * dimensions);
    for (let current = 0; current < count; current++) {
      const base = current * dimensions;
      for (let left = 0; left < dimensions; left++) {
        let sum = 0;
        const momentRow = left * dimensions;
        for (let right = 0; right < dimensions; right++)
          sum += moment[momentRow + right]! * basis[base + right]!;
        next[base + left] = sum;
      }
    }
    orthonormalise(next);
    basis = next;
  }
  // The share of the sample's energy (trace) that the subspace holds: Σ bᵀ·M·b over its rows.
  let trace = 0;
  for (let index = 0; index < dimensions; index++) trace += moment[index * dimensions + index]!;
  let held = 0;
  for (let current = 0; current < count; current++) {
    const base = current * dimensions;
    for (let left = 0; left < dimensions; left++) {
      let sum = 0;
      for (let right = 0; right < dimensions; right++)
        sum += moment[left * dimensions + right]! * basis[base + right]!;
      held += sum * basis[base + left]!;
    }
  }
  return trace > 0 && held / trace >= PREFILTER_MIN_ENERGY ? Float32Array.from(basis) : undefined;
}

function buildMatrix(entries: readonly Quantised[], dimensions: number): ToolMatrix {
  const tools = entries.length;
  const codes = new Int8Array(tools * dimensions);
  const scales = new Float32Array(tools);
  entries.forEach((entry, tool) => {
    codes.set(entry.codes, tool * dimensions);
    scales[tool] = entry.scale;
  });
  if (tools < PREFILTER_MIN_TOOLS || dimensions > PREFILTER_MAX_DIMENSIONS) {
    return { dimensions, codes, scales };
  }
  const basis = prefilterBasis(codes, scales, tools, dimensions);
  if (basis === undefined) return { dimensions, codes, scales };
  const width = PREFILTER_DIMENSIONS;
  // Coordinates of unit vectors lie in -1..1: int8 at a fixed scale, so that scores of
  // different tools and views compare, and the scan runs on small integers.
  const projected = new Int8Array(tools * width);
  for (let tool = 0; tool < tools; tool++) {
    const offset = tool * dimensions;
    const scale = scales[tool]!;
    for (let axis = 0; axis < width; axis++) {
      const base = axis * dimensions;
      let sum = 0;
      for (let index = 0; index < dimensions; index++) sum += basis[base + index]! * codes[offset + index]!;
      projected[tool * width + axis] = Math.max(-127, Math.min(127, Math.round(sum * scale * 127)));
    }
  }
  return { dimensions, codes, scales, basis, projected };
}

/** Cosine of a unit query vector with tool `tool`'s quantised unit vector. */
function similarity(matrix: ToolMatrix, query: Float32Array, tool: number): number {
  const { dimensions, codes } = matrix;
  const offset = tool * dimensions;
  let sum = 0;
  for (let index = 0; index < dimensions; index++) sum += query[index]! * codes[offset + index]!;
  return sum * matrix.scales[tool]!;
}

/** Best similarity of a tool over the query's views (the whole request and its parts). */
function bestSimilarity(matrix: ToolMatrix, views: readonly Float32Array[], tool: number): number {
  let best = -1;
  for (const view of views) {
    const value = similarity(matrix, view, tool);
    if (value > best) best = value;
  }
  return best;
}

/**
 * Indices of the `count` largest of `scores` (unordered). A long array is first cut at a
 * threshold read from a sample (one comparison per score), then the survivors go through the
 * heap; a threshold that keeps too few is dropped.
 */
function largest(scores: Float32Array | Int32Array, count: number): Int32Array {
  const total = scores.length;
  if (total > 8 * count && count > 0) {
    const sampleSize = 512;
    const step = total / sampleSize;
    const sample = new Float64Array(sampleSize);
    for (let index = 0; index < sampleSize; index++) sample[index] = scores[Math.floor(index * step)]!;
    sample.sort();
    // Keep about twice the share wanted, so the true top `count` almost surely pass.
    const keep = Math.min(sampleSize - 1, Math.ceil(((2 * count) / total) * sampleSize) + 4);
    const threshold = sample[sampleSize - 1 - keep]!;
    const survivors: number[] = [];
    for (let index = 0; index < total; index++) if (scores[index]! >= threshold) survivors.push(index);
    if (survivors.length >= count) {
      const values = new Float32Array(survivors.length);
      for (let index = 0; index < survivors.length; index++) values[index] = scores[survivors[index]!]!;
      return heapLargest(values, count).map((position) => survivors[position]!);
    }
  }
  return heapLargest(scores, count);
}

/** Indices of the `count` largest of `scores` (unordered), with a bounded min-heap. */
function heapLargest(scores: Float32Array | Int32Array, count: number): Int32Array {
  const size = Math.min(count, scores.length);
  const heap = new Int32Array(size);
  const keys = new Float32Array(size);
  if (size === 0) return heap;
  const siftDown = (): void => {
    let index = 0;
    const item = heap[0]!;
    const key = keys[0]!;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && keys[right]! < keys[left]! ? right : left;
      if (keys[child]! >= key) break;
      heap[index] = heap[child]!;
      keys[index] = keys[child]!;
      index = child;
    }
    heap[index] = item;
    keys[index] = key;
  };
  let filled = 0;
  for (let item = 0; item < scores.length; item++) {
    const score = scores[item]!;
    if (filled < size) {
      let index = filled++;
      while (index > 0) {
        const parent = (index - 1) >> 1;
        if (keys[parent]! <= score) break;
        heap[index] = heap[parent]!;
        keys[index] = keys[parent]!;
        index = parent;
      }
      heap[index] = item;
      keys[index] = score;
    } else if (score > keys[0]!) {
      heap[0] = item;
      keys[0] = score;
      siftDown();
    }
  }
  return heap;
}

/**
 * Raises each tool's estimate to its dot product with `coordinates` in the subspace: the hot
 * loop of a search, written out for the 16 axes (no inner loop, the query in registers).
 */
function scanSubspace(projected: Int8Array, coordinates: Int32Array, estimates: Int32Array): void {
  const c0 = coordinates[0]!;
  const c1 = coordinates[1]!;
  const c2 = coordinates[2]!;
  const c3 = coordinates[3]!;
  const c4 = coordinates[4]!;
  const c5 = coordinates[5]!;
  const c6 = coordinates[6]!;
  const c7 = coordinates[7]!;
  const c8 = coordinates[8]!;
  const c9 = coordinates[9]!;
  const c10 = coordinates[10]!;
  const c11 = coordinates[11]!;
  const c12 = coordinates[12]!;
  const c13 = coordinates[13]!;
  const c14 = coordinates[14]!;
  const c15 = coordinates[15]!;
  const tools = estimates.length;
  for (let tool = 0, offset = 0; tool < tools; tool++, offset += 16) {
    const sum =
      (projected[offset + 0]! * c0 +
        projected[offset + 1]! * c1 +
        projected[offset + 2]! * c2 +
        projected[offset + 3]! * c3 +
        projected[offset + 4]! * c4 +
        projected[offset + 5]! * c5 +
        projected[offset + 6]! * c6 +
        projected[offset + 7]! * c7 +
        projected[offset + 8]! * c8 +
        projected[offset + 9]! * c9 +
        projected[offset + 10]! * c10 +
        projected[offset + 11]! * c11 +
        projected[offset + 12]! * c12 +
        projected[offset + 13]! * c13 +
        projected[offset + 14]! * c14 +
        projected[offset + 15]! * c15) |
      0;
    if (sum > estimates[tool]!) estimates[tool] = sum;
  }
}

/**
 * Raises each tool's entry of `best` to its cosine with `view`, on integers: the view is
 * quantised to int8 like the tools, so the inner loop multiplies small integers.
 */
function scanExact(matrix: ToolMatrix, view: Float32Array, best: Float32Array): void {
  const { dimensions, codes, scales } = matrix;
  let largestValue = 0;
  for (let index = 0; index < dimensions; index++)
    largestValue = Math.max(largestValue, Math.abs(view[index]!));
  if (largestValue === 0) {
    for (let tool = 0; tool < best.length; tool++) if (best[tool]! < 0) best[tool] = 0;
    return;
  }
  const viewScale = largestValue / 127;
  const quantised = new Int32Array(dimensions);
  for (let index = 0; index < dimensions; index++) quantised[index] = Math.round(view[index]! / viewScale);
  for (let tool = 0, offset = 0; tool < best.length; tool++, offset += dimensions) {
    let sum = 0;
    let index = 0;
    for (; index + 4 <= dimensions; index += 4) {
      sum =
        (sum +
          codes[offset + index]! * quantised[index]! +
          codes[offset + index + 1]! * quantised[index + 1]! +
          codes[offset + index + 2]! * quantised[index + 2]! +
          codes[offset + index + 3]! * quantised[index + 3]!) |
        0;
    }
    for (; index < dimensions; index++) sum = (sum + codes[offset + index]! * quantised[index]!) | 0;
    const value = sum * viewScale * scales[tool]!;
    if (value > best[tool]!) best[tool] = value;
  }
}

/**
 * The tools most similar to any view: an exact scan, or (large catalogs) an estimate in the
 * subspace for every tool, then an exact check of the best estimates. `scratch` holds one
 * number per tool and is overwritten.
 */
function semanticCandidates(
  matrix: ToolMatrix,
  views: readonly Float32Array[],
  count: number,
  scratch: Int32Array,
): Int32Array {
  const tools = matrix.scales.length;
  const { basis, projected } = matrix;
  if (basis === undefined || projected === undefined) {
    const exact = new Float32Array(tools).fill(Number.NEGATIVE_INFINITY);
    for (const view of views) scanExact(matrix, view, exact);
    return largest(exact, count);
  }
  const width = PREFILTER_DIMENSIONS;
  const { dimensions } = matrix;
  scratch.fill(-0x80000000);
  const coordinates = new Int32Array(width);
  for (const view of views) {
    for (let axis = 0; axis < width; axis++) {
      let sum = 0;
      for (let index = 0; index < dimensions; index++)
        sum += basis[axis * dimensions + index]! * view[index]!;
      coordinates[axis] = Math.round(sum * 127);
    }
    scanSubspace(projected, coordinates, scratch);
  }
  const shortlist = largest(scratch, count * PREFILTER_OVERSAMPLING);
  const exact = new Float32Array(shortlist.length);
  for (let position = 0; position < shortlist.length; position++) {
    exact[position] = bestSimilarity(matrix, views, shortlist[position]!);
  }
  return largest(exact, count).map((position) => shortlist[position]!);
}

function requestParts(text: string): string[] {
  const parts = splitClauses(text);
  if (parts.length <= 1) return [];
  if (parts.length <= MAX_PARTS) return parts;
  const size = Math.ceil(parts.length / MAX_PARTS);
  const grouped: string[] = [];
  for (let start = 0; start < parts.length; start += size)
    grouped.push(parts.slice(start, start + size).join(' '));
  return grouped;
}

function validateSearchOptions(options: SearchOptions | undefined): { topK: number; minScore: number } {
  const topK = options?.topK ?? DEFAULT_TOP_K;
  const minScore = options?.minScore ?? 0;
  if (typeof topK !== 'number' || Number.isNaN(topK) || topK < 0) {
    throw new ToolSearchError('INVALID_OPTIONS', `topK must be a number ≥ 0, got ${String(topK)}`);
  }
  if (typeof minScore !== 'number' || Number.isNaN(minScore)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `minScore must be a number in 0..1, got ${String(minScore)}`,
    );
  }
  return { topK: Math.floor(topK), minScore };
}

function checkFraction(name: string, value: number): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new ToolSearchError('INVALID_OPTIONS', `${name} must be a number in 0..1, got ${String(value)}`);
  }
  return value;
}

/**
 * A ranker factory that fuses a lexical ranking with embedding similarity. For each search,
 * the candidates are the lexical results and the tools most similar to the request or to
 * any of its parts ("find flights to Rome and convert 200 euros": each part is embedded, and
 * a tool keeps its best similarity). A candidate scores
 * `(1 − weight) × lexical + weight × similarity`, where the lexical score is read along the
 * lexical ranker's own order (so its choices, such as covering every part of a request, are
 * kept) and the similarity is the cosine rescaled from `similarityFloor`..1 to 0..1. Scores
 * stay in 0..1; a tool the lexical ranker scores 1 (named exactly) stays first.
 *
 * Tool vectors are computed once per catalog, when the factory is called, and kept by text,
 * so a catalog rebuilt with the same tools costs no embedding call. With an asynchronous
 * embedder, searches wait for the catalog's vectors; with a synchronous one, search is
 * synchronous too.
 */
export function createHybridRanker(options: HybridRankerOptions): RankerFactory {
  if (typeof options !== 'object' || options === null) {
    throw new ToolSearchError('INVALID_OPTIONS', 'createHybridRanker needs { embedder }');
  }
  const { embedder } = options;
  if (typeof embedder !== 'object' || embedder === null || typeof embedder.embed !== 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'createHybridRanker needs an embedder with an embed(texts) method',
    );
  }
  const weight = checkFraction('weight', options.weight ?? DEFAULT_WEIGHT);
  const floor = options.similarityFloor ?? DEFAULT_SIMILARITY_FLOOR;
  if (typeof floor !== 'number' || !(floor >= -1 && floor < 1)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `similarityFloor must be a number in -1..1, got ${String(floor)}`,
    );
  }
  const cacheSize = options.cacheSize ?? DEFAULT_CACHE_SIZE;
  if (typeof cacheSize !== 'number' || !(cacheSize >= 0)) {
    throw new ToolSearchError('INVALID_OPTIONS', `cacheSize must be a number ≥ 0, got ${String(cacheSize)}`);
  }
  const lexicalFactory = options.lexical ?? createKeywordRanker;
  const toolText = options.toolText ?? defaultToolText;
  const onError = options.onError;
  const toolVectors = new LruMap<Quantised>(cacheSize);
  const queryVectors = new LruMap<Float32Array>(QUERY_CACHE_SIZE);
  const cacheKey = (text: string) => `${embedder.id}\u0000${text}`;
  let knownDimensions: number | undefined =
    typeof embedder.dimensions === 'number' ? embedder.dimensions : undefined;

  const report = (error: unknown): void => {
    if (onError) {
      try {
        onError(error);
      } catch {
        // A failing listener must not turn a degraded search into a failed one.
      }
    }
  };

  const accept = (vectors: unknown, count: number): readonly EmbeddingVector[] => {
    const checked = checkVectors(vectors, count, knownDimensions);
    if (knownDimensions === undefined && checked.length > 0) {
      knownDimensions = checked[0]!.length;
      return checkVectors(checked, count, knownDimensions);
    }
    return checked;
  };

  const embedQuery = (texts: readonly string[]): MaybePromise<Float32Array[]> => {
    const found = texts.map((text) => queryVectors.get(cacheKey(text)));
    const missing = texts.filter((_, position) => found[position] === undefined);
    if (missing.length === 0) return found as Float32Array[];
    return then(embedder.embed(missing), (vectors) => {
      const checked = accept(vectors, missing.length);
      let next = 0;
      return texts.map((text, position) => {
        const known = found[position];
        if (known !== undefined) return known;
        const vector = unit(checked[next++]!, knownDimensions!);
        queryVectors.set(cacheKey(text), vector);
        return vector;
      });
    });
  };

  return (tools: readonly ToolDescriptor[]): Ranker => {
    const lexical = lexicalFactory(tools);
    const texts = tools.map((tool) => toolText(tool));
    const positions = new Map<string, number>();
    tools.forEach((tool, position) => {
      if (!positions.has(tool.name)) positions.set(tool.name, position);
    });

    const embedTools = (): MaybePromise<ToolMatrix> => {
      const entries: (Quantised | undefined)[] = texts.map((text) => toolVectors.get(cacheKey(text)));
      const missing: number[] = [];
      entries.forEach((entry, position) => {
        if (entry === undefined) missing.push(position);
      });
      const finish = (): ToolMatrix =>
        buildMatrix(entries as Quantised[], knownDimensions ?? entries[0]?.codes.length ?? 0);
      if (missing.length === 0) return finish();
      // Each distinct text is embedded once.
      const distinct = [...new Set(missing.map((position) => texts[position]!))];
      return then(embedder.embed(distinct), (vectors) => {
        const checked = accept(vectors, distinct.length);
        const byText = new Map<string, Quantised>();
        distinct.forEach((text, index) => {
          const entry = quantise(checked[index]!, knownDimensions!);
          byText.set(text, entry);
          toolVectors.set(cacheKey(text), entry);
        });
        for (const position of missing) entries[position] = byText.get(texts[position]!);
        return finish();
      });
    };

    let matrix: ToolMatrix | undefined;
    /** One number per tool, reused by every search (the semantic scan is synchronous). */
    const scratch = new Int32Array(tools.length);
    let pending: Promise<ToolMatrix> | undefined;
    /** The catalog's vectors; a failure is reported and forgotten, so the next search retries. */
    const vectors = (): MaybePromise<ToolMatrix | undefined> => {
      if (matrix) return matrix;
      if (pending)
        return pending.then(
          (value) => value,
          () => undefined,
        );
      try {
        const result = embedTools();
        if (!(result instanceof Promise)) {
          matrix = result;
          return matrix;
        }
        pending = result.then(
          (value) => {
            matrix = value;
            pending = undefined;
            return value;
          },
          (error: unknown) => {
            pending = undefined;
            report(error);
            throw error;
          },
        );
        return pending.then(
          (value) => value,
          () => undefined,
        );
      } catch (error) {
        report(error);
        return undefined;
      }
    };
    // Embed the catalog now: its cost belongs to building, not to the first search.
    if (tools.length > 0) {
      const started = vectors();
      if (started instanceof Promise) started.catch(() => undefined);
    }

    const semantic = (
      views: readonly string[],
    ): MaybePromise<{ matrix: ToolMatrix; views: Float32Array[] } | undefined> => {
      try {
        return then(vectors(), (ready) => {
          if (ready === undefined) return undefined;
          try {
            const embedded = embedQuery(views);
            const done = (queryViews: Float32Array[]) => ({ matrix: ready, views: queryViews });
            return embedded instanceof Promise
              ? embedded.then(done, (error: unknown) => {
                  report(error);
                  return undefined;
                })
              : done(embedded);
          } catch (error) {
            report(error);
            return undefined;
          }
        });
      } catch (error) {
        report(error);
        return undefined;
      }
    };

    const fuse = (
      lexicalResults: readonly SearchResult[],
      found: { matrix: ToolMatrix; views: Float32Array[] } | undefined,
      topK: number,
      minScore: number,
    ): SearchResult[] => {
      if (found === undefined) {
        return lexicalResults.filter((result) => result.score >= minScore).slice(0, topK);
      }
      const { matrix: ready, views } = found;
      const candidates = new Map<
        number,
        { lexical: number; order: number; description: string | undefined }
      >();
      let running = 1;
      lexicalResults.forEach((result, order) => {
        const position = positions.get(result.name);
        if (position === undefined || candidates.has(position)) return;
        const score = Math.min(1, Math.max(0, Number(result.score) || 0));
        // Read along the lexical order: a tool placed below another never scores above it.
        running = Math.min(running, score);
        candidates.set(position, { lexical: running, order, description: result.description });
      });
      const wanted = Math.max(SEMANTIC_CANDIDATES, 2 * topK);
      for (const position of semanticCandidates(ready, views, wanted, scratch)) {
        if (!candidates.has(position)) {
          candidates.set(position, { lexical: 0, order: Number.POSITIVE_INFINITY, description: undefined });
        }
      }
      const scale = 1 / (1 - floor);
      const scored: { position: number; score: number; order: number; description: string | undefined }[] =
        [];
      for (const [position, candidate] of candidates) {
        const cosine = bestSimilarity(ready, views, position);
        const semanticScore = Math.min(1, Math.max(0, (cosine - floor) * scale));
        const score = candidate.lexical >= 1 ? 1 : (1 - weight) * candidate.lexical + weight * semanticScore;
        if (score > 0 && score >= minScore) {
          scored.push({ position, score, order: candidate.order, description: candidate.description });
        }
      }
      scored.sort(
        (left, right) =>
          right.score - left.score ||
          left.order - right.order ||
          (tools[left.position]!.name < tools[right.position]!.name ? -1 : 1),
      );
      return scored.slice(0, topK).map(({ position, score, description }) => {
        const tool = tools[position]!;
        return {
          name: tool.name,
          description: description ?? (typeof tool.description === 'string' ? tool.description : ''),
          score,
        };
      });
    };

    return {
      search(query: string, searchOptions?: SearchOptions): MaybePromise<SearchResult[]> {
        if (typeof query !== 'string') {
          throw new ToolSearchError('INVALID_INPUT', `query must be a string, got ${typeof query}`);
        }
        const { topK, minScore } = validateSearchOptions(searchOptions);
        if (topK === 0 || tools.length === 0) return [];
        const text = query.length > MAX_QUERY_LENGTH ? query.slice(0, MAX_QUERY_LENGTH) : query;
        const lexicalResults = lexical.search(text, {
          topK: Math.max(LEXICAL_CANDIDATES, topK),
          minScore: 0,
        });
        return then(lexicalResults, (lexicalList) => {
          if (text.trim().length === 0) return fuse(lexicalList, undefined, topK, minScore);
          return then(semantic([text, ...requestParts(text)]), (found) =>
            fuse(lexicalList, found, topK, minScore),
          );
        });
      },
    };
  };
}
