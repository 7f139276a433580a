import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import { type Embedder, ToolSearchError } from '@tool-search/core';

export interface LangChainEmbedderOptions {
  /**
   * Any LangChain embeddings: `new OpenAIEmbeddings({ model: 'text-embedding-3-small' })`,
   * `CohereEmbeddings`, `OllamaEmbeddings`, a `CacheBackedEmbeddings`...
   */
  readonly embeddings: EmbeddingsInterface;
  /**
   * Names the model and its settings. Default, from the object's public fields:
   * `langchain:<class>:<model>`, plus `:<dimensions>` when it has a numeric `dimensions`, plus
   * the wrapped embeddings' description for a wrapper such as `CacheBackedEmbeddings`
   * (`langchain:CacheBackedEmbeddings:OpenAIEmbeddings:text-embedding-3-small`). Set it yourself
   * when another setting changes the vectors (an input type, a task type, a query instruction).
   */
  readonly id?: string;
  /** The length of every vector, when known: the ranker then checks each one. */
  readonly dimensions?: number;
  /**
   * Embed a request's texts (the request and each of its parts) in one `embedDocuments` call
   * instead of one `embedQuery` call each (default false). Only for a symmetric model, one
   * that embeds a question as it embeds a document (OpenAI's): fewer calls per search.
   */
  readonly queriesAsDocuments?: boolean;
}

/** Wrappers described through at most this many levels (a wrapper of a wrapper...). */
const MAX_WRAPPERS = 4;

/**
 * The default id's description of `embeddings`, from its public fields: the class, the model
 * (`model` or `modelName`), a numeric `dimensions` (OpenAI's shorter vectors), and for a
 * wrapper such as `CacheBackedEmbeddings` the embeddings it wraps (`underlyingEmbeddings`).
 */
function describeModel(embeddings: EmbeddingsInterface, depth = 0): string {
  const named = embeddings as {
    model?: unknown;
    modelName?: unknown;
    dimensions?: unknown;
    underlyingEmbeddings?: unknown;
    constructor?: { name?: unknown };
  };
  const className = typeof named.constructor?.name === 'string' ? named.constructor.name : 'Embeddings';
  const parts = [className];
  const model = typeof named.model === 'string' ? named.model : named.modelName;
  if (typeof model === 'string' && model.length > 0) parts.push(model);
  if (typeof named.dimensions === 'number' && Number.isFinite(named.dimensions)) {
    parts.push(String(named.dimensions));
  }
  const wrapped = named.underlyingEmbeddings;
  if (depth < MAX_WRAPPERS && typeof wrapped === 'object' && wrapped !== null && wrapped !== embeddings) {
    parts.push(describeModel(wrapped as EmbeddingsInterface, depth + 1));
  }
  return parts.join(':');
}

/**
 * An {@link Embedder} over LangChain embeddings, for the hybrid ranker
 * (`createHybridRanker({ embedder })` from `@tool-search/core`, passed to the middleware or
 * the binder as `ranker`). The tools' texts go through `embedDocuments`, in one call per
 * catalog (LangChain batches and retries it), and a request's texts through `embedQuery`, so
 * a model that embeds a question unlike a document (Cohere's input types, an E5 or BGE query
 * instruction) is used as meant (`queriesAsDocuments: true` sends them in one `embedDocuments`
 * call instead, for a symmetric model). The ranker keeps the vectors by text; wrap the embeddings in
 * LangChain's `CacheBackedEmbeddings` to keep them across processes too.
 */
export function createLangChainEmbedder(options: LangChainEmbedderOptions): Embedder {
  const embeddings = (options as Partial<LangChainEmbedderOptions> | null | undefined)?.embeddings;
  if (
    typeof embeddings !== 'object' ||
    embeddings === null ||
    typeof embeddings.embedDocuments !== 'function' ||
    typeof embeddings.embedQuery !== 'function'
  ) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'createLangChainEmbedder needs { embeddings } with embedDocuments and embedQuery (LangChain Embeddings)',
    );
  }
  const { dimensions } = options;
  if (dimensions !== undefined && !(Number.isInteger(dimensions) && dimensions > 0)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `dimensions must be a positive integer, got ${String(dimensions)}`,
    );
  }
  const checkTexts = (texts: readonly string[]): string[] => {
    if (!Array.isArray(texts)) throw new ToolSearchError('INVALID_INPUT', 'embed expects an array of texts');
    return texts.map(String);
  };
  return {
    id: options.id ?? `langchain:${describeModel(embeddings)}`,
    ...(dimensions === undefined ? {} : { dimensions }),
    embed: async (texts) => embeddings.embedDocuments(checkTexts(texts)),
    embedQueries: async (texts) =>
      options.queriesAsDocuments === true
        ? embeddings.embedDocuments(checkTexts(texts))
        : Promise.all(checkTexts(texts).map((text) => embeddings.embedQuery(text))),
  };
}
