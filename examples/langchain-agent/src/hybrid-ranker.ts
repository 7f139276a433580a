import type { RankerFactory } from '@tool-search/core';

/**
 * The hybrid ranker (keyword scores fused with embedding similarity) over the offline word-vector
 * embedder: `createHybridRanker` from `@tool-search/core` with `createWordVectorEmbedder` from
 * `@tool-search/word-vectors`. Loaded on demand; a clear error when this checkout lacks them.
 */
export async function createOfflineHybridRanker(): Promise<RankerFactory> {
  const core: Record<string, unknown> = await import('@tool-search/core');
  const wordVectors: Record<string, unknown> = await import('@tool-search/word-vectors');
  const { createHybridRanker } = core;
  const { createWordVectorEmbedder } = wordVectors;
  if (typeof createHybridRanker !== 'function' || typeof createWordVectorEmbedder !== 'function') {
    throw new Error(
      'The hybrid ranker is not available in this checkout: it needs createHybridRanker from ' +
        '@tool-search/core and createWordVectorEmbedder from @tool-search/word-vectors.',
    );
  }
  const embedder = await createWordVectorEmbedder();
  return (await createHybridRanker({ embedder })) as RankerFactory;
}
