// The engine's wiring: createToolSearchEngine checks the options, builds the engine-wide parts
// (catalog, receipts, thread memory, store calls, load queue, ranker calls) once, and exposes the
// public surface; each startRequest builds one request from them (engine/request.ts).
// docs/architecture.md shows the parts and which calls which.
import { buildCatalog, type Catalog } from './catalog';
import {
  catalogFingerprint,
  createReceiptSigner,
  deriveLoadState,
  type ReceiptSigner,
} from './context-state';
import {
  checkRequestOptions,
  DEFAULT_THREAD_ID,
  normalizeThreadId,
  readEngineSettings,
} from './engine/engine-settings';
import { createLoadQueue } from './engine/load-queue';
import { createRankerSearch } from './engine/ranker-search';
import { createRejectionReporter } from './engine/rejections';
import { createRequest, type RequestEngineParts } from './engine/request';
import { createRequestCatalogs } from './engine/request-tools';
import { createStoreCalls } from './engine/store-calls';
import { createThreadMemory } from './engine/thread-memory';
import { createThreadSearches } from './engine/thread-searches';
import { ToolSearchError } from './errors';
import { safeListener } from './listener';
import { DEFAULT_MAX_THREADS } from './memory-store';
import { createMetaToolDefinitions, toolSearchInstructions } from './meta-tools';
import type { CatalogEntry, ToolSearchEngine, ToolSearchEngineOptions, ToolSearchEvent } from './types';

export {
  DEFAULT_FILTER_TIMEOUT_MS,
  DEFAULT_SEARCH_TIMEOUT_MS,
  DEFAULT_STORE_TIMEOUT_MS,
  DEFAULT_THREAD_ID,
  normalizeThreadId,
} from './engine/engine-settings';
export { MAX_REMEMBERED_REJECTIONS } from './engine/rejections';
export { MAX_RESULT_DESCRIPTION_LENGTH } from './engine/search-tools';
export { FULL_SCAN_SUGGESTIONS } from './engine/suggestions';
export { MAX_REMEMBERED_UNLOADS } from './engine/thread-memory';

/**
 * Creates the engine: one per agent (or processor, or middleware). It holds the
 * static catalog and its index, the load state and the policy; each
 * generate/stream/invoke call opens a {@link ToolSearchRequest} with `startRequest`.
 */
export function createToolSearchEngine<TTool = unknown, TContext = unknown>(
  options: ToolSearchEngineOptions<TTool, TContext>,
): ToolSearchEngine<TTool, TContext> {
  const settings = readEngineSettings(options);
  const { clock, autoLoad, maxLoadedTools } = settings;
  // A listener that throws must not break a step.
  const emit: (event: ToolSearchEvent) => void = safeListener(
    options.onEvent,
    'createToolSearchEngine: onEvent',
  );

  const staticCatalog = buildCatalog(options.catalog, {
    mode: 'strict',
    rankerFactory: settings.rankerFactory,
  });
  staticCatalog.ranker(); // Build the index now: its cost belongs to start-up, not to the first search.
  // Receipts bind the static catalog's names, computed once: another engine's receipts do not verify here.
  const signer: ReceiptSigner | undefined = settings.signingSecret
    ? createReceiptSigner(settings.signingSecret, {
        catalogFingerprint: catalogFingerprint(staticCatalog.names()),
      })
    : undefined;

  // With learning: each thread's latest searches, so that a call in a later request counts.
  const threadSearches = createThreadSearches();
  const memory = createThreadMemory({
    maxLoadedTools,
    hasStore: options.storage !== 'context',
    maxThreads:
      typeof options.maxThreads === 'number' &&
      Number.isInteger(options.maxThreads) &&
      options.maxThreads >= 1
        ? options.maxThreads
        : DEFAULT_MAX_THREADS,
  });
  const store = createStoreCalls({
    storage: options.storage,
    ttl: options.ttl,
    maxThreads: options.maxThreads,
    maxLoadedTools,
    storeTimeoutMs: settings.storeTimeoutMs,
    clock,
    memory,
    emit,
  });

  const metaTools = createMetaToolDefinitions({ autoLoad });
  const instructions = toolSearchInstructions({ autoLoad });
  const parts: RequestEngineParts<TTool, TContext> = {
    settings,
    staticCatalog,
    requestCatalogs: createRequestCatalogs(staticCatalog, settings.rankerFactory),
    reportRejected: createRejectionReporter(emit, clock),
    store,
    memory,
    threadSearches,
    inLoadQueue: createLoadQueue(settings.storeTimeoutMs, clock),
    searchRanker: createRankerSearch(settings.searchTimeoutMs, clock),
    signer,
    metaTools,
    offeredMetaNames: metaTools.map((tool) => tool.name),
    instructions,
    emit,
  };
  let disposed = false;
  // The learning's events (its uses, its store's failures) are the engine's too.
  const unsubscribe = settings.learning?.subscribe((event) => {
    if (event.type === 'store-error') {
      emit({
        type: 'store-error',
        threadId: DEFAULT_THREAD_ID,
        time: event.time,
        operation: event.operation,
        error: event.error,
      });
      return;
    }
    const { threadId, ...rest } = event;
    emit({ ...rest, threadId: threadId ?? DEFAULT_THREAD_ID });
  });

  return {
    metaTools,
    instructions,
    catalogSize: staticCatalog.size,

    startRequest(requestOptions) {
      if (disposed) throw new ToolSearchError('DISPOSED', 'This tool-search engine has been disposed.');
      return createRequest(parts, checkRequestOptions(requestOptions));
    },

    async getLoadedToolNames(threadId, records) {
      const thread = normalizeThreadId(threadId);
      if (store) return store.read(thread);
      return [
        ...deriveLoadState({
          records,
          threadId: thread,
          autoLoad,
          signer,
          canonicalName: (name) => lookupStatic(staticCatalog, name)?.descriptor.name,
          maxLoadedTools,
        }).loaded.names(),
      ];
    },

    clearState(threadId) {
      const thread = normalizeThreadId(threadId);
      threadSearches.forget(thread);
      if (!store) return;
      memory.forgetThread(thread);
      return store.delete(thread);
    },

    clearAllState() {
      store?.checkClearable();
      threadSearches.forget();
      memory.forgetAll();
      return store?.clear(); // 'context' storage: the state is the conversations'.
    },

    getStateStats() {
      return store ? store.stats() : { threadCount: 0, oldestAccessTime: null };
    },

    cleanupNow() {
      return store ? store.sweep() : 0;
    },

    dispose() {
      if (disposed) return;
      disposed = true;
      unsubscribe?.();
      threadSearches.forget();
      memory.forgetAll();
      return store?.dispose();
    },
  };
}

/** A static catalog's tool by canonical name, alias or (one tool only) another case. */
function lookupStatic<TTool>(catalog: Catalog<TTool>, name: string): CatalogEntry<TTool> | undefined {
  return catalog.byName(name) ?? catalog.byAlias(name) ?? catalog.byFoldedName(name);
}
