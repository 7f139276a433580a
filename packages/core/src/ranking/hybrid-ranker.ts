import { clockOption, settleWithin, timeoutOption } from '../clock';
import { sizeOption, ToolSearchError } from '../errors';
import { safeListener } from '../listener';
import { checkOptionNames, type OptionNamesOf } from '../option-names';
import type {
  Clock,
  MaybePromise,
  Ranker,
  RankerFactory,
  SearchOptions,
  SearchResult,
  ToolDescriptor,
} from '../types';
import { cutText } from './cut-text';
import { type Embedder, type EmbeddingVector, embedderDimensions, embedderHint } from './embedder';
import { keywordRankerOver, MAX_QUERY_LENGTH } from './keyword-ranker';
import { validateSearchOptions } from './search-options';
import { requestParts } from './split-clauses';
import { positionsByName } from './tool-names';
import {
  feedbackViews,
  finishMatrix,
  QueryViews,
  quantiseInto,
  semanticCandidates,
  type ToolMatrix,
  textKey,
  unitVector,
  VectorCache,
} from './tool-vectors';

export interface HybridRankerOptions {
  /** Turns tool and query texts into vectors (the offline word vectors, an AI SDK model, ...). */
  readonly embedder: Embedder;
  /**
   * The lexical ranker whose results are fused (default: the keyword ranker, given the
   * embedder's `embedWords` when it has them; see `expandUnknownWords`).
   */
  readonly lexical?: RankerFactory;
  /**
   * When the embedder has `embedWords` (the offline word vectors do) and `lexical` is the
   * default: a request word no tool contains matches the catalog words closest to it in
   * meaning, inside the keyword ranking (default true). See the keyword ranker's `wordVectors`.
   */
  readonly expandUnknownWords?: boolean;
  /**
   * Share of the embedding similarity in the fused score, 0..1 (default 0.15): 0 keeps the
   * lexical ranking, 1 ranks by similarity alone. A request of one part (no `splitClauses`
   * parts) gets 1.5 times this share, at most 1 (0.225 by default): its one vector reads
   * the whole request, where a request of several parts gives each tool its best similarity
   * over several views.
   */
  readonly weight?: number;
  /** A cosine at or below this counts as no similarity (default 0.2). */
  readonly similarityFloor?: number;
  /**
   * Pseudo-relevance feedback, 0..1 (default 0.3): the request's vector is moved towards the
   * mean vector of the two tools that lead the fused ranking, by this share of it (each part's
   * vector, in a request of several parts, towards the one of the six leading tools most
   * similar to it), and every candidate's similarity is measured again. 0 turns it off.
   */
  readonly feedback?: number;
  /**
   * The text embedded for a tool (default: its name, description, tags, parameter names and
   * their string enum values).
   */
  readonly toolText?: (tool: ToolDescriptor) => string;
  /**
   * Called when the embedder fails or returns unusable vectors. The search then answers
   * from the lexical ranking alone, and the next search tries the embedder again.
   */
  readonly onError?: (error: unknown) => void;
  /** Tool vectors kept by text across the catalogs this factory builds (default 20,000). */
  readonly cacheSize?: number;
  /**
   * How long a search waits for an asynchronous embedder (the request's vectors, or the
   * catalog's while they are still being made) before it answers from the lexical ranking
   * alone and reports `EMBEDDER_TIMEOUT` to `onError` (default 2,000 ms; `Infinity`, or any
   * value above `MAX_TIMER_DELAY_MS`, waits for ever). The embedding goes on: its vectors are kept, and later searches use them.
   */
  readonly timeoutMs?: number;
  /** The clock of that wait (default: the system clock); tests pass a fake one. */
  readonly clock?: Clock;
}

const HYBRID_RANKER_OPTION_NAMES = {
  embedder: true,
  lexical: true,
  expandUnknownWords: true,
  weight: true,
  similarityFloor: true,
  feedback: true,
  toolText: true,
  onError: true,
  cacheSize: true,
  timeoutMs: true,
  clock: true,
} as const satisfies OptionNamesOf<HybridRankerOptions>;

const DEFAULT_WEIGHT = 0.15;
/**
 * A request of one part fuses the similarity at this multiple of `weight` (at most 1): its one
 * vector reads the whole request, while a tool's best similarity over a request's several
 * views (the whole and each part) is both higher and noisier, and the parts' tools are the
 * lexical ranking's to keep.
 */
const ONE_PART_WEIGHT_FACTOR = 1.5;
const DEFAULT_SIMILARITY_FLOOR = 0.2;
const DEFAULT_CACHE_SIZE = 20_000;
const DEFAULT_TIMEOUT_MS = 2_000;
/**
 * An embedding call unanswered after this long (or after `timeoutMs`, when longer) is given up
 * on: the next search that needs its texts sends them again. Its answer, should it come, is
 * still kept. An embedder that shares calls in flight (`createAiSdkEmbedder`) stops sharing one
 * as old, so that the texts sent again reach the model.
 */
export const STALE_EMBEDDING_MS = 60_000;
/** Lexical results fused per search (at least). */
const LEXICAL_CANDIDATES = 30;
/** Tools added per search for their similarity alone (at least). */
const SEMANTIC_CANDIDATES = 30;
/** Query texts whose vectors are kept (a repeated search costs no embedding call). */
const QUERY_CACHE_SIZE = 256;
/**
 * For a request in several parts, how much a candidate's similarity is lowered per unit of its
 * likeness (rescaled like the similarity) to a tool already picked.
 */
const DIVERSITY = 0.3;
/** Leading tools whose vectors the request's views are moved towards (pseudo-relevance feedback). */
const FEEDBACK_TOOLS = 2;
/**
 * For a request in several parts, each part's view is moved towards the one tool most similar
 * to it among this many leading tools of the first ranking (the whole request's view towards
 * the FEEDBACK_TOOLS leading ones): the tools leading a request of two parts often serve one
 * part each, and their mean pulled every part towards the other's tool.
 */
const PART_FEEDBACK_TOOLS = 6;
/** How far, by default: the share of those tools' mean vector added to each view before it is made unit length. */
const DEFAULT_FEEDBACK = 0.3;
/** Parameter names taken from a schema for the default tool text. */
const MAX_PARAMETER_NAMES = 32;
/** String enum values taken per parameter (its own, or its array items'), and per tool, for the default tool text. */
const MAX_ENUM_VALUES_PER_PARAMETER = 8;
const MAX_ENUM_VALUES = 16;
/**
 * A quoted value in a request ('latte', "Shape of You", `main.py`): a quote that opens after
 * the start, a space or an opening bracket, `:`, `,` or `=`, and closes before the end, a space,
 * a closing bracket or punctuation (so the apostrophes of "don't … it's" are not quotes).
 */
const QUOTED_VALUE = /(^|[\s([{:,=])(['"`])([^'"`\n]{1,200}?)\2(?=$|[\s)\]}.,;:!?])/g;

/** A tool a search considers: from the lexical ranking, or found by similarity alone. */
interface Candidate {
  /** The lexical score, read along the lexical order (0 for a tool found by similarity alone). */
  readonly lexical: number;
  readonly order: number;
  readonly description: string | undefined;
}

/** A candidate of a search, with its parts of the fused score. */
interface Fused {
  readonly position: number;
  /** The lexical score, read along the lexical order (0 for a tool found by similarity alone). */
  readonly lexical: number;
  /** The best cosine over the request's views, rescaled from the floor to 0..1. */
  readonly semantic: number;
  readonly order: number;
  readonly description: string | undefined;
  score: number;
}

/** `pending`'s value, or undefined if it fails (the failure is reported where it happens). */
function orUndefined<T>(pending: Promise<T>): Promise<T | undefined> {
  return pending.then(
    (value) => value,
    () => undefined,
  );
}

/** A value now or later; `then` runs `next` synchronously when it can. */
function then<T, R>(value: MaybePromise<T>, next: (resolved: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** The string enum values of a parameter's schema and of its array items' schema. */
function enumValues(parameter: unknown, into: string[]): void {
  if (typeof parameter !== 'object' || parameter === null) return;
  const items = (parameter as { items?: unknown }).items;
  for (const schema of [parameter, typeof items === 'object' && items !== null ? items : undefined]) {
    const values = (schema as { enum?: unknown } | undefined)?.enum;
    if (!Array.isArray(values)) continue;
    let taken = 0;
    for (const value of values) {
      if (taken === MAX_ENUM_VALUES_PER_PARAMETER || into.length === MAX_ENUM_VALUES) break;
      if (typeof value === 'string') {
        into.push(value);
        taken++;
      }
    }
  }
}

/**
 * A request's text as embedded: without its quoted values ('latte', "Shape of You"), which are
 * arguments for a tool rather than what the request asks for (the lexical ranking still reads
 * them). A text that is nothing but quoted values is kept whole.
 */
export function withoutQuotedValues(text: string): string {
  if (!/['"`]/.test(text)) return text;
  const stripped = text.replace(QUOTED_VALUE, '$1 ');
  return stripped.trim().length > 0 ? stripped : text;
}

/**
 * The default text of a tool: name, description, tags, top-level parameter names and their
 * string enum values (at most 8 per parameter, 16 per tool).
 */
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
      const names = Object.keys(properties).slice(0, MAX_PARAMETER_NAMES);
      parts.push(names.join(' '));
      const values: string[] = [];
      for (const name of names) {
        if (values.length === MAX_ENUM_VALUES) break;
        enumValues((properties as Record<string, unknown>)[name], values);
      }
      if (values.length > 0) parts.push(values.join(' '));
    }
  }
  return parts.join('. ');
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

/** A text being embedded: its vector to come, and when it was sent. */
interface PendingVector {
  readonly vector: Promise<EmbeddingVector>;
  readonly since: number;
}

/**
 * The vectors of `texts` (distinct), asking the embedder only for those not already on their
 * way: while a text is being embedded its vector is shared by every caller that wants it, so
 * concurrent searches of one request, or catalogs built at once with the same tools, cost one
 * call. Synchronous when the embedder answers synchronously (nothing is then ever pending).
 * A text sent `staleMs` ago or more whose answer has not come is sent again: a call that never
 * settles (a dead connection, a worker gone) must not keep every later search waiting for it.
 */
function embedOnce(
  texts: readonly string[],
  embed: (texts: readonly string[]) => MaybePromise<readonly EmbeddingVector[]>,
  pending: Map<string, PendingVector>,
  check: (vectors: unknown, count: number) => readonly EmbeddingVector[],
  now: number,
  staleMs: number,
): MaybePromise<readonly EmbeddingVector[]> {
  const missing =
    pending.size === 0
      ? texts
      : texts.filter((text) => {
          const on = pending.get(text);
          return on === undefined || now - on.since >= staleMs;
        });
  const sent = missing.length > 0 ? embed(missing) : [];
  if (!(sent instanceof Promise) && missing.length === texts.length) return check(sent, missing.length);
  const batch = Promise.resolve(sent).then((vectors) => check(vectors, missing.length));
  missing.forEach((text, index) => {
    const vector = batch.then((vectors) => vectors[index]!);
    pending.set(text, { vector, since: now });
    const settle = (): void => {
      if (pending.get(text)?.vector === vector) pending.delete(text);
    };
    vector.then(settle, settle);
  });
  return Promise.all(texts.map((text) => pending.get(text)!.vector));
}

function checkFraction(name: string, value: number): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new ToolSearchError('INVALID_OPTIONS', `${name} must be a number in 0..1, got ${String(value)}`);
  }
  return value;
}

/**
 * A catalog's matrix as planned: the rows of the tools whose text the cache holds, already
 * copied, and the texts left to embed.
 */
interface ToolVectorPlan {
  /** Per tool: the index of its text in `wanted`, or −1 when its row was copied from the cache. */
  readonly sources: Int32Array;
  /** The texts to embed, each distinct text once (by its cache key). */
  readonly wanted: string[];
  readonly wantedKeys: number[];
  /** The row length of `codes`: the cache's when the plan was made (0 while it was empty). */
  readonly dimensions: number;
  /** Tools × `dimensions` codes, the cached tools' rows filled. */
  readonly codes: Int8Array;
  readonly scales: Float32Array;
  /** Tools whose row was copied from the cache. */
  readonly copied: number;
}

/*
 * The catalog's embedding is planned and assembled by module-level functions rather than
 * closures made per catalog: their optimised code then outlives each catalog (see
 * keep-shape.ts), and a catalog built after a full garbage collection does not wait for it.
 *
 * The cached rows are copied while planning, not when the new vectors arrive: a cache slot is
 * good only until the next put, and while an asynchronous embedder works, other catalogs of the
 * factory put their vectors, evicting and reusing slots (a catalog then took another's rows).
 * Copying then costs nothing extra: it is the copy the matrix needs anyway.
 */

function planToolVectors(
  tools: readonly ToolDescriptor[],
  toolText: (tool: ToolDescriptor) => string,
  cache: VectorCache,
): ToolVectorPlan {
  const count = tools.length;
  const dimensions = cache.dimensions;
  const sources = new Int32Array(count);
  const codes = new Int8Array(count * dimensions);
  const scales = new Float32Array(count);
  const distinct = new Map<number, number>();
  const wanted: string[] = [];
  const wantedKeys: number[] = [];
  let copied = 0;
  // The texts are made here, not kept with the ranker: once the matrix is built (and cached by
  // text key), those of cached tools are garbage.
  for (let position = 0; position < count; position++) {
    const text = toolText(tools[position]!);
    if (typeof text !== 'string') {
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        `toolText must return a string; it returned ${text === null ? 'null' : typeof text} for "${tools[position]!.name}"`,
      );
    }
    const key = textKey(text);
    const slot = cache.slotOf(key);
    if (slot >= 0) {
      scales[position] = cache.copy(slot, codes, position * dimensions);
      sources[position] = -1;
      copied++;
      continue;
    }
    let index = distinct.get(key);
    if (index === undefined) {
      index = wanted.length;
      distinct.set(key, index);
      wanted.push(text);
      wantedKeys.push(key);
    }
    sources[position] = index;
  }
  return { sources, wanted, wantedKeys, dimensions, codes, scales, copied };
}

/** The catalog's int8 matrix: the plan's cached rows and the new vectors, which are cached in turn. */
function assembleToolMatrix(
  plan: ToolVectorPlan,
  embedded: readonly EmbeddingVector[],
  dimensions: number,
  cache: VectorCache,
): ToolMatrix {
  const { sources, wantedKeys } = plan;
  const count = sources.length;
  let { codes, scales } = plan;
  if (dimensions !== plan.dimensions) {
    // The cache was empty when planned (its rows have the embedder's length, which is fixed).
    if (plan.copied > 0) {
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        `the embedder returned vectors of length ${dimensions}; the cached ones have ${plan.dimensions}`,
      );
    }
    codes = new Int8Array(count * dimensions);
    scales = new Float32Array(count);
  }
  // Where each new text was first written, so a repeated text is quantised once.
  const written = new Int32Array(embedded.length).fill(-1);
  for (let position = 0, offset = 0; position < count; position++, offset += dimensions) {
    const index = sources[position]!;
    if (index < 0) continue;
    const first = written[index]!;
    if (first >= 0) {
      codes.copyWithin(offset, first * dimensions, (first + 1) * dimensions);
      scales[position] = scales[first]!;
    } else {
      scales[position] = quantiseInto(embedded[index]!, dimensions, codes, offset);
      written[index] = position;
    }
  }
  for (let index = 0; index < wantedKeys.length; index++) {
    const position = written[index]!;
    cache.put(wantedKeys[index]!, codes, position * dimensions, dimensions, scales[position]!);
  }
  return finishMatrix(codes, scales, dimensions);
}

/**
 * The views moved by the feedback: the whole request's (the first) towards the mean of the
 * FEEDBACK_TOOLS leading tools; each part's, for a request of several, towards the one tool of
 * `leading` most similar to it.
 */
function partFeedbackViews(
  matrix: ToolMatrix,
  views: readonly Float32Array[],
  leading: readonly number[],
  feedback: number,
): Float32Array[] {
  const whole = feedbackViews(matrix, views.slice(0, 1), leading.slice(0, FEEDBACK_TOOLS), feedback);
  if (views.length < 2) return whole;
  const parts = views.slice(1);
  const cosines = new QueryViews(matrix, parts).each(leading, leading.length);
  return [
    ...whole,
    ...parts.map((view, part) => {
      let closest = 0;
      for (let index = 1; index < leading.length; index++) {
        if (cosines[part * leading.length + index]! > cosines[part * leading.length + closest]!)
          closest = index;
      }
      return feedbackViews(matrix, [view], [leading[closest]!], feedback)[0]!;
    }),
  ];
}

/** The fused score: a tool the lexical ranker scores 1 stays first; `penalty` lowers the similarity. */
function fusedScore(entry: Fused, weight: number, penalty: number): number {
  return entry.lexical >= 1
    ? 1
    : (1 - weight) * entry.lexical + weight * Math.max(0, entry.semantic - penalty);
}

/** Whether `left` ranks before `right`: the higher score, then the lexical order, then the name. */
function before(left: Fused, right: Fused, tools: readonly ToolDescriptor[]): boolean {
  return (
    left.score > right.score ||
    (left.score === right.score &&
      (left.order < right.order ||
        (left.order === right.order && tools[left.position]!.name < tools[right.position]!.name)))
  );
}

/** The pool scored and sorted, best first. */
function rankByScore(pool: Fused[], weight: number, tools: readonly ToolDescriptor[]): Fused[] {
  for (const entry of pool) entry.score = fusedScore(entry, weight, 0);
  return pool.sort((left, right) => (before(left, right, tools) ? -1 : before(right, left, tools) ? 1 : 0));
}

/**
 * For a request in several parts, the best `count` of the pool picked one by one, each
 * candidate's similarity lowered by its likeness to the tools already picked (maximal marginal
 * relevance), so that the similarity term does not lift a second tool for the same part above
 * the tool for another part, undoing the lexical ranker's coverage of every part.
 */
function rankByMarginalRelevance(
  pool: Fused[],
  query: QueryViews,
  count: number,
  weight: number,
  floor: number,
  similarityScale: number,
  tools: readonly ToolDescriptor[],
): Fused[] {
  const picked: Fused[] = [];
  const penalties = new Float64Array(pool.length);
  const remaining = pool.map((_, index) => index);
  while (picked.length < count && remaining.length > 0) {
    let best = 0;
    for (let slot = 0; slot < remaining.length; slot++) {
      const index = remaining[slot]!;
      pool[index]!.score = fusedScore(pool[index]!, weight, penalties[index]!);
      if (slot > 0 && before(pool[index]!, pool[remaining[best]!]!, tools)) best = slot;
    }
    const chosen = pool[remaining[best]!]!;
    remaining.splice(best, 1);
    picked.push(chosen);
    if (picked.length === count) break;
    const cosines = query.between(
      chosen.position,
      remaining.map((index) => pool[index]!.position),
      remaining.length,
    );
    remaining.forEach((index, slot) => {
      const likeness = Math.max(0, (cosines[slot]! - floor) * similarityScale);
      penalties[index] = Math.max(penalties[index]!, DIVERSITY * likeness);
    });
  }
  return picked;
}

/**
 * A ranker factory that fuses a lexical ranking with embedding similarity. For each search,
 * the candidates are the lexical results and the tools most similar to the request or to
 * any of its parts ("find flights to Rome and convert 200 euros": each part is embedded, and
 * a tool keeps its best similarity). A candidate scores
 * `(1 − weight) × lexical + weight × similarity` (a request of one part at 1.5 × `weight`,
 * at most 1), where the lexical score is read along the
 * lexical ranker's own order (so its choices, such as covering every part of a request, are
 * kept) and the similarity is the cosine rescaled from `similarityFloor`..1 to 0..1. Scores
 * stay in 0..1; a tool the lexical ranker scores 1 (named exactly) stays first. The candidates
 * are ranked twice: the request's vectors are moved towards those of the two leading tools
 * (pseudo-relevance feedback, `feedback`), and the similarity measured again. A tool found by
 * similarity alone scores at most `weight`, so when `topK` lexical candidates (and at least
 * two) are sure to score more, the search for such tools is skipped: same answer, a fraction
 * of the work.
 *
 * Tool vectors are computed once per catalog, when the factory is called, and kept by text,
 * so a catalog rebuilt with the same tools costs no embedding call. With an asynchronous
 * embedder, a search waits for the catalog's vectors and its own, up to `timeoutMs`, and then
 * answers lexically (a stalled API never stalls the agent); with a synchronous one, search is
 * synchronous too.
 */
export function createHybridRanker(options: HybridRankerOptions): RankerFactory {
  if (typeof options !== 'object' || options === null) {
    throw new ToolSearchError('INVALID_OPTIONS', 'createHybridRanker needs { embedder }');
  }
  checkOptionNames(options, HYBRID_RANKER_OPTION_NAMES, 'createHybridRanker');
  const { embedder } = options;
  if (typeof embedder !== 'object' || embedder === null || typeof embedder.embed !== 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `createHybridRanker needs an embedder with an embed(texts) method${embedderHint(embedder)}`,
    );
  }
  if (embedder.embedQueries !== undefined && typeof embedder.embedQueries !== 'function') {
    throw new ToolSearchError('INVALID_OPTIONS', 'the embedder’s embedQueries must be a method when given');
  }
  if (embedder.embedWords !== undefined && typeof embedder.embedWords !== 'function') {
    throw new ToolSearchError('INVALID_OPTIONS', 'the embedder’s embedWords must be a method when given');
  }
  const expandUnknownWords = options.expandUnknownWords ?? true;
  if (typeof expandUnknownWords !== 'boolean') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `expandUnknownWords must be a boolean, got ${String(expandUnknownWords)}`,
    );
  }
  const severalPartsWeight = checkFraction('weight', options.weight ?? DEFAULT_WEIGHT);
  const onePartWeight = Math.min(1, ONE_PART_WEIGHT_FACTOR * severalPartsWeight);
  const feedback = checkFraction('feedback', options.feedback ?? DEFAULT_FEEDBACK);
  const floor = options.similarityFloor ?? DEFAULT_SIMILARITY_FLOOR;
  if (typeof floor !== 'number' || !(floor >= -1 && floor < 1)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `similarityFloor must be a number in -1..1, got ${String(floor)}`,
    );
  }
  /** Rescales a cosine from floor..1 to 0..1. */
  const similarityScale = 1 / (1 - floor);
  const cacheSize = sizeOption(options.cacheSize, 'cacheSize', DEFAULT_CACHE_SIZE);
  const timeoutMs = timeoutOption(options.timeoutMs, 'timeoutMs', DEFAULT_TIMEOUT_MS);
  const clock = clockOption(options.clock, 'createHybridRanker');
  /** An embedding unanswered this long is sent again (never, when searches wait for ever). */
  const staleMs =
    timeoutMs === Number.POSITIVE_INFINITY ? timeoutMs : Math.max(STALE_EMBEDDING_MS, timeoutMs);
  if (options.lexical !== undefined && options.lexical !== null && typeof options.lexical !== 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `lexical must be a ranker factory (tools) => Ranker, got ${typeof options.lexical}`,
    );
  }
  const toolText = options.toolText ?? defaultToolText;
  if (typeof toolText !== 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `toolText must be a function (tool) => string, got ${typeof toolText}`,
    );
  }
  const onError = options.onError;
  // The embedder is fixed per factory, so its vectors are kept by text alone.
  const toolVectors = new VectorCache(cacheSize);
  const queryVectors = new LruMap<Float32Array>(QUERY_CACHE_SIZE);
  let knownDimensions = embedderDimensions(embedder, 'createHybridRanker');

  // A failing listener must not turn a degraded search into a failed one.
  const report = safeListener(onError, 'createHybridRanker: onError');

  // The default keyword ranking gets the embedder's word vectors, for the words no tool contains.
  const wordVectors =
    expandUnknownWords && embedder.embedWords !== undefined
      ? (words: readonly string[]) => embedder.embedWords!(words)
      : undefined;
  const lexicalFactory: RankerFactory =
    options.lexical ??
    (wordVectors ? (tools) => keywordRankerOver(tools, { wordVectors, onError: report }) : keywordRankerOver);

  /**
   * `pending`, or undefined (the search then answers lexically) once it has taken longer than
   * `timeoutMs`. It is not cancelled: what it embeds is still kept for later searches.
   */
  const withinTimeout = <T>(pending: Promise<T>): Promise<T | undefined> =>
    settleWithin(pending, timeoutMs, clock, () => {
      report(
        new ToolSearchError(
          'EMBEDDER_TIMEOUT',
          `The embedder did not answer within ${timeoutMs} ms; the search answered from the lexical ranking.`,
        ),
      );
      return undefined;
    }).catch((error: unknown) => {
      report(error);
      return undefined;
    });

  const accept = (vectors: unknown, count: number): readonly EmbeddingVector[] => {
    const checked = checkVectors(vectors, count, knownDimensions);
    if (knownDimensions === undefined && checked.length > 0) {
      // Learnt only from an answer whose vectors all have one length: one glitched vector,
      // learnt, would have every right answer refused for the life of the factory.
      const agreed = checkVectors(checked, count, checked[0]!.length);
      knownDimensions = checked[0]!.length;
      return agreed;
    }
    return checked;
  };

  /** Request texts being embedded, and tool texts (for any catalog of this factory). */
  const pendingQueries = new Map<string, PendingVector>();
  const pendingTools = new Map<string, PendingVector>();
  const embedRequests = (texts: readonly string[]) =>
    embedder.embedQueries ? embedder.embedQueries(texts) : embedder.embed(texts);
  const embedToolTexts = (texts: readonly string[]) => embedder.embed(texts);

  const embedQuery = (texts: readonly string[]): MaybePromise<Float32Array[]> => {
    const found = texts.map((text) => queryVectors.get(text));
    const missing = [...new Set(texts.filter((_, position) => found[position] === undefined))];
    if (missing.length === 0) return found as Float32Array[];
    return then(
      embedOnce(missing, embedRequests, pendingQueries, accept, clock.now(), staleMs),
      (vectors) => {
        const embedded = new Map<string, Float32Array>();
        missing.forEach((text, index) => {
          const vector = unitVector(vectors[index]!, knownDimensions!);
          queryVectors.set(text, vector);
          embedded.set(text, vector);
        });
        return texts.map((text, position) => found[position] ?? embedded.get(text)!);
      },
    );
  };

  return (tools: readonly ToolDescriptor[]): Ranker => {
    const positions = positionsByName(tools, 'the hybrid ranker');
    const embedTools = (): MaybePromise<ToolMatrix> => {
      const plan = planToolVectors(tools, toolText, toolVectors);
      const assemble = (embedded: readonly EmbeddingVector[]): ToolMatrix =>
        assembleToolMatrix(plan, embedded, knownDimensions ?? 0, toolVectors);
      if (plan.wanted.length === 0) return assemble([]);
      return then(
        embedOnce(plan.wanted, embedToolTexts, pendingTools, accept, clock.now(), staleMs),
        assemble,
      );
    };

    let matrix: ToolMatrix | undefined;
    let pending: Promise<ToolMatrix> | undefined;
    let pendingSince = 0;
    /**
     * The catalog's vectors; a failure is reported and forgotten, so the next search retries,
     * and so is an embedding unanswered for `staleMs` (its texts are sent again).
     */
    const vectors = (): MaybePromise<ToolMatrix | undefined> => {
      if (matrix) return matrix;
      if (pending && clock.now() - pendingSince < staleMs) return orUndefined(pending);
      try {
        const result = embedTools();
        if (!(result instanceof Promise)) {
          matrix = result;
          return matrix;
        }
        const current: Promise<ToolMatrix> = result.then(
          (value) => {
            matrix = value; // a late answer of a call given up on is as good as any
            if (pending === current) pending = undefined;
            return value;
          },
          (error: unknown) => {
            if (pending !== current) throw error; // given up on: its failure is no news
            pending = undefined;
            report(error);
            throw error;
          },
        );
        pending = current;
        pendingSince = clock.now();
        return orUndefined(pending);
      } catch (error) {
        report(error);
        return undefined;
      }
    };
    // Embed the catalog now: its cost belongs to building, not to the first search. It starts
    // before the lexical index is built, so an asynchronous embedder (an API, a worker
    // thread) works while that index is built.
    if (tools.length > 0) {
      const started = vectors();
      if (started instanceof Promise) started.catch(() => undefined);
    }
    const lexical = lexicalFactory(tools);

    const semantic = (
      views: readonly string[],
    ): MaybePromise<{ matrix: ToolMatrix; views: Float32Array[] } | undefined> => {
      const found = similarityOf(views);
      return found instanceof Promise ? withinTimeout(found) : found;
    };

    const similarityOf = (
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
      const weight = views.length < 2 ? onePartWeight : severalPartsWeight;
      const candidates = new Map<number, Candidate>();
      let running = 1;
      lexicalResults.forEach((result, order) => {
        const position = positions.get(result.name);
        if (position === undefined || candidates.has(position)) return;
        const score = Math.min(1, Math.max(0, Number(result.score) || 0));
        // Read along the lexical order: a tool placed below another never scores above it.
        running = Math.min(running, score);
        candidates.set(position, { lexical: running, order, description: result.description });
      });
      // A tool found by similarity alone scores at most `weight`. Once `topK` lexical
      // candidates are sure to score at least that, none can reach the results: the scan for
      // such tools is skipped (the answer is the same, and most searches are this kind).
      let assured = 0;
      for (const candidate of candidates.values()) {
        if (candidate.lexical >= 1 || (1 - weight) * candidate.lexical >= weight) assured++;
      }
      // The feedback needs the true leading tools too, so the scan is skipped only when the
      // lexical candidates alone are sure to provide them as well.
      const leadingCount = views.length < 2 ? FEEDBACK_TOOLS : PART_FEEDBACK_TOOLS;
      const scans = assured < (feedback > 0 ? Math.max(topK, leadingCount) : topK);

      /**
       * The candidates scored against `query`, best `count` first; `scan` first adds the tools
       * most similar to it (they stay candidates for a later ranking).
       */
      const rank = (query: QueryViews, count: number, scan: boolean): Fused[] => {
        const scanned = new Map<number, number>();
        if (scan) {
          const similar = semanticCandidates(query, ready, Math.max(SEMANTIC_CANDIDATES, 2 * topK));
          similar.tools.forEach((position, index) => {
            scanned.set(position, similar.similarities[index]!);
            if (!candidates.has(position)) {
              candidates.set(position, {
                lexical: 0,
                order: Number.POSITIVE_INFINITY,
                description: undefined,
              });
            }
          });
        }
        // The cosines of the candidates the scan did not measure, in one batch.
        const unmeasured = [...candidates.keys()].filter((position) => !scanned.has(position));
        const measured = query.best(unmeasured, unmeasured.length);
        unmeasured.forEach((position, index) => {
          scanned.set(position, measured[index]!);
        });
        const pool: Fused[] = [];
        for (const [position, candidate] of candidates) {
          const cosine = scanned.get(position)!;
          pool.push({
            position,
            lexical: candidate.lexical,
            semantic: Math.min(1, Math.max(0, (cosine - floor) * similarityScale)),
            order: candidate.order,
            description: candidate.description,
            score: 0,
          });
        }
        return views.length < 2
          ? rankByScore(pool, weight, tools)
          : rankByMarginalRelevance(pool, query, count, weight, floor, similarityScale, tools);
      };

      const first = new QueryViews(ready, views);
      let ranked: Fused[];
      if (feedback === 0) {
        ranked = rank(first, topK, scans);
      } else {
        // Pseudo-relevance feedback: the request's views moved towards the vectors of the tools
        // that lead the fused ranking, then every candidate scored again against them. Word
        // vectors place a request by its topic words and its names alike; the leading tools,
        // chosen mostly by the words, pull it towards the catalog's reading of that topic.
        const leading = rank(first, leadingCount, scans)
          .slice(0, leadingCount)
          .filter((entry) => entry.score > 0)
          .map((entry) => entry.position);
        // No candidate scores above 0: the views would not move, and the answer is empty.
        if (leading.length === 0) return [];
        // The moved views are not scanned again: they stay close to the request, and the tools
        // most similar to it are already candidates. A second scan changed 3 of the eval sets'
        // 7,317 top-10 lists, and took 0.7 ms of a real request's 2.6 ms at 10,000 tools.
        ranked = rank(new QueryViews(ready, partFeedbackViews(ready, views, leading, feedback)), topK, false);
      }
      const scored = ranked.filter((entry) => entry.score > 0 && entry.score >= minScore);
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
        const text = cutText(query, MAX_QUERY_LENGTH);
        const lexicalResults = lexical.search(text, {
          topK: Math.max(LEXICAL_CANDIDATES, topK),
          minScore: 0,
        });
        return then(lexicalResults, (lexicalList) => {
          if (text.trim().length === 0) return fuse(lexicalList, undefined, topK, minScore);
          // Embedded without their quoted values; the lexical ranking read them whole.
          const views = [text, ...requestParts(text)].map(withoutQuotedValues);
          return then(semantic(views), (found) => fuse(lexicalList, found, topK, minScore));
        });
      },
    };
  };
}
