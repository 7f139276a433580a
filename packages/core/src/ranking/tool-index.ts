import { ToolSearchError } from '../errors';
import { checkOptionNames, type OptionNamesOf } from '../option-names';
import type { RankerFactory, SearchOptions, SearchResult, ToolDescriptor, ToolIndex } from '../types';
import { keywordRankerOver } from './keyword-ranker';
import { checkRanker, checkRankerFactory, rankedResults } from './ranker-answers';
import { validateSearchOptions } from './search-options';
import { positionsByName } from './tool-names';

export interface ToolIndexOptions {
  readonly tools: readonly ToolDescriptor[];
  /** Builds the ranker (default: the keyword ranker). Must rank synchronously. */
  readonly ranker?: RankerFactory;
}

const TOOL_INDEX_OPTION_NAMES = {
  tools: true,
  ranker: true,
} as const satisfies OptionNamesOf<ToolIndexOptions>;

/**
 * A catalog of tool descriptors with its ranker, built once. Names must be non-empty strings
 * and unique (`INVALID_TOOL_NAME`, `DUPLICATE_TOOL_NAME`); any string is a valid key,
 * `__proto__` included. `search(query, { topK = 5, minScore = 0 })` returns the best tools
 * first with scores in 0..1. A ranker of one's own is checked as the engine checks it: its
 * factory must build an object with a `search` method (`INVALID_OPTIONS`), an answer that is
 * not an array fails the search, and its items are read as the engine reads them (an item
 * without a string name, or naming no tool of the index, left out; a name repeated listed once;
 * a score outside 0..1 clamped; at most `topK` of them).
 */
export function createToolIndex(options: ToolIndexOptions): ToolIndex {
  if (typeof options !== 'object' || options === null || !Array.isArray(options.tools)) {
    throw new ToolSearchError('INVALID_OPTIONS', 'createToolIndex needs { tools: ToolDescriptor[] }');
  }
  checkOptionNames(options, TOOL_INDEX_OPTION_NAMES, 'createToolIndex');
  const rankerFactory = checkRankerFactory(options.ranker ?? keywordRankerOver, 'createToolIndex');
  const tools = [...options.tools]; // the caller's array may change later; the index must not
  const positions = positionsByName(tools, 'createToolIndex');
  const ranker = checkRanker(rankerFactory(tools), 'createToolIndex'); // the names are checked above
  const names = tools.map((tool) => tool.name);
  return {
    size: tools.length,
    has: (name: string) => positions.has(name),
    get: (name: string) => {
      const position = positions.get(name);
      return position === undefined ? undefined : tools[position];
    },
    names: () => [...names],
    search(query: string, searchOptions?: SearchOptions): readonly SearchResult[] {
      const results = ranker.search(query, searchOptions);
      if (results instanceof Promise) {
        throw new ToolSearchError(
          'INVALID_OPTIONS',
          'createToolIndex needs a synchronous ranker; this one returned a promise',
        );
      }
      // As in the engine: a name the index does not have is left out, a repeated one listed once.
      const { topK } = validateSearchOptions(searchOptions);
      const seen = new Set<string>();
      const kept: SearchResult[] = [];
      for (const result of rankedResults(results)) {
        if (kept.length >= topK) break;
        if (!positions.has(result.name) || seen.has(result.name)) continue;
        seen.add(result.name);
        kept.push(result);
      }
      return kept;
    },
  };
}
