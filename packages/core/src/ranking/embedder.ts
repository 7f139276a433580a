import { ToolSearchError } from '../errors';
import type { MaybePromise } from '../types';
import { hashWord } from './tokenizer';

/** One embedding: typed arrays from an offline model, plain arrays from an embedding API. */
export type EmbeddingVector = Float32Array | Float64Array | Int8Array | readonly number[];

/**
 * Turns texts into vectors whose cosine says how alike the texts are. The hybrid ranker calls
 * it once per catalog for the tools' texts (cached by text) and once per search for the
 * parts of the query. It may answer synchronously (an offline model) or with a promise (an
 * embedding API).
 */
export interface Embedder {
  /**
   * Names the model and every setting that changes its vectors (for example
   * `openai:text-embedding-3-small`). Vectors are kept under it (`createStoredEmbedder`), so
   * two embedders with the same id must give the same vectors.
   */
  readonly id: string;
  /** The length of every vector, when known before the first call; the ranker checks it. */
  readonly dimensions?: number;
  /** One vector per text, in order: the tools' texts (and the requests, without `embedQueries`). */
  embed(texts: readonly string[]): MaybePromise<readonly EmbeddingVector[]>;
  /**
   * One vector per request text, in order, for a model that embeds a question differently
   * from the documents it should find (Cohere's and Voyage's input type, Gemini's task type,
   * the query instruction of E5 or BGE). Without it, `embed` serves requests too.
   */
  embedQueries?(texts: readonly string[]): MaybePromise<readonly EmbeddingVector[]>;
  /**
   * One vector per single word, in order, answered synchronously (a zero vector for a word the
   * model does not know): for a word-level model that answers in microseconds, such as the
   * offline word vectors. With it, the hybrid ranker's keyword ranking lets a request word
   * that no tool contains match the catalog words closest to it in meaning ("sunny" →
   * "weather"). An embedding API should not offer it: it is called during a search.
   */
  embedWords?(words: readonly string[]): readonly EmbeddingVector[];
}

/**
 * What to say when a value given as an embedder has no `embed(texts)` method but is a
 * framework's own embedding object, which an adapter's factory wraps: a LangChain `Embeddings`
 * (`embedDocuments` and `embedQuery`), an AI SDK embedding model (`doEmbed`) or a model's id
 * (a string). Empty otherwise.
 */
export function embedderHint(value: unknown): string {
  if (typeof value === 'string') {
    return `: got the string ${JSON.stringify(value.slice(0, 80))}; an embedding model's id goes through createAiSdkEmbedder({ model }) from @tool-search/ai-sdk (or createMastraEmbedder from @tool-search/mastra)`;
  }
  if (typeof value !== 'object' || value === null) return '';
  const candidate = value as Record<string, unknown>;
  const has = (key: string) => {
    try {
      return typeof candidate[key] === 'function';
    } catch {
      return false;
    }
  };
  if (has('embedDocuments') && has('embedQuery')) {
    return ': this looks like a LangChain Embeddings object; wrap it with createLangChainEmbedder({ embeddings }) from @tool-search/langchain';
  }
  if (has('doEmbed')) {
    return ': this looks like an AI SDK embedding model; wrap it with createAiSdkEmbedder({ model }) from @tool-search/ai-sdk (or createMastraEmbedder from @tool-search/mastra)';
  }
  return '';
}

/**
 * The embedder's `dimensions`: `undefined` when it does not say, else an integer ≥ 1; anything
 * else (`NaN`, 0, a string) throws `INVALID_OPTIONS` naming `takenBy`, since no vector could fit it.
 */
export function embedderDimensions(embedder: Embedder, takenBy: string): number | undefined {
  const { dimensions } = embedder;
  if (dimensions === undefined) return undefined;
  if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `${takenBy}: the embedder's dimensions must be an integer >= 1 when given, got ${String(dimensions)}`,
    );
  }
  return dimensions;
}

/**
 * A short, stable name for settings that change an embedder's vectors (a provider's options:
 * OpenAI's `dimensions`, Cohere's `inputType`, Google's `outputDimensionality`), for its default
 * `id`: 8 hex digits of a hash of their JSON with object keys sorted, so the same settings in
 * another key order get the same name. A hash, not the JSON, which may hold a secret (a
 * gateway's API key) and would show in error messages. `undefined` for none (`undefined`,
 * `null`, `{}`). Settings that cannot be written as JSON (a cycle, a getter that throws) throw
 * `INVALID_OPTIONS`.
 */
export function settingsHash(settings: unknown): string | undefined {
  if (settings === undefined || settings === null) return undefined;
  let json: string | undefined;
  try {
    json = JSON.stringify(settings, (_key, value: unknown) => {
      if (typeof value === 'bigint') return String(value);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
      return Object.fromEntries(
        Object.entries(value).sort(([first], [second]) => (first < second ? -1 : first > second ? 1 : 0)),
      );
    });
  } catch (error) {
    // A cycle (the sorted copies hide it from JSON.stringify's own check, so it recursed until
    // the stack ran out), a throwing getter or toJSON: no name can be made for such settings.
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'Settings that change the vectors (providerOptions) must be JSON data: these could not be written as JSON (a cycle, or a getter or toJSON that throws). Give the embedder an id of your own.',
      { cause: error },
    );
  }
  if (json === undefined || json === '{}') return undefined;
  return (hashWord(json) >>> 0).toString(16).padStart(8, '0');
}

/**
 * The part of an embedder's default `id` that names some settings: `:<name>=<settingsHash>`, or
 * `''` when there are none (so an id without them stays as it was).
 */
export function settingsIdPart(name: string, settings: unknown): string {
  const hash = settingsHash(settings);
  return hash === undefined ? '' : `:${name}=${hash}`;
}
