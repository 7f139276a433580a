// Owns one call of a ranker from the engine: bounded by searchTimeoutMs when the ranker answers
// with a promise (a synchronous answer stays synchronous), and its answer checked.
import { failAfter } from '../clock';
import { rankedResults } from '../ranking/ranker-answers';
import type { Clock, Ranker, SearchOptions, SearchResult } from '../types';
import { isPromiseLike } from './promise-like';

/** One search of a ranker; rejects with SEARCH_TIMEOUT past the bound, or for an answer that is not a list of results. */
export type SearchRanker = (ranker: Ranker, query: string, options: SearchOptions) => Promise<SearchResult[]>;

export function createRankerSearch(searchTimeoutMs: number, clock: Clock): SearchRanker {
  /** What the ranker answers is checked ({@link rankedResults}). */
  return async (ranker, query, options) => {
    const value = ranker.search(query, options);
    const answer: unknown = isPromiseLike(value)
      ? await failAfter(
          value,
          searchTimeoutMs,
          clock,
          'SEARCH_TIMEOUT',
          `The ranker did not answer within ${searchTimeoutMs} ms.`,
        )
      : value;
    return rankedResults(answer);
  };
}
