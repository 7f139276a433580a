import { createHybridRanker, type RankerFactory } from '@tool-search/core';
import { createWordVectorEmbedder } from '@tool-search/word-vectors';

/**
 * The hybrid ranker (keyword scores fused with embedding similarity) over the offline word-vector
 * embedder, shared by the three example agents: `createHybridRanker` from `@tool-search/core` with
 * `createWordVectorEmbedder` from `@tool-search/word-vectors`. Async so that an example could swap
 * in an embedder that loads a model (`createAiSdkEmbedder` from `@tool-search/ai-sdk`).
 */
export async function createOfflineHybridRanker(): Promise<RankerFactory> {
  return createHybridRanker({ embedder: createWordVectorEmbedder() });
}
