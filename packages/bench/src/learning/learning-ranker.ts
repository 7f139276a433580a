/**
 * The one place the learning suite meets the core's learning: a ranker over a catalog, plain or
 * fed with recorded uses. Everything else in the suite (the split, the uses, the scoring, the
 * timing, the report) goes through `LearningRankerBuilder` only.
 */
import {
  createHybridRanker,
  createKeywordRanker,
  createLearning,
  createToolSearchEngine,
  type Embedder,
  type RankerFactory,
  type ToolDescriptor,
  type ToolSearchEngineOptions,
  withLearning,
} from '@tool-search/core';
import { createFakeClock } from '@tool-search/core/testing';
import { createWordVectorEmbedder } from '@tool-search/word-vectors';
import type { RecordedUse } from './protocol';

export type LearningRankerKind = 'keyword' | 'hybrid';

/** A built ranker as the suite drives it. */
export interface BenchRanker {
  /** The names of the top `topK`, best first, from the ranker itself. */
  search(query: string, topK: number): Promise<readonly string[]>;
  /** One `search_tools` call through an engine over the same ranker (and learning), as adapters make it. */
  searchTools(query: string): Promise<unknown>;
  /** Of the uses given, how many the learning accepted (the rest it refused, e.g. a query without a content word). */
  readonly recorded?: number;
}

/** `searchTools` of a `BenchRanker`: an engine over the catalog, its searches from one request. */
export function engineSearch(
  tools: readonly ToolDescriptor[],
  options: Pick<ToolSearchEngineOptions<null>, 'ranker' | 'learning'>,
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

/**
 * The rankers of `@tool-search/core`: plain, or wrapped by `withLearning` over a learning (in
 * memory, default settings) fed `uses` through `recordUse`, as an app seeding it from its logs
 * would. Every use is recorded at one instant of a fake clock, so none has decayed.
 */
export const buildLearningRanker: LearningRankerBuilder = async ({ tools, kind, uses }) => {
  const factory: RankerFactory =
    kind === 'hybrid' ? createHybridRanker({ embedder: embedder() }) : keywordFactory;
  if (uses === null) {
    const ranker = factory(tools);
    return {
      search: (query, topK) => asNames(ranker.search(query, { topK, minScore: 0 })),
      searchTools: engineSearch(tools, { ranker: factory }),
    };
  }
  const clock = createFakeClock();
  const learning = createLearning({ clock });
  await learning.ready;
  // The ranker first: a learning refuses a use of a tool no ranker over it has.
  const ranker = withLearning(factory, learning)(tools);
  let recorded = 0;
  for (const use of uses) if (learning.recordUse({ ...use, time: clock.now() }).recorded) recorded++;
  await learning.flush();
  // The engine's own learning, fed the same uses, for its search_tools calls.
  const engineLearning = createLearning({ clock });
  const searchTools = engineSearch(tools, { ranker: factory, learning: engineLearning });
  for (const use of uses) engineLearning.recordUse({ ...use, time: clock.now() });
  await engineLearning.flush();
  return {
    search: (query, topK) => asNames(ranker.search(query, { topK, minScore: 0 })),
    searchTools,
    recorded,
  };
};
