import { createKeywordRanker, createToolSearchEngine, type RankerFactory } from '@tool-search/core';
import type { EvalSet } from '../quality/eval-data';
import { countTextTokens, countToolTokens } from '../tokens/tool-tokens';

export const CHOOSE_TOP_K = [1, 3, 5, 10] as const;
export const CHOOSE_MIN_SCORE = [0, 0.05, 0.1, 0.2, 0.3] as const;

/** What one setting of `search.topK` and `search.minScore` gives on a catalog. */
export interface ChooseRow {
  readonly topK: number;
  readonly minScore: number;
  /** Mean results per search. */
  readonly returned: number;
  /** Share of the relevant tools among the results (R@topK). */
  readonly recall: number;
  /** Share of searches that returned every relevant tool. */
  readonly complete: number;
  /** Share of searches that returned nothing. */
  readonly empty: number;
  /** Mean tokens of the search_tools result the model reads. */
  readonly resultTokens: number;
  /** Mean tokens of the definitions of the returned tools (what loading them all adds to every later step). */
  readonly definitionTokens: number;
}

/**
 * Our engine at each topK × minScore on one catalog, through `searchTools` exactly as the model
 * calls it. One ranker is built and shared by the 20 engines (the engine accepts a ranker
 * factory), so the grid costs one index build.
 */
export async function runChooseSuite(
  set: EvalSet,
  options: { topK?: readonly number[]; minScore?: readonly number[]; ranker?: RankerFactory } = {},
): Promise<ChooseRow[]> {
  const ranker = (options.ranker ?? createKeywordRanker)(set.tools);
  const shared: RankerFactory = () => ranker;
  const definitionTokens = new Map(set.tools.map((tool) => [tool.name, countToolTokens(tool)]));
  const rows: ChooseRow[] = [];
  for (const minScore of options.minScore ?? CHOOSE_MIN_SCORE) {
    for (const topK of options.topK ?? CHOOSE_TOP_K) {
      const engine = createToolSearchEngine({
        catalog: set.tools.map((descriptor) => ({ descriptor, tool: null })),
        search: { topK, minScore },
        ranker: shared,
      });
      const request = engine.startRequest({ threadId: 'choose' });
      let returned = 0;
      let recall = 0;
      let complete = 0;
      let empty = 0;
      let resultTokens = 0;
      let loadTokens = 0;
      for (const query of set.queries) {
        const output = await request.searchTools({ query: query.query });
        const names = new Set(output.results.map((result) => result.name));
        const relevant = new Set(query.relevant);
        const hits = [...relevant].filter((name) => names.has(name)).length;
        returned += names.size;
        recall += relevant.size === 0 ? 0 : hits / relevant.size;
        complete += relevant.size > 0 && hits === relevant.size ? 1 : 0;
        empty += names.size === 0 ? 1 : 0;
        resultTokens += countTextTokens(JSON.stringify(output));
        for (const name of names) loadTokens += definitionTokens.get(name) ?? 0;
      }
      await engine.dispose();
      const count = Math.max(1, set.queries.length);
      rows.push({
        topK,
        minScore,
        returned: returned / count,
        recall: recall / count,
        complete: complete / count,
        empty: empty / count,
        resultTokens: resultTokens / count,
        definitionTokens: loadTokens / count,
      });
    }
  }
  return rows;
}
