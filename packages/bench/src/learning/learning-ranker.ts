/**
 * The one place the learning suite meets the core's learning: a ranker over a catalog, plain or
 * fed with recorded uses. Everything else in the suite (the split, the uses, the scoring, the
 * timing, the report) goes through `LearningRankerBuilder` only.
 */
import {
  createHybridRanker,
  createKeywordRanker,
  createToolSearchEngine,
  type Embedder,
  type ToolDescriptor,
  type ToolSearchEngineOptions,
} from '@tool-search/core';
import { createWordVectorEmbedder } from '@tool-search/word-vectors';
import type { RecordedUse } from './protocol';

export type LearningRankerKind = 'keyword' | 'hybrid';

/** A built ranker as the suite drives it. */
export interface BenchRanker {
  /** The names of the top `topK`, best first, from the ranker itself. */
  search(query: string, topK: number): Promise<readonly string[]>;
  /** One `search_tools` call through an engine over the same ranker (and learning), as adapters make it. */
  searchTools(query: string): Promise<unknown>;
}

/** `searchTools` of a `BenchRanker`: an engine over the catalog, its searches from one request. */
export function engineSearch(
  tools: readonly ToolDescriptor[],
  options: Pick<ToolSearchEngineOptions<null>, 'ranker'>,
): BenchRanker['searchTools'] {
  const engine = createToolSearchEngine({
    catalog: tools.map((descriptor) => ({ descriptor, tool: null })),
    ...options,
  });
  const request = engine.startRequest({ threadId: 'bench' });
  return (query) => request.searchTools({ query });
}

/**
 * Builds a ranker of `kind` over `tools`: `uses: null` is the plain ranker (no learning at all),
 * a list (empty included) is the learning ranker with those uses recorded before the first search.
 */
export type LearningRankerBuilder = (options: {
  readonly tools: readonly ToolDescriptor[];
  readonly kind: LearningRankerKind;
  readonly uses: readonly RecordedUse[] | null;
}) => Promise<BenchRanker>;

const keywordFactory = (tools: readonly ToolDescriptor[]) => createKeywordRanker(tools);

let sharedEmbedder: Embedder | undefined;
/** One offline embedder for every build (it holds the word vectors, 6 MB, once). */
const embedder = (): Embedder => {
  sharedEmbedder ??= createWordVectorEmbedder();
  return sharedEmbedder;
};

const asNames = async (
  results: Promise<readonly { name: string }[]> | readonly { name: string }[],
): Promise<readonly string[]> => (await results).map((result) => result.name);

/** The rankers of `@tool-search/core`, plain or learning. */
export const buildLearningRanker: LearningRankerBuilder = async ({ tools, kind, uses }) => {
  if (uses !== null) {
    throw new Error('the core has no learning ranker yet');
  }
  const factory = kind === 'hybrid' ? createHybridRanker({ embedder: embedder() }) : keywordFactory;
  const ranker = factory(tools);
  return {
    search: (query, topK) => asNames(ranker.search(query, { topK, minScore: 0 })),
    searchTools: engineSearch(tools, { ranker: factory }),
  };
};
