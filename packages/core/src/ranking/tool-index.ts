import { ToolSearchError } from '../errors';
import type { RankerFactory, SearchOptions, SearchResult, ToolDescriptor, ToolIndex } from '../types';
import { createKeywordRanker } from './keyword-ranker';

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
  const byName = new Map<string, ToolDescriptor>();
  options.tools.forEach((tool, position) => {
    const name: unknown = typeof tool === 'object' && tool !== null ? tool.name : undefined;
    if (typeof name !== 'string' || name.trim().length === 0) {
      throw new ToolSearchError(
        'INVALID_TOOL_NAME',
        `tool at position ${position} has no name (a non-empty string)`,
      );
    }
    if (byName.has(name)) {
      throw new ToolSearchError('DUPLICATE_TOOL_NAME', `two tools are named ${JSON.stringify(name)}`);
    }
    byName.set(name, tool);
  });
  const tools = [...byName.values()];
  const ranker = (options.ranker ?? createKeywordRanker)(tools);
  const names = tools.map((tool) => tool.name);
  return {
    size: tools.length,
    has: (name: string) => byName.has(name),
    get: (name: string) => byName.get(name),
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
