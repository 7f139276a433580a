import { ToolSearchError } from '../errors';
import type { RankerFactory, SearchOptions, SearchResult, ToolDescriptor, ToolIndex } from '../types';
import { keywordRankerOver } from './keyword-ranker';
import { positionsByName } from './tool-names';

export interface ToolIndexOptions {
  readonly tools: readonly ToolDescriptor[];
  /** Builds the ranker (default: the keyword ranker). Must rank synchronously. */
  readonly ranker?: RankerFactory;
}

/**
 * A catalog of tool descriptors with its ranker, built once. Names must be non-empty strings
 * and unique (`INVALID_TOOL_NAME`, `DUPLICATE_TOOL_NAME`); any string is a valid key,
 * `__proto__` included. `search(query, { topK = 5, minScore = 0 })` returns the best tools
 * first with scores in 0..1.
 */
export function createToolIndex(options: ToolIndexOptions): ToolIndex {
  if (typeof options !== 'object' || options === null || !Array.isArray(options.tools)) {
    throw new ToolSearchError('INVALID_OPTIONS', 'createToolIndex needs { tools: ToolDescriptor[] }');
  }
  const tools = [...options.tools]; // the caller's array may change later; the index must not
  const positions = positionsByName(tools, 'createToolIndex');
  const ranker = (options.ranker ?? keywordRankerOver)(tools); // the names are checked above
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
      return results;
    },
  };
}
