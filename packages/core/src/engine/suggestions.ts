// Owns load_tool's "did you mean": the names close to an unknown one, from a comparison with every
// name of a small catalog or with what the ranker finds in a large one, kept to tools the filter
// lets the request both find and load.
import { mayNameTool } from '../catalog';
import { createNameSuggester, mergeSuggestions, type ScoredName } from '../meta-tools';
import type { Clock, ToolSearchEvent } from '../types';
import type { SearchRanker } from './ranker-search';
import type { RequestFilter } from './request-filter';
import type { RequestTools } from './request-tools';

/** Catalogs up to this size get "did you mean" from a comparison with every name. */
export const FULL_SCAN_SUGGESTIONS = 2_000;

/** At most three names close to `name`, best first. */
export type SuggestionsFor = (name: string) => Promise<string[]>;

export interface SuggestionsOptions<TTool> {
  readonly threadId: string;
  readonly tools: Pick<
    RequestTools<TTool>,
    'staticCatalog' | 'requestCatalog' | 'longestName' | 'lookupCanonical'
  >;
  readonly filter: RequestFilter<TTool>;
  readonly searchRanker: SearchRanker;
  readonly clock: Clock;
  readonly emit: (event: ToolSearchEvent) => void;
}

/**
 * "Did you mean": a full comparison with every name of a catalog of at most
 * FULL_SCAN_SUGGESTIONS tools; in a larger one, with the names the ranker finds for
 * the unknown name (so the cost does not grow with the catalog), unless no tool has a
 * name that long. Only names that pass both the 'search' and the 'load' filter are
 * suggested (as in catalogInstructions): a suggestion must not reveal a tool the search hides.
 */
export function createSuggestions<TTool>(options: SuggestionsOptions<TTool>): SuggestionsFor {
  const { threadId, tools, filter, searchRanker, clock, emit } = options;
  const { staticCatalog, requestCatalog, longestName } = tools;
  return async (name) => {
    const lists: ScoredName[][] = [];
    for (const catalog of requestCatalog ? [requestCatalog, staticCatalog] : [staticCatalog]) {
      if (catalog.size === 0) continue;
      if (catalog.size <= FULL_SCAN_SUGGESTIONS) {
        lists.push(catalog.suggester().suggest(name, 10));
        continue;
      }
      // A name longer than every tool's is not searched for (a search costs its length).
      if (!mayNameTool(name, longestName)) continue;
      try {
        const found = await searchRanker(catalog.ranker(), name, { topK: 50 });
        lists.push(createNameSuggester(found.map((result) => result.name)).suggest(name, 10));
      } catch (error) {
        // No suggestions from a ranker that fails; the message still says to search.
        emit({ type: 'search-error', threadId, time: clock.now(), query: name, error });
      }
    }
    const close = mergeSuggestions(lists, 10);
    const checks = await Promise.all(
      close.map(async (candidate) => {
        const entry = tools.lookupCanonical(candidate);
        return (
          entry !== undefined &&
          (await filter.entryAllowed(entry, 'search')) &&
          filter.entryAllowed(entry, 'load')
        );
      }),
    );
    return close.filter((_, index) => checks[index]).slice(0, 3);
  };
}
