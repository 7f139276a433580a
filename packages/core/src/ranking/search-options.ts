import { ToolSearchError } from '../errors';
import { checkOptionNames, type OptionNamesOf } from '../option-names';
import type { SearchOptions } from '../types';

/** Results per search when `topK` is not given. */
export const DEFAULT_TOP_K = 5;

const SEARCH_OPTION_NAMES = { topK: true, minScore: true } as const satisfies OptionNamesOf<SearchOptions>;

/**
 * `topK` (a whole number ≥ 0, default 5) and `minScore` (default 0) of a search, checked; another
 * option name (`topk`) throws INVALID_OPTIONS.
 */
export function validateSearchOptions(options: SearchOptions | undefined): {
  topK: number;
  minScore: number;
} {
  if (typeof options === 'object' && options !== null)
    checkOptionNames(options, SEARCH_OPTION_NAMES, 'search');
  const topK = options?.topK ?? DEFAULT_TOP_K;
  const minScore = options?.minScore ?? 0;
  if (typeof topK !== 'number' || Number.isNaN(topK) || topK < 0) {
    throw new ToolSearchError('INVALID_OPTIONS', `topK must be a number ≥ 0, got ${String(topK)}`);
  }
  if (typeof minScore !== 'number' || Number.isNaN(minScore)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `minScore must be a number in 0..1, got ${String(minScore)}`,
    );
  }
  return { topK: Math.floor(topK), minScore };
}
