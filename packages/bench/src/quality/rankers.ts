import { createKeywordRanker, type RankerFactory } from '@tool-search/core';
import { createBm25Ranker } from './bm25-baseline';

/** The rankers the quality CLI knows by name. */
export const RANKERS: Record<string, RankerFactory> = {
  keyword: (tools) => createKeywordRanker(tools),
  bm25: (tools) => createBm25Ranker(tools),
};
