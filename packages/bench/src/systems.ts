import { createRequire } from 'node:module';
import {
  type CatalogEntry,
  createHybridRanker,
  createToolSearchEngine,
  type RankerFactory,
  type ToolDescriptor,
} from '@tool-search/core';
import { createWordVectorEmbedder } from '@tool-search/word-vectors';
import { createBm25Ranker } from './quality/bm25-baseline';

/** One tool-search system, driven the way its users drive it. */
export interface SearchSystem {
  readonly id: SystemId;
  /** How the report names it. */
  readonly label: string;
  /** The installed version of the package measured. */
  readonly version: string;
  readonly packageName: string;
  /** One line: what is called. */
  readonly drivenAs: string;
  /**
   * A search costs time in proportion to the catalog (it scans every tool), so the full run
   * ranks a subsample of each set with it (the same subsample for every system's comparison).
   */
  readonly scansCatalog: boolean;
  /** The user's own tool objects for the catalog, made before (and timed apart from) the build. */
  prepare(tools: readonly ToolDescriptor[]): Promise<unknown>;
  /**
   * Builds it over a catalog (`prepared` is what `prepare` returned for `tools`): everything
   * before the first query can run. `topK` is the most results a query may return.
   */
  build(
    prepared: unknown,
    tools: readonly ToolDescriptor[],
    options: { topK: number; minScore?: number },
  ): Promise<BuiltSystem>;
}

export interface BuiltSystem {
  /** Ranked names for each query, best first. */
  searchMany(queries: readonly string[]): Promise<string[][]>;
  /** Ranked names with their scores (NaN where the system reports none). */
  search(query: string): Promise<{ name: string; score: number }[]>;
  dispose?(): Promise<void> | void;
}

export type SystemId = 'ours' | 'ours-hybrid' | 'mastra' | 'ai-sdk' | 'bm25';

/** Prepares and builds in one go (when the build is not timed apart). */
export async function buildSystem(
  system: SearchSystem,
  tools: readonly ToolDescriptor[],
  options: { topK: number; minScore?: number },
): Promise<BuiltSystem> {
  return system.build(await system.prepare(tools), tools, options);
}

const requireHere = createRequire(import.meta.url);
const versionOf = (name: string): string =>
  (requireHere(`${name}/package.json`) as { version: string }).version;

async function sequential<T>(queries: readonly string[], run: (query: string) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (const query of queries) results.push(await run(query));
  return results;
}

const withoutScores = (names: readonly string[]) => names.map((name) => ({ name, score: Number.NaN }));

/**
 * Our engine: `createToolSearchEngine` → `startRequest()` → `searchTools({ query })`, as every
 * adapter calls it. `makeRanker` gives a fresh ranker factory per build (the hybrid one caches
 * tool vectors per factory, and a rebuild from that cache is not what a first build costs).
 */
function engineSystem(
  id: 'ours' | 'ours-hybrid',
  label: string,
  makeRanker?: () => RankerFactory,
): SearchSystem {
  return {
    id,
    label,
    packageName: makeRanker ? '@tool-search/core + word-vectors' : '@tool-search/core',
    version: versionOf('@tool-search/core'),
    drivenAs: `createToolSearchEngine({ catalog${makeRanker ? ', ranker: createHybridRanker({ embedder: createWordVectorEmbedder() })' : ''} }).startRequest().searchTools({ query })`,
    scansCatalog: false,
    prepare: async (tools) => tools.map((descriptor): CatalogEntry<null> => ({ descriptor, tool: null })),
    async build(prepared, _tools, options) {
      const engine = createToolSearchEngine({
        catalog: prepared as CatalogEntry<null>[],
        search: { topK: options.topK, minScore: options.minScore ?? 0 },
        ...(makeRanker ? { ranker: makeRanker() } : {}),
      });
      const request = engine.startRequest({ threadId: 'bench' });
      const search = async (query: string) =>
        (await request.searchTools({ query })).results.map(({ name, score }) => ({ name, score }));
      return {
        search,
        searchMany: (queries) =>
          sequential(queries, async (query) => (await search(query)).map((result) => result.name)),
        dispose: () => engine.dispose(),
      };
    },
  };
}

/** The hybrid ranker as its README shows it: the keyword ranker fused with the offline word vectors. */
const hybridRanker = (): RankerFactory => createHybridRanker({ embedder: createWordVectorEmbedder() });

// The peers load their framework only when used, so a worker measuring one system loads one.
const mastra: SearchSystem = {
  id: 'mastra',
  label: 'Mastra ToolSearchProcessor',
  packageName: '@mastra/core',
  version: versionOf('@mastra/core'),
  drivenAs: 'new ToolSearchProcessor({ tools }).processInputStep(…) → tools.search_tools.execute({ query })',
  scansCatalog: true, // its BM25 search is indexed, but it finds each result's tool by scanning the catalog
  prepare: async (tools) => (await import('./peers/mastra-tool-search')).toMastraTools(tools),
  async build(prepared, tools, options) {
    const { createMastraToolSearchPeer } = await import('./peers/mastra-tool-search');
    const peer = await createMastraToolSearchPeer(tools, {
      topK: options.topK,
      tools: prepared as NonNullable<Parameters<typeof createMastraToolSearchPeer>[1]>['tools'],
    });
    return {
      searchMany: (queries) => sequential(queries, (query) => peer.search(query)),
      search: async (query) => withoutScores(await peer.search(query)),
    };
  },
};

const aiSdk: SearchSystem = {
  id: 'ai-sdk',
  label: 'AI SDK toolSearch()',
  packageName: 'ai',
  version: versionOf('ai'),
  drivenAs:
    'generateText({ tools: { …deferLoading tools, search: toolSearch() } }), a mock model calling search',
  scansCatalog: true, // no index: every search tokenises every tool's name and description
  prepare: async () => null,
  async build(_prepared, tools, options) {
    const { createAiSdkToolSearchPeer } = await import('./peers/ai-sdk-tool-search');
    const peer = createAiSdkToolSearchPeer(tools, { maxResults: options.topK });
    return {
      searchMany: (queries) => peer.searchMany(queries),
      search: async (query) => withoutScores(await peer.search(query)),
    };
  },
};

const bm25: SearchSystem = {
  id: 'bm25',
  label: 'plain BM25 (baseline)',
  packageName: '(in this package)',
  version: '-',
  drivenAs: 'name + description, k1 1.2, b 0.75, no stemming: the floor of ../shared/eval/README.md',
  scansCatalog: false,
  prepare: async () => null,
  async build(_prepared, tools, options) {
    const ranker = createBm25Ranker(tools);
    const search = async (query: string) =>
      (await ranker.search(query, { topK: options.topK })).map(({ name, score }) => ({ name, score }));
    return {
      search,
      searchMany: (queries) =>
        sequential(queries, async (query) => (await search(query)).map((result) => result.name)),
    };
  },
};

/** Every system the bench measures, ours first. */
export async function availableSystems(): Promise<SearchSystem[]> {
  return [
    engineSystem('ours', 'tool-search (keyword)'),
    engineSystem('ours-hybrid', 'tool-search (hybrid)', hybridRanker),
    mastra,
    aiSdk,
    bm25,
  ];
}

export async function systemById(id: SystemId): Promise<SearchSystem> {
  const found = (await availableSystems()).find((system) => system.id === id);
  if (found === undefined) throw new Error(`system ${id} is not available in this installation`);
  return found;
}
