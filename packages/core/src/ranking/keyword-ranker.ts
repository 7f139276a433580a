import type { Ranker, SearchOptions, SearchResult, ToolDescriptor } from '../types';

// PLACEHOLDER (being replaced by the real keyword ranker): scores a tool by the
// share of query words found in its name and description.
export function createKeywordRanker(tools: readonly ToolDescriptor[]): Ranker {
  const documents = tools.map((tool) => ({
    tool,
    text: `${tool.name} ${tool.description ?? ''}`.toLowerCase(),
  }));
  return {
    search(query: string, options: SearchOptions = {}): SearchResult[] {
      const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      if (words.length === 0) return [];
      const results: SearchResult[] = [];
      for (const { tool, text } of documents) {
        const hits = words.filter((word) => text.includes(word)).length;
        const score = hits / words.length;
        if (score > 0 && score >= (options.minScore ?? 0)) {
          results.push({ name: tool.name, description: tool.description ?? '', score });
        }
      }
      results.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
      return results.slice(0, options.topK ?? 5);
    },
  };
}
