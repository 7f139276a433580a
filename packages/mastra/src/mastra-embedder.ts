import { type Embedder, type EmbeddingVector, settingsIdPart, ToolSearchError } from '@tool-search/core';

type ProviderOptions = Record<string, Record<string, unknown>>;

/**
 * What this embedder calls on an embedding model: the AI SDK's embedding model interface
 * (version 2 or later), which Mastra's `ModelRouterEmbeddingModel` and the AI SDK providers'
 * `openai.embedding(…)` models implement.
 */
export interface MastraEmbeddingModel {
  readonly provider: string;
  readonly modelId: string;
  /** Texts per call the model accepts (undefined: no limit). */
  readonly maxEmbeddingsPerCall?: number | PromiseLike<number | undefined> | undefined;
  /** Whether several calls may run at once. */
  readonly supportsParallelCalls?: boolean | PromiseLike<boolean>;
  doEmbed(options: {
    values: string[];
    providerOptions?: ProviderOptions;
    headers?: Record<string, string | undefined>;
  }): PromiseLike<{ embeddings: readonly EmbeddingVector[] }>;
}

export interface MastraEmbedderOptions {
  /** `new ModelRouterEmbeddingModel('openai/text-embedding-3-small')`, or any AI SDK embedding model. */
  readonly model: MastraEmbeddingModel;
  /**
   * Names the vectors (default `mastra:<provider>:<modelId>`, plus `:providerOptions=<hash>`
   * when `providerOptions` are given, since they may change the vectors). Set it yourself when
   * something else changes them.
   */
  readonly id?: string;
  /** The length of every vector, when known: the ranker then checks each one. */
  readonly dimensions?: number;
  /** Provider options for the tools' texts (for example `{ cohere: { inputType: 'search_document' } }`). */
  readonly providerOptions?: ProviderOptions;
  /**
   * Provider options for the requests' texts, for a model that embeds a question unlike a
   * document (`{ cohere: { inputType: 'search_query' } }`). Default: `providerOptions`.
   */
  readonly queryProviderOptions?: ProviderOptions;
  readonly headers?: Record<string, string>;
  /** Calls running at once when the model allows parallel calls (default 4). */
  readonly maxParallelCalls?: number;
}

const DEFAULT_PARALLEL_CALLS = 4;

/**
 * Where an AI SDK embedding model (version 4) keeps the most bytes of input it accepts in one
 * call (OpenAI's: 300,000), as the AI SDK's `embedMany` reads it. A registry-wide symbol, so
 * reading it needs no import of the AI SDK.
 */
const MAX_INPUT_BYTES_PER_CALL = Symbol.for('vercel.ai.embeddingModel.maxInputBytesPerCall');

const utf8 = new TextEncoder();

/** A limit a model declares: a number above 0 (`Infinity` included), else none. */
function positiveLimit(value: unknown): number {
  return typeof value === 'number' && value > 0 ? value : Number.POSITIVE_INFINITY;
}

/**
 * The texts in calls of at most `perCall` texts and `bytesPerCall` bytes of UTF-8 (a text longer
 * than that alone goes in a call of its own), in order, as `embedMany` splits them.
 */
function splitByLimits(values: readonly string[], perCall: number, bytesPerCall: number): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let bytes = 0;
  for (const value of values) {
    const size = bytesPerCall === Number.POSITIVE_INFINITY ? 0 : utf8.encode(value).length;
    if (chunk.length > 0 && (chunk.length >= perCall || bytes + size > bytesPerCall)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(value);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

function positiveInteger(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
    throw new ToolSearchError('INVALID_OPTIONS', `${name} must be a positive integer, got ${String(value)}`);
  }
}

/**
 * An {@link Embedder} over the embedding model a Mastra app already has, for the hybrid ranker
 * (`createHybridRanker({ embedder })` from `@tool-search/core`, passed to the
 * `ToolSearchProcessor` as `ranker`), with no other dependency: texts go to the model's
 * `doEmbed` in calls of at most as many texts (`maxEmbeddingsPerCall`) and bytes (an AI SDK
 * model's `maxInputBytesPerCall`) as it accepts, several at once when it
 * allows parallel calls; after a call fails, no further call is started. The ranker keeps the
 * vectors by text, shares calls in flight, bounds the wait (`timeoutMs`) and answers from the
 * keyword ranking when a call fails; the next search tries again.
 */
export function createMastraEmbedder(options: MastraEmbedderOptions): Embedder {
  const model = (options as Partial<MastraEmbedderOptions> | null | undefined)?.model;
  if (typeof model !== 'object' || model === null || typeof model.doEmbed !== 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'createMastraEmbedder needs { model } with doEmbed (an embedding model such as ModelRouterEmbeddingModel)',
    );
  }
  positiveInteger('dimensions', options.dimensions);
  positiveInteger('maxParallelCalls', options.maxParallelCalls);
  const parallelCalls = options.maxParallelCalls ?? DEFAULT_PARALLEL_CALLS;

  const embedWith =
    (providerOptions: ProviderOptions | undefined) =>
    async (texts: readonly string[]): Promise<EmbeddingVector[]> => {
      if (!Array.isArray(texts))
        throw new ToolSearchError('INVALID_INPUT', 'embed expects an array of texts');
      const values = texts.map(String);
      // Read together, as the AI SDK's embedMany reads them: one that fails leaves no other unobserved.
      const [perCall, bytesPerCall, parallel] = await Promise.all([
        model.maxEmbeddingsPerCall,
        (model as { [MAX_INPUT_BYTES_PER_CALL]?: unknown })[MAX_INPUT_BYTES_PER_CALL],
        model.supportsParallelCalls,
      ]);
      const chunks = splitByLimits(values, positiveLimit(perCall), positiveLimit(bytesPerCall));
      const running = parallel === true ? parallelCalls : 1;
      const results: EmbeddingVector[][] = new Array(chunks.length);
      let next = 0;
      // Once a call has failed, `embed` rejects: the other workers start no further call.
      let failed = false;
      const worker = async (): Promise<void> => {
        while (!failed && next < chunks.length) {
          const index = next++;
          const chunk = chunks[index]!;
          try {
            const answer: unknown = await model.doEmbed({
              values: chunk,
              ...(providerOptions === undefined ? {} : { providerOptions }),
              ...(options.headers === undefined ? {} : { headers: options.headers }),
            });
            const embeddings =
              typeof answer === 'object' && answer !== null
                ? (answer as { embeddings?: unknown }).embeddings
                : undefined;
            if (!Array.isArray(embeddings) || embeddings.length !== chunk.length) {
              throw new ToolSearchError(
                'INVALID_OPTIONS',
                `the embedding model returned ${Array.isArray(embeddings) ? embeddings.length : 'no'} vectors for ${chunk.length} texts`,
              );
            }
            results[index] = embeddings;
          } catch (error) {
            failed = true;
            throw error;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(running, chunks.length) }, worker));
      return results.flat();
    };

  return {
    id:
      options.id ??
      `mastra:${model.provider}:${model.modelId}${settingsIdPart('providerOptions', options.providerOptions)}`,
    ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }),
    embed: embedWith(options.providerOptions),
    ...(options.queryProviderOptions === undefined
      ? {}
      : { embedQueries: embedWith(options.queryProviderOptions) }),
  };
}
