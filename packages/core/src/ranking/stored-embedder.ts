import { clockOption, settleWithin, timeoutOption } from '../clock';
import { ToolSearchError } from '../errors';
import { safeListener } from '../listener';
import { checkOptionNames, type OptionNamesOf } from '../option-names';
import type { Clock } from '../types';
import { type Embedder, type EmbeddingVector, embedderDimensions, embedderHint } from './embedder';
import type { VectorStore, VectorStoreEntry } from './vector-store';

export interface StoredEmbedderOptions {
  /** The embedder whose vectors are kept (an embedding API: `createAiSdkEmbedder`, ...). Its `id` is the store's namespace. */
  readonly embedder: Embedder;
  /** Where the vectors are kept: `createRedisVectorStore` from `@tool-search/redis`, `createMemoryVectorStore`, yours. */
  readonly store: VectorStore;
  /**
   * Bound on each store call (of up to 500 texts); past it the embedder is asked instead
   * (default 1,000 ms; `Infinity`, or any value above `MAX_TIMER_DELAY_MS`, for no bound).
   */
  readonly timeoutMs?: number;
  /** The clock of that bound (default: the system clock). */
  readonly clock?: Clock;
  /**
   * Called when the store fails or times out (`STORE_UNAVAILABLE`, `STORE_TIMEOUT`) or gives
   * a vector that does not fit (`INVALID_OPTIONS`). Nothing is lost either way: what the
   * store cannot answer is embedded, and what it cannot keep is embedded again next time.
   */
  readonly onError?: (error: unknown) => void;
}

const STORED_EMBEDDER_OPTION_NAMES = {
  embedder: true,
  store: true,
  timeoutMs: true,
  clock: true,
  onError: true,
} as const satisfies OptionNamesOf<StoredEmbedderOptions>;

const DEFAULT_TIMEOUT_MS = 1_000;
/**
 * Texts per store call. A call's time is bounded to catch a stalled store, not to bound a
 * catalog's transfer: 10,000 vectors of 1,536 dimensions took 0.7–0.9 s to read from a Redis
 * on the same machine in one call (past the default bound over any network), 500 of them
 * 31–57 ms (at 3,072 dimensions 73–83 ms).
 */
const STORE_BATCH = 500;

/**
 * `vector` as float32 (itself when it already is one: the stores copy on both sides, so no
 * second copy of a catalog's vectors is made here), or undefined when it is empty or holds a
 * value that is not finite.
 */
function finiteFloat32(vector: EmbeddingVector | undefined | null): Float32Array | undefined {
  const length = (vector as { length?: unknown } | null | undefined)?.length;
  if (typeof length !== 'number' || length === 0) return undefined;
  if (vector instanceof Float32Array) {
    for (let index = 0; index < length; index++) if (!Number.isFinite(vector[index]!)) return undefined;
    return vector;
  }
  const copy = new Float32Array(length);
  for (let index = 0; index < length; index++) {
    copy[index] = Number(vector![index]);
    // Checked as float32: a value past its range (1e39, finite as a double) becomes Infinity.
    if (!Number.isFinite(copy[index]!)) return undefined;
  }
  return copy;
}

/** `work()`'s answer within `ms` (as `{ value }`), or `undefined`: the failure or the timeout reported. */
async function bounded<T>(
  work: () => T | PromiseLike<T>,
  operation: string,
  ms: number,
  clock: Clock,
  report: (error: unknown) => void,
): Promise<{ value: T } | undefined> {
  try {
    return await settleWithin(
      Promise.resolve()
        .then(work)
        .then((value) => ({ value })),
      ms,
      clock,
      () => {
        report(
          new ToolSearchError(
            'STORE_TIMEOUT',
            `The vector store did not answer ${operation} within ${ms} ms; the embedder was used instead.`,
          ),
        );
        return undefined;
      },
    );
  } catch (error) {
    report(
      ToolSearchError.isInstance(error)
        ? error
        : new ToolSearchError(
            'STORE_UNAVAILABLE',
            `The vector store failed ${operation}: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          ),
    );
    return undefined;
  }
}

/**
 * An {@link Embedder} that keeps another's vectors in a {@link VectorStore}, so that a
 * catalog's tool texts go to an embedding API once, not at every start or cold start of the
 * process. `embed` reads the store for its texts, sends only those it does not keep to the
 * embedder (and, while the length of the embedder's vectors is not known, at least one, to
 * learn it), and keeps what comes back. Requests are not kept (each is new, and a store full of
 * them would only grow): `embedQueries` goes straight to the embedder, as does `embedWords`.
 * The `id` and `dimensions` are the embedder's.
 *
 * A store that fails, times out or gives a vector that does not fit costs nothing but time:
 * those texts are embedded, and the error goes to `onError`. A failing embedder fails the call,
 * as it would without the store (the hybrid ranker then answers from the words alone).
 */
export function createStoredEmbedder(options: StoredEmbedderOptions): Embedder {
  if (typeof options !== 'object' || options === null) {
    throw new ToolSearchError('INVALID_OPTIONS', 'createStoredEmbedder needs { embedder, store }');
  }
  checkOptionNames(options, STORED_EMBEDDER_OPTION_NAMES, 'createStoredEmbedder');
  const { embedder, store } = options;
  if (typeof embedder !== 'object' || embedder === null || typeof embedder.embed !== 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `createStoredEmbedder needs an embedder with an embed(texts) method${embedderHint(embedder)}`,
    );
  }
  if (typeof embedder.id !== 'string' || embedder.id.length === 0) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'the embedder needs an id (its vectors are kept under it): name the model and its settings',
    );
  }
  if (
    typeof store !== 'object' ||
    store === null ||
    typeof store.get !== 'function' ||
    typeof store.set !== 'function'
  ) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'createStoredEmbedder needs a store with get and set methods',
    );
  }
  const timeoutMs = timeoutOption(options.timeoutMs, 'timeoutMs', DEFAULT_TIMEOUT_MS);
  const clock = clockOption(options.clock, 'createStoredEmbedder');
  const report = safeListener(options.onError, 'createStoredEmbedder: onError');
  const namespace = embedder.id;
  /** The vectors' length: the embedder's, or that of the first vector it gave (never the store's word for it). */
  let dimensions = embedderDimensions(embedder, 'createStoredEmbedder');

  const unfitError = (count: number) =>
    new ToolSearchError(
      'INVALID_OPTIONS',
      `The vector store gave ${count} vector(s) under "${namespace}" of another length than the embedder's, or with values that are not finite; they were embedded again.`,
    );

  /**
   * The store's vectors of `distinct` (in chunks of STORE_BATCH texts, each call bounded by
   * `timeoutMs`; after a call fails, the rest is not asked for), those usable by text. Left out
   * and reported: a vector with a value that is not finite, one of another length than the
   * embedder's, and, while that length is not known yet, every vector when they do not all have
   * one length.
   */
  const read = async (distinct: readonly string[]): Promise<Map<string, EmbeddingVector>> => {
    const found = new Map<string, EmbeddingVector>();
    let unfit = 0;
    const lengths = new Set<number>();
    for (let start = 0; start < distinct.length; start += STORE_BATCH) {
      const chunk = distinct.slice(start, start + STORE_BATCH);
      const answer = (await bounded(() => store.get(namespace, chunk), 'get', timeoutMs, clock, report))
        ?.value;
      if (answer === undefined) break;
      if (!Array.isArray(answer) || answer.length !== chunk.length) {
        report(
          new ToolSearchError(
            'STORE_UNAVAILABLE',
            `The vector store gave ${Array.isArray(answer) ? answer.length : 'no'} answers for ${chunk.length} texts; the embedder was used instead.`,
          ),
        );
        break;
      }
      answer.forEach((vector: EmbeddingVector | undefined | null, index) => {
        if (vector === undefined || vector === null) return;
        const float32 = finiteFloat32(vector);
        if (float32 === undefined || (dimensions !== undefined && float32.length !== dimensions)) {
          unfit++;
          return;
        }
        lengths.add(float32.length);
        found.set(chunk[index]!, float32);
      });
    }
    if (lengths.size > 1) {
      unfit += found.size;
      found.clear();
    }
    if (unfit > 0) report(unfitError(unfit));
    return found;
  };

  /** Keeps `entries` (in chunks, as `read`; after a call fails, the rest is not sent). */
  const write = async (entries: readonly VectorStoreEntry[]): Promise<void> => {
    for (let start = 0; start < entries.length; start += STORE_BATCH) {
      const chunk = entries.slice(start, start + STORE_BATCH);
      if ((await bounded(() => store.set(namespace, chunk), 'set', timeoutMs, clock, report)) === undefined)
        return;
    }
  };

  /**
   * The embedder's vectors of `texts`, checked for count, with the length learnt from them:
   * only when every one is finite and of one length (one glitched vector, learnt, would keep
   * every right one out of the store for the life of the process).
   */
  const embedMissing = async (texts: readonly string[]): Promise<readonly EmbeddingVector[]> => {
    const vectors = await embedder.embed(texts);
    if (!Array.isArray(vectors) || vectors.length !== texts.length) {
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        `the embedder returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${texts.length} texts`,
      );
    }
    if (dimensions === undefined) {
      const lengths = new Set(vectors.map((vector) => finiteFloat32(vector)?.length));
      const [length] = lengths;
      if (lengths.size === 1 && length !== undefined) dimensions = length;
    }
    return vectors;
  };

  const embed = async (texts: readonly string[]): Promise<readonly EmbeddingVector[]> => {
    if (!Array.isArray(texts)) throw new ToolSearchError('INVALID_INPUT', 'embed expects an array of texts');
    if (texts.length === 0) return [];
    const strings = texts.map((text) => (typeof text === 'string' ? text : String(text)));
    const distinct = [...new Set(strings)];
    const known = dimensions !== undefined;
    const kept = await read(distinct);
    let missing = distinct.filter((text) => !kept.has(text));
    // While the embedder's length is not known, one text is embedded to learn it, even when the
    // store keeps them all: vectors kept under this id by a model of another length (changed
    // under the same id) would otherwise be served, and fail every search.
    if (!known && missing.length === 0) missing = distinct.slice(0, 1);
    if (missing.length > 0) {
      let vectors = await embedMissing(missing);
      // The embedder has just told the length: kept vectors of another length are embedded too.
      const asked = new Set(missing);
      const stale =
        known || dimensions === undefined
          ? []
          : [...kept].filter(([text, vector]) => vector.length !== dimensions && !asked.has(text));
      if (stale.length > 0) {
        report(unfitError(stale.length));
        const staleTexts = stale.map(([text]) => text);
        vectors = [...vectors, ...(await embedMissing(staleTexts))];
        missing = [...missing, ...staleTexts];
      }
      const entries: VectorStoreEntry[] = [];
      missing.forEach((text, index) => {
        const vector = vectors[index]!;
        kept.set(text, vector);
        // Only a vector that fits is kept: a bad one fails the search that gets it, not every later start.
        const float32 = finiteFloat32(vector);
        if (float32 !== undefined && float32.length === dimensions) entries.push({ text, vector: float32 });
      });
      await write(entries);
    }
    return strings.map((text) => kept.get(text)!);
  };

  const passThrough = <T>(method: ((items: readonly string[]) => T) | undefined) =>
    method === undefined ? undefined : (items: readonly string[]) => method.call(embedder, items);
  const embedQueries = passThrough(embedder.embedQueries) ?? passThrough(embedder.embed)!;
  const embedWords = passThrough(embedder.embedWords);
  return {
    id: namespace,
    ...(typeof embedder.dimensions === 'number' ? { dimensions: embedder.dimensions } : {}),
    embed,
    embedQueries,
    ...(embedWords ? { embedWords } : {}),
  };
}
