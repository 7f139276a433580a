// Owns the wiring of one request (one generate / stream / invoke call): it builds the request's
// parts from the engine's and joins them into the ToolSearchRequest that adapters drive.
import { abortable } from '../abortable';
import type { Catalog } from '../catalog';
import type { ReceiptSigner } from '../context-state';
import { createMetaToolDefinitions, toolSearchInstructions } from '../meta-tools';
import { decideNativeMode } from '../native-deferral';
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
import { createGuard, type Guard } from './guard';
import type { LoadQueue } from './load-queue';
import { createLoadTool, type LoadTool } from './load-tool';
import type { SearchRanker } from './ranker-search';
import { createResultSigner, type SignResult } from './receipts';
import type { ReportRejected } from './rejections';
import { createReplacedHooks, type ReplacedHooks } from './replaced-hooks';
import { createRequestFilter } from './request-filter';
import { createRequestLoadState } from './request-load-state';
import { type RequestCatalog, resolveRequestTools } from './request-tools';
import { createSearchTools, type SearchTools } from './search-tools';
import { createStepPlanner } from './step-plan';
import type { StoreCalls } from './store-calls';
import { createSuggestions } from './suggestions';
import type { ThreadMemory } from './thread-memory';
import type { ThreadSearches } from './thread-searches';
import { createToolLoading, type LoadCanonical } from './tool-loading';
import { createToolResolution } from './tool-resolution';
import { createUseEvidence } from './use-evidence';

/** What a request uses of its engine: built once per engine, shared by its requests. */
export interface RequestEngineParts<TTool, TContext> {
  readonly settings: EngineSettings<TTool, TContext>;
  readonly staticCatalog: Catalog<TTool>;
  readonly requestCatalogs: (entries: readonly CatalogEntry<TTool>[]) => RequestCatalog<TTool>;
  readonly reportRejected: ReportRejected;
  /** Undefined for 'context' storage. */
  readonly store: StoreCalls | undefined;
  readonly memory: Pick<ThreadMemory, 'noteUse' | 'wasUnloaded'>;
  /** With learning: each thread's latest searches, which a later request's call may confirm. */
  readonly threadSearches: ThreadSearches;
  readonly inLoadQueue: LoadQueue;
  readonly searchRanker: SearchRanker;
  readonly signer: ReceiptSigner | undefined;
  readonly metaTools: readonly MetaToolDefinition[];
  readonly offeredMetaNames: readonly string[];
  /** The engine's system-prompt paragraph for its meta-tools. */
  readonly instructions: string;
  readonly emit: (event: ToolSearchEvent) => void;
}

/** One request, from its checked options. */
export function createRequest<TTool, TContext>(
  engine: RequestEngineParts<TTool, TContext>,
  requestOptions: RequestOptions<TTool, TContext>,
): ToolSearchRequest<TTool> {
  const { settings, staticCatalog, store, memory, signer } = engine;
  const { clock, maxLoadedTools } = settings;
  const threadId = normalizeThreadId(requestOptions.threadId);
  // With learning, the request watches its own searches: what they found, a call may confirm.
  const evidence =
    settings.learning &&
    createUseEvidence({ threadId, learning: settings.learning, threadSearches: engine.threadSearches });
  const emit = evidence
    ? (event: ToolSearchEvent) => {
        evidence.observe(event);
        engine.emit(event);
      }
    : engine.emit;

  // Native mode is autoLoad for this request: search_tools loads (and refers) what it finds, and
  // load_tool is not offered (docs/native-deferral.md).
  const mode = requestOptions.native ? decideNativeMode(requestOptions.native) : undefined;
  const native = mode?.provider;
  const autoLoad = settings.autoLoad || native !== undefined;
  const metaTools =
    native === undefined || settings.autoLoad
      ? engine.metaTools
      : createMetaToolDefinitions({ autoLoad: true });
  const offeredMetaNames =
    metaTools === engine.metaTools ? engine.offeredMetaNames : metaTools.map((tool) => tool.name);
  if (mode) {
    emit({
      type: 'mode',
      threadId,
      time: clock.now(),
      mode: mode.mode,
      provider: mode.provider,
      modelProvider: requestOptions.native?.modelProvider,
      reason: mode.reason,
    });
  }

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
  const resolution = createToolResolution<TTool, TContext>({
    threadId,
    requestContext: requestOptions.requestContext,
    resolveTimeoutMs: settings.resolveTimeoutMs,
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
    resolution,
    loadState,
    metaTools,
    offeredMetaNames,
    clock,
    emit,
  });

  // Built on first use: a request is opened for every generate call (every model call with
  // LangChain), and many never search, load or call a tool, so only what a step needs is built now.
  let hooks: ReplacedHooks | undefined;
  const hooksOf = () => (hooks ??= createReplacedHooks({ threadId, clock, emit }));
  let loadCanonical: LoadCanonical | undefined;
  const loadingOf = () =>
    (loadCanonical ??= createToolLoading({
      threadId,
      inLoadQueue: engine.inLoadQueue,
      loadState,
      alwaysOnNames: tools.alwaysOnNames,
      clock,
      emit,
    }));
  let sign: SignResult | undefined;
  const signOf = () => (sign ??= createResultSigner(signer, threadId));
  let searchTools: SearchTools | undefined;
  const searchToolsOf = () =>
    (searchTools ??= createSearchTools({
      threadId,
      topK: settings.topK,
      minScore: settings.minScore,
      autoLoad,
      refers: native !== undefined,
      maxLoadedTools,
      tools,
      filter,
      searchRanker: engine.searchRanker,
      loadCanonical: loadingOf(),
      hooks: hooksOf(),
      currentPlan: planner.current,
      sign: signOf(),
      clock,
      emit,
    }));
  let loadTool: LoadTool | undefined;
  const loadToolOf = () =>
    (loadTool ??= createLoadTool({
      threadId,
      maxLoadedTools,
      tools,
      filter,
      resolution,
      loadCanonical: loadingOf(),
      suggestionsFor: createSuggestions({
        threadId,
        tools,
        filter,
        searchRanker: engine.searchRanker,
        clock,
        emit,
      }),
      hooks: hooksOf(),
      sign: signOf(),
      clock,
      emit,
    }));
  let guard: Guard | undefined;
  const guardOf = () =>
    (guard ??= createGuard({
      threadId,
      autoLoad,
      offeredMetaNames,
      tools,
      filter,
      planner,
      loadState,
      hooks: hooksOf(),
      clock,
      emit,
    }));
  let catalogInstructions: (() => Promise<string | undefined>) | undefined;
  const listingOf = () => (catalogInstructions ??= createCatalogListing({ autoLoad, tools, filter }));

  // The thread's loads when the request began, listed on every plan of a native request.
  let restore: readonly string[] | undefined;
  const prepareStep: ToolSearchRequest<TTool>['prepareStep'] =
    native === undefined
      ? planner.prepareStep
      : async (input) => {
          const plan = await planner.prepareStep(input);
          restore ??= plan.loaded.map((entry) => entry.descriptor.name);
          return { ...plan, native: { provider: native, restore } };
        };

  return {
    threadId,
    native,
    metaTools,
    instructions:
      metaTools === engine.metaTools ? engine.instructions : toolSearchInstructions({ autoLoad: true }),
    prepareStep,
    searchTools: (input: unknown, options?: MetaToolCallOptions) =>
      abortable(options?.signal, (signal) => searchToolsOf()(input, signal)),
    loadTool: (input: unknown, options?: MetaToolCallOptions) =>
      abortable(options?.signal, (signal) => loadToolOf()(input, signal)),
    guard: (toolName, guardOptions) => guardOf()(toolName, guardOptions),
    hookReplaced: (hook) => hooksOf().hookReplaced(hook),
    toolCallSucceeded: (toolName: string) => {
      if (!evidence || typeof toolName !== 'string') return false;
      const entry = planner.current()?.byName.get(toolName) ?? tools.lookupExact(toolName);
      return entry !== undefined && evidence.succeeded(entry.descriptor.name);
    },
    resolve: (toolName: string) =>
      typeof toolName === 'string' ? planner.current()?.byName.get(toolName) : undefined,
    catalogInstructions: () => listingOf()(),
  };
}
