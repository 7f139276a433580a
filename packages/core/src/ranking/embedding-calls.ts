/**
 * The hybrid ranker's calls to its embedder: a text on its way is embedded once for every
 * caller that wants it, an answer is checked (count, length) and the vector length learnt
 * from it, request vectors are kept by text, and a search waits at most `timeoutMs` for them.
 * The learnt length, the texts in flight and the request cache are reached only through
 * {@link createEmbeddingCalls}' functions.
 */
import { settleWithin } from '../clock';
import { ToolSearchError } from '../errors';
import type { Clock, MaybePromise } from '../types';
import type { Embedder, EmbeddingVector } from './embedder';
import { unitVector } from './tool-vectors';

/** Query texts whose vectors are kept (a repeated search costs no embedding call). */
const QUERY_CACHE_SIZE = 256;

/** A value now or later; `andThen` runs `next` synchronously when it can. */
export function andThen<T, R>(
  value: MaybePromise<T>,
  next: (resolved: T) => MaybePromise<R>,
): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
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

export interface EmbeddingCalls {
  /** The embedder's vector length: given by it, or learnt from its first answer (undefined before). */
  dimensions(): number | undefined;
  /** Tool texts' vectors (distinct texts), checked; shared with any call of the same texts in flight. */
  embedToolTexts(texts: readonly string[]): MaybePromise<readonly EmbeddingVector[]>;
  /** Request texts' vectors at unit length, from the cache or the embedder (`embedQueries` when it has one). */
  embedQueries(texts: readonly string[]): MaybePromise<Float32Array[]>;
  /**
   * `pending`, or undefined (the search then answers lexically) once it has taken longer than
   * `timeoutMs`, or failed (reported). It is not cancelled: what it embeds is still kept for
   * later searches.
   */
  withinTimeout<T>(pending: Promise<T>): Promise<T | undefined>;
}

/** The embedding calls of one hybrid ranker factory (its embedder is fixed, so vectors are kept by text alone). */
export function createEmbeddingCalls(options: {
  readonly embedder: Embedder;
  /** The embedder's own `dimensions` (checked), if it says. */
  readonly dimensions: number | undefined;
  readonly clock: Clock;
  readonly timeoutMs: number;
  /** An embedding unanswered this long is sent again. */
  readonly staleMs: number;
  readonly report: (error: unknown) => void;
}): EmbeddingCalls {
  const { embedder, clock, timeoutMs, staleMs, report } = options;
  let knownDimensions = options.dimensions;
  const queryVectors = new LruMap<Float32Array>(QUERY_CACHE_SIZE);
  /** Request texts being embedded, and tool texts (for any catalog of this factory). */
  const pendingQueries = new Map<string, PendingVector>();
  const pendingTools = new Map<string, PendingVector>();
  const embedRequests = (texts: readonly string[]) =>
    embedder.embedQueries ? embedder.embedQueries(texts) : embedder.embed(texts);
  const embedTools = (texts: readonly string[]) => embedder.embed(texts);

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

  return {
    dimensions: () => knownDimensions,
    embedToolTexts: (texts) => embedOnce(texts, embedTools, pendingTools, accept, clock.now(), staleMs),
    embedQueries(texts) {
      const found = texts.map((text) => queryVectors.get(text));
      const missing = [...new Set(texts.filter((_, position) => found[position] === undefined))];
      if (missing.length === 0) return found as Float32Array[];
      return andThen(
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
    },
    withinTimeout: <T>(pending: Promise<T>): Promise<T | undefined> =>
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
      }),
  };
}
