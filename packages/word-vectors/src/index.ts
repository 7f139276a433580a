export type { WordVectorEmbedder, WordVectorEmbedderOptions } from './word-vector-embedder';
export { createWordVectorEmbedder } from './word-vector-embedder';
