import type { Ranker, SearchOptions, SearchResult, ToolDescriptor } from '@tool-search/core';

/**
 * Plain BM25 tokens, as /work/shared/eval/README.md describes the floor: camelCase (also
 * `HTTPServer` → `http server`) and snake_case split, lowercase, no stemming, no stopwords.
 */
export function baselineTokens(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((token) => token.length > 0);
}

/**
 * The plain BM25 baseline of the eval README: one field, name + description, k1 1.2, b 0.75,
 * a Map inverted index, ties in catalog order. It reproduces the README's NDCG@10 (.581 / .662 /
 * .848 / .414). Scores are raw BM25 (not 0..1); it is a yardstick, not a product.
 */
export function createBm25Ranker(
  tools: readonly ToolDescriptor[],
  options: { k1?: number; b?: number } = {},
): Ranker {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const postings = new Map<string, { document: number; frequency: number }[]>();
  const lengths = tools.map((tool, document) => {
    const tokens = baselineTokens(`${tool.name} ${tool.description ?? ''}`);
    const counts = new Map<string, number>();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [token, frequency] of counts) {
      const list = postings.get(token) ?? [];
      list.push({ document, frequency });
      postings.set(token, list);
    }
    return tokens.length;
  });
  const average = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, lengths.length);
  const size = tools.length;
  return {
    search(query: string, searchOptions: SearchOptions = {}): SearchResult[] {
      const scores = new Map<number, number>();
      for (const token of new Set(baselineTokens(query))) {
        const list = postings.get(token);
        if (list === undefined) continue;
        const idf = Math.log(1 + (size - list.length + 0.5) / (list.length + 0.5));
        for (const { document, frequency } of list) {
          const norm = frequency + k1 * (1 - b + (b * lengths[document]!) / average);
          scores.set(document, (scores.get(document) ?? 0) + (idf * frequency * (k1 + 1)) / norm);
        }
      }
      return [...scores]
        .sort((left, right) => right[1] - left[1] || left[0] - right[0])
        .slice(0, searchOptions.topK ?? 5)
        .map(([document, score]) => ({
          name: tools[document]!.name,
          description: tools[document]!.description ?? '',
          score,
        }));
    },
  };
}
