import {
  type Clock,
  clockOption,
  type Embedder,
  STALE_EMBEDDING_MS,
  settingsIdPart,
  sizeOption,
  ToolSearchError,
} from '@tool-search/core';
import { type EmbeddingModel, embedMany } from 'ai';

type EmbedManyOptions = Parameters<typeof embedMany>[0];

export interface AiSdkEmbedderOptions {
  /** Any AI SDK embedding model: `openai.embedding('text-embedding-3-small')`, Cohere, a local model, or a gateway id. */
  readonly model: EmbeddingModel;
  /** Ask the model for shorter vectors (models that support it, such as OpenAI's text-embedding-3). */
  readonly dimensions?: number;
  /**
   * Names the vectors for caching (default `ai-sdk:<provider>:<modelId>`, plus `:<dimensions>`,
   * plus `:providerOptions=<hash>` when `providerOptions` are given, since they may change the
   * vectors). Set it yourself when something else changes them.
   */
  readonly id?: string;
  /**
   * Texts whose vectors are kept as float32, so a repeated request, or a catalog built by
   * another ranker factory, costs no call (default 1,000). The hybrid ranker already keeps
   * its catalogs' vectors itself (int8, by text), so a larger cache only pays when several
   * factories share this embedder; at 1,536 dimensions each text kept costs 6 kB.
   */
  readonly cacheSize?: number;
  /** Passed to `embedMany`. */
  readonly maxRetries?: number;
  readonly maxParallelCalls?: number;
  readonly headers?: Record<string, string>;
  readonly providerOptions?: EmbedManyOptions['providerOptions'];
  /**
   * Provider options for the requests' texts, for a model that embeds a question differently
   * from a document: for example `{ cohere: { inputType: 'search_query' } }` with
   * `providerOptions: { cohere: { inputType: 'search_document' } }` for the tools, or Google's
   * `taskType` `RETRIEVAL_QUERY` / `RETRIEVAL_DOCUMENT`. Default: `providerOptions`, the same
   * embedding for both.
   */
  readonly queryProviderOptions?: EmbedManyOptions['providerOptions'];
  /**
   * The clock that times a call in flight (default: the system clock): a text whose call has
   * not answered within a minute is sent again when asked for, not left waiting on it.
   */
  readonly clock?: Clock;
}

const DEFAULT_CACHE_SIZE = 1_000;

function modelId(model: EmbeddingModel): string {
  if (typeof model === 'string') return model;
  return `${model.provider}:${model.modelId}`;
}

/**
 * Whether each of a batch's vectors is fit to keep: non-empty, every value finite (as float32),
 * and of the batch's length: `dimensions` when given (or learnt), else the length that more
 * than half of the batch's finite vectors share (none, when no length does).
 */
function fitVectors(vectors: readonly Float32Array[], dimensions: number | undefined): boolean[] {
  const finite = vectors.map((vector) => vector.length > 0 && vector.every(Number.isFinite));
  let length = dimensions;
  if (length === undefined) {
    const counts = new Map<number, number>();
    let finiteCount = 0;
    vectors.forEach((vector, index) => {
      if (!finite[index]) return;
      finiteCount++;
      counts.set(vector.length, (counts.get(vector.length) ?? 0) + 1);
    });
    for (const [candidate, count] of counts) if (count * 2 > finiteCount) length = candidate;
  }
  return vectors.map((vector, index) => finite[index]! && vector.length === length);
}

/**
 * An {@link Embedder} over an AI SDK embedding model, for the hybrid ranker: texts go to the
 * model through `embedMany` (which splits them into as many calls as the model allows), only
 * texts not seen before are sent, texts requested twice at once are sent once, and vectors
 * are kept as float32 by text. With `queryProviderOptions`, requests are embedded with those
 * (`embedQueries`, cached apart from the tools' texts).
 */
export function createAiSdkEmbedder(options: AiSdkEmbedderOptions): Embedder {
  if (
    typeof options !== 'object' ||
    options === null ||
    options.model === undefined ||
    options.model === null
  ) {
    throw new ToolSearchError('INVALID_OPTIONS', 'createAiSdkEmbedder needs { model }');
  }
  const { model, dimensions } = options;
  const cacheSize = sizeOption(options.cacheSize, 'cacheSize', DEFAULT_CACHE_SIZE);
  const clock = clockOption(options.clock, 'createAiSdkEmbedder');
  const id =
    options.id ??
    `ai-sdk:${modelId(model)}${dimensions === undefined ? '' : `:${dimensions}`}${settingsIdPart('providerOptions', options.providerOptions)}`;
  /**
   * The length of the vectors kept: `dimensions`, else that of the first batch with a length
   * most of it shares. A later vector of another length (one request's answer cut short, a
   * batch of one with nothing to disagree with) is returned but not kept.
   */
  let keptLength = dimensions;
  /**
   * Embeds through `embedMany` with `providerOptions`, keeping up to `cacheSize` vectors by
   * text (least recently used forgotten first) and sending a text being embedded only once
   * (while its call is younger than a minute: asked for later, it is sent again).
   * A vector unfit to use (empty, a value not finite, another length than the batch's) is
   * returned, so the ranker reports it, but not kept: the next call asks the model again.
   */
  const cachedEmbedding = (
    providerOptions: EmbedManyOptions['providerOptions'],
  ): ((texts: readonly string[]) => Promise<Float32Array[]>) => {
    /** Least recently used first. */
    const cache = new Map<string, Float32Array>();
    const inFlight = new Map<string, { readonly vector: Promise<Float32Array>; readonly since: number }>();

    const remember = (text: string, vector: Float32Array): void => {
      cache.delete(text);
      cache.set(text, vector);
      while (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
    };

    const request = (texts: readonly string[]): void => {
      const call = embedMany({
        model,
        values: [...texts],
        ...(dimensions === undefined ? {} : { dimensions }),
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        ...(options.maxParallelCalls === undefined ? {} : { maxParallelCalls: options.maxParallelCalls }),
        ...(options.headers === undefined ? {} : { headers: options.headers }),
        ...(providerOptions === undefined ? {} : { providerOptions }),
      }).then(({ embeddings }) => {
        if (embeddings.length !== texts.length) {
          throw new ToolSearchError(
            'INVALID_OPTIONS',
            `the embedding model returned ${embeddings.length} vectors for ${texts.length} texts`,
          );
        }
        const vectors = embeddings.map((embedding) => Float32Array.from(embedding));
        const fit = fitVectors(vectors, keptLength);
        if (keptLength === undefined) {
          const first = fit.indexOf(true);
          if (first >= 0) keptLength = vectors[first]!.length;
        }
        return { vectors, fit };
      });
      const since = clock.now();
      texts.forEach((text, position) => {
        const vector = call.then(({ vectors }) => vectors[position]!);
        inFlight.set(text, { vector, since });
        const settle = (): void => {
          if (inFlight.get(text)?.vector === vector) inFlight.delete(text);
        };
        call.then(({ vectors, fit }) => {
          settle();
          if (fit[position]) remember(text, vectors[position]!);
        }, settle);
      });
    };

    return async (texts) => {
      if (!Array.isArray(texts))
        throw new ToolSearchError('INVALID_INPUT', 'embed expects an array of texts');
      const now = clock.now();
      const missing = [
        ...new Set(
          texts.map(String).filter((text) => {
            if (cache.has(text)) return false;
            const on = inFlight.get(text);
            return on === undefined || now - on.since >= STALE_EMBEDDING_MS;
          }),
        ),
      ];
      if (missing.length > 0) request(missing);
      return Promise.all(
        texts.map((raw) => {
          const text = String(raw);
          const known = cache.get(text);
          if (known !== undefined) {
            remember(text, known);
            return known;
          }
          return inFlight.get(text)!.vector;
        }),
      );
    };
  };

  return {
    id,
    ...(dimensions === undefined ? {} : { dimensions }),
    embed: cachedEmbedding(options.providerOptions),
    ...(options.queryProviderOptions === undefined
      ? {}
      : { embedQueries: cachedEmbedding(options.queryProviderOptions) }),
  };
}
