// Owns the wiring of one request (one generate / stream / invoke call): it builds the request's
// parts from the engine's and joins them into the ToolSearchRequest that adapters drive.
import { abortable } from '../abortable';
import type { Catalog } from '../catalog';
import type { ReceiptSigner } from '../context-state';
import type {
  CatalogEntry,
  MetaToolCallOptions,
  MetaToolDefinition,
  RequestOptions,
  ToolSearchEvent,
  ToolSearchRequest,
} from '../types';
import { createCatalogListing } from './catalog-listing';
import { type EngineSettings, normalizeThreadId } from './engine-settings';
import { createGuard } from './guard';
import type { LoadQueue } from './load-queue';
import { createLoadTool } from './load-tool';
import type { SearchRanker } from './ranker-search';
import { createResultSigner } from './receipts';
import type { ReportRejected } from './rejections';
import { createReplacedHooks } from './replaced-hooks';
import { createRequestFilter } from './request-filter';
import { createRequestLoadState } from './request-load-state';
import { type RequestCatalog, resolveRequestTools } from './request-tools';
import { createSearchTools } from './search-tools';
import { createStepPlanner } from './step-plan';
import type { StoreCalls } from './store-calls';
import { createSuggestions } from './suggestions';
import type { ThreadMemory } from './thread-memory';
import { createToolLoading } from './tool-loading';

/** What a request uses of its engine: built once per engine, shared by its requests. */
export interface RequestEngineParts<TTool, TContext> {
  readonly settings: EngineSettings<TTool, TContext>;
  readonly staticCatalog: Catalog<TTool>;
  readonly requestCatalogs: (entries: readonly CatalogEntry<TTool>[]) => RequestCatalog<TTool>;
  readonly reportRejected: ReportRejected;
  /** Undefined for 'context' storage. */
  readonly store: StoreCalls | undefined;
  readonly memory: Pick<ThreadMemory, 'noteUse' | 'wasUnloaded'>;
  readonly inLoadQueue: LoadQueue;
  readonly searchRanker: SearchRanker;
  readonly signer: ReceiptSigner | undefined;
  readonly metaTools: readonly MetaToolDefinition[];
  readonly offeredMetaNames: readonly string[];
  readonly emit: (event: ToolSearchEvent) => void;
}

/** One request, from its checked options. */
export function createRequest<TTool, TContext>(
  engine: RequestEngineParts<TTool, TContext>,
  requestOptions: RequestOptions<TTool, TContext>,
): ToolSearchRequest<TTool> {
  const { settings, staticCatalog, store, memory, signer, metaTools, offeredMetaNames, emit } = engine;
  const { clock, autoLoad, maxLoadedTools } = settings;
  const threadId = normalizeThreadId(requestOptions.threadId);

  const tools = resolveRequestTools({
    threadId,
    requestOptions,
    staticCatalog,
    requestCatalogs: engine.requestCatalogs,
    reportRejected: engine.reportRejected,
  });
  const filter = createRequestFilter<TTool, TContext>({
    filter: settings.filter,
    filterTimeoutMs: settings.filterTimeoutMs,
    requestContext: requestOptions.requestContext,
    threadId,
    clock,
    emit,
  });
  const loadState = createRequestLoadState({
    threadId,
    store,
    memory,
    autoLoad,
    maxLoadedTools,
    signer,
    canonicalName: (name) => tools.lookupForLoad(name)?.descriptor.name,
    skip: tools.alwaysOnNames,
  });
  const planner = createStepPlanner({
    threadId,
    tools,
    filter,
    loadState,
    metaTools,
    offeredMetaNames,
    clock,
    emit,
  });
  const hooks = createReplacedHooks({ threadId, clock, emit });
  const sign = createResultSigner(signer, threadId);
  const loadCanonical = createToolLoading({
    threadId,
    inLoadQueue: engine.inLoadQueue,
    loadState,
    alwaysOnNames: tools.alwaysOnNames,
    clock,
    emit,
  });
  const searchTools = createSearchTools({
    threadId,
    topK: settings.topK,
    minScore: settings.minScore,
    autoLoad,
    maxLoadedTools,
    tools,
    filter,
    searchRanker: engine.searchRanker,
    loadCanonical,
    hooks,
    currentPlan: planner.current,
    sign,
    clock,
    emit,
  });
  const loadTool = createLoadTool({
    threadId,
    maxLoadedTools,
    tools,
    filter,
    loadCanonical,
    suggestionsFor: createSuggestions({
      threadId,
      tools,
      filter,
      searchRanker: engine.searchRanker,
      clock,
      emit,
    }),
    hooks,
    sign,
    clock,
    emit,
  });
  const guard = createGuard({
    threadId,
    autoLoad,
    offeredMetaNames,
    tools,
    filter,
    planner,
    loadState,
    hooks,
    clock,
    emit,
  });

  return {
    threadId,
    prepareStep: planner.prepareStep,
    searchTools: (input: unknown, options?: MetaToolCallOptions) =>
      abortable(options?.signal, (signal) => searchTools(input, signal)),
    loadTool: (input: unknown, options?: MetaToolCallOptions) =>
      abortable(options?.signal, (signal) => loadTool(input, signal)),
    guard,
    hookReplaced: hooks.hookReplaced,
    resolve: (toolName: string) =>
      typeof toolName === 'string' ? planner.current()?.byName.get(toolName) : undefined,
    catalogInstructions: createCatalogListing({ autoLoad, tools, filter }),
  };
}
