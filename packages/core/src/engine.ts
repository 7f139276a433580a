import { abortable } from './abortable';
import {
  buildCatalog,
  type Catalog,
  createRequestCatalogCache,
  isValidToolName,
  mayNameTool,
} from './catalog';
import { failAfter } from './clock';
import {
  activatedNames,
  catalogFingerprint,
  createReceiptSigner,
  type DerivedLoadState,
  deriveLoadState,
  type ReceiptSigner,
} from './context-state';
import { checkRequestOptions, normalizeThreadId, readEngineSettings } from './engine/engine-settings';
import { createLoadQueue } from './engine/load-queue';
import { isPromiseLike } from './engine/promise-like';
import { createRejectionReporter, type RejectedTool } from './engine/rejections';
import { createStoreCalls } from './engine/store-calls';
import { createThreadMemory } from './engine/thread-memory';
import { ToolSearchError } from './errors';
import { safeListener } from './listener';
import type { LoadedToolsReplay } from './loaded-tools-cap';
import { DEFAULT_MAX_THREADS } from './memory-store';
import {
  catalogListingInstructions,
  clip,
  createMetaToolDefinitions,
  createNameSuggester,
  cutDescription,
  LOAD_TOOL_NAME,
  META_TOOL_NAMES,
  mergeSuggestions,
  parseLoadToolInput,
  parseSearchToolsInput,
  type ScoredName,
  SEARCH_TOOLS_NAME,
  toolSearchInstructions,
} from './meta-tools';
import { rankedResults } from './ranking/ranker-answers';
import type {
  CatalogEntry,
  ConversationRecord,
  FilterPhase,
  GuardDecision,
  GuardOptions,
  LoadToolOutput,
  MaybePromise,
  MetaToolCallOptions,
  Ranker,
  ReplacedHook,
  RequestOptions,
  SearchOptions,
  SearchResult,
  SearchToolsOutput,
  StepInput,
  StepPlan,
  StoreStats,
  ToolSearchEngine,
  ToolSearchEngineOptions,
  ToolSearchEvent,
  ToolSearchRequest,
} from './types';

export {
  DEFAULT_FILTER_TIMEOUT_MS,
  DEFAULT_SEARCH_TIMEOUT_MS,
  DEFAULT_STORE_TIMEOUT_MS,
  DEFAULT_THREAD_ID,
  normalizeThreadId,
} from './engine/engine-settings';
export { MAX_REMEMBERED_REJECTIONS } from './engine/rejections';
export { MAX_REMEMBERED_UNLOADS } from './engine/thread-memory';

/** Catalogs up to this size get "did you mean" from a comparison with every name. */
export const FULL_SCAN_SUGGESTIONS = 2_000;
/** Descriptions in search results are cut to this many characters (as Mastra's processor cuts them). */
export const MAX_RESULT_DESCRIPTION_LENGTH = 150;

type Lookup<TTool> = CatalogEntry<TTool> | undefined;

/** The error a filter's answer that is not a boolean is reported with (the tool is refused). */
function nonBooleanVerdict(verdict: unknown, toolName: string, phase: FilterPhase): ToolSearchError {
  const kind = verdict === null ? 'null' : Array.isArray(verdict) ? 'an array' : typeof verdict;
  return new ToolSearchError(
    'INVALID_OPTIONS',
    `The filter answered ${kind} for ${JSON.stringify(toolName)} (${phase}), not a boolean: only true allows a tool, so it was refused.`,
  );
}

/**
 * Creates the engine: one per agent (or processor, or middleware). It holds the
 * static catalog and its index, the load state and the policy; each
 * generate/stream/invoke call opens a {@link ToolSearchRequest} with `startRequest`.
 */
export function createToolSearchEngine<TTool = unknown, TContext = unknown>(
  options: ToolSearchEngineOptions<TTool, TContext>,
): ToolSearchEngine<TTool, TContext> {
  const settings = readEngineSettings(options);
  const {
    clock,
    minScore,
    topK,
    autoLoad,
    maxLoadedTools,
    searchTimeoutMs,
    filterTimeoutMs,
    rankerFactory,
    filter,
  } = settings;
  // A listener that throws must not break a step.
  const emit: (event: ToolSearchEvent) => void = safeListener(
    options.onEvent,
    'createToolSearchEngine: onEvent',
  );

  const staticCatalog = buildCatalog(options.catalog, { mode: 'strict', rankerFactory });
  staticCatalog.ranker(); // Build the index now: its cost belongs to start-up, not to the first search.
  // Receipts bind the static catalog's names, computed once: another engine's receipts do not verify here.
  const signer: ReceiptSigner | undefined = settings.signingSecret
    ? createReceiptSigner(settings.signingSecret, {
        catalogFingerprint: catalogFingerprint(staticCatalog.names()),
      })
    : undefined;
  const reportRejected = createRejectionReporter(emit, clock);

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
  const inLoadQueue = createLoadQueue(settings.storeTimeoutMs, clock);

  const metaTools = createMetaToolDefinitions({ autoLoad });
  const offeredMetaNames = metaTools.map((tool) => tool.name);
  const requestCatalogs = createRequestCatalogCache<TTool>((entries) => {
    const rejected: RejectedTool[] = [];
    const catalog = buildCatalog(entries, {
      mode: 'lenient',
      rankerFactory,
      onReject: (toolName, reason, message) => rejected.push({ toolName, reason, message }),
    });
    let shadowed = 0;
    for (const name of catalog.names()) if (staticCatalog.byName(name)) shadowed++;
    return Object.assign(catalog, { rejected, shadowed });
  }) as (entries: readonly CatalogEntry<TTool>[]) => RequestCatalog<TTool>;

  let disposed = false;

  /**
   * One search of a ranker, bounded by `searchTimeoutMs` when it answers with a promise. What it
   * answers is checked ({@link rankedResults}).
   */
  async function searchRanker(
    ranker: Ranker,
    query: string,
    options: SearchOptions,
  ): Promise<SearchResult[]> {
    const value = ranker.search(query, options);
    const answer: unknown = isPromiseLike(value)
      ? await failAfter(
          value,
          searchTimeoutMs,
          clock,
          'SEARCH_TIMEOUT',
          `The ranker did not answer within ${searchTimeoutMs} ms.`,
        )
      : value;
    return rankedResults(answer);
  }

  // -------------------------------------------------------------------------
  // The engine
  // -------------------------------------------------------------------------

  const engine: ToolSearchEngine<TTool, TContext> = {
    metaTools,
    instructions: toolSearchInstructions({ autoLoad }),
    catalogSize: staticCatalog.size,

    startRequest(requestOptions) {
      if (disposed) throw new ToolSearchError('DISPOSED', 'This tool-search engine has been disposed.');
      return createRequest(checkRequestOptions(requestOptions));
    },

    async getLoadedToolNames(threadId, records) {
      const thread = normalizeThreadId(threadId);
      if (!store) {
        return [
          ...deriveLoadState({
            records,
            threadId: thread,
            autoLoad,
            signer,
            canonicalName: (name) => lookupStatic(name, true)?.descriptor.name,
            maxLoadedTools,
          }).loaded.names(),
        ];
      }
      return store.read(thread);
    },

    clearState(threadId) {
      if (!store) return;
      const thread = normalizeThreadId(threadId);
      memory.forgetThread(thread);
      return store.delete(thread);
    },

    clearAllState() {
      store?.checkClearable();
      memory.forgetAll();
      return store?.clear(); // 'context' storage: the state is the conversations'.
    },

    getStateStats(): MaybePromise<StoreStats> {
      return store ? store.stats() : { threadCount: 0, oldestAccessTime: null };
    },

    cleanupNow() {
      return store ? store.sweep() : 0;
    },

    dispose() {
      if (disposed) return;
      disposed = true;
      memory.forgetAll();
      return store?.dispose();
    },
  };

  function lookupStatic(name: string, fold: boolean): Lookup<TTool> {
    return (
      staticCatalog.byName(name) ??
      staticCatalog.byAlias(name) ??
      (fold ? staticCatalog.byFoldedName(name) : undefined)
    );
  }

  // -------------------------------------------------------------------------
  // One request
  // -------------------------------------------------------------------------

  function createRequest(requestOptions: RequestOptions<TTool, TContext>): ToolSearchRequest<TTool> {
    const threadId = normalizeThreadId(requestOptions.threadId);
    const requestContext = requestOptions.requestContext;
    const requestTools = requestOptions.requestTools;
    const requestCatalog =
      Array.isArray(requestTools) && requestTools.length > 0 ? requestCatalogs(requestTools) : undefined;
    const now = () => clock.now();

    for (const rejected of requestCatalog?.rejected ?? []) reportRejected(threadId, rejected);

    // Always-on tools: valid names, not meta-tool names, each once.
    // `catalog`: a catalog tool kept on by its name (not one of the agent's own tools): still a
    // catalog tool, so the filter's 'active' phase still governs it, as it governs a loaded one.
    const alwaysOn: { name: string; entry: CatalogEntry<TTool> | undefined; catalog: boolean }[] = [];
    {
      const seen = new Set<string>();
      for (const item of requestOptions.alwaysOn ?? []) {
        const given = typeof item === 'string' ? undefined : (item as CatalogEntry<TTool> | undefined);
        const written = typeof item === 'string' ? item : given?.descriptor?.name;
        // A catalog tool kept on by one of its aliases is that tool, under its canonical name
        // (the name the filter decides on, and the one every list shows).
        const name =
          typeof item === 'string' && isValidToolName(item) && lookupCanonical(item) === undefined
            ? (lookupExact(item)?.descriptor.name ?? item)
            : written;
        if (!isValidToolName(name)) {
          reportRejected(threadId, {
            toolName: String(name),
            reason: 'invalid-name',
            message: `Always-on tool name ${JSON.stringify(String(name))} is not valid.`,
          });
          continue;
        }
        if (META_TOOL_NAMES.has(name)) {
          reportRejected(threadId, {
            toolName: name,
            reason: 'reserved-name',
            message: `The agent's tool "${name}" was left out: the name belongs to a tool-search meta-tool, which is never replaced.`,
          });
          continue;
        }
        if (seen.has(name)) continue;
        seen.add(name);
        if (given !== undefined && staticCatalog.byName(name) !== undefined) {
          reportRejected(threadId, {
            toolName: name,
            reason: 'duplicate-name',
            message: `The catalog tool "${name}" is also one of the agent's own tools, which are sent on every step: tool search saves nothing for it, and the agent's tool is the one that runs. Leave it out of the catalog or out of the agent's tools (to keep a catalog tool always visible, pass its name in alwaysOn).`,
          });
        }
        const entry = given ?? lookupExact(name);
        alwaysOn.push({ name, entry, catalog: given === undefined && entry !== undefined });
      }
    }
    const alwaysOnNames = new Set(alwaysOn.map((item) => item.name));
    const alwaysOnByName = new Map(alwaysOn.map((item) => [item.name, item]));
    /** No longer name finds a tool: load_tool answers it "not found" at once, without a search for suggestions. */
    const longestName = alwaysOn.reduce(
      (longest, item) => Math.max(longest, item.name.length),
      Math.max(staticCatalog.longestName, requestCatalog?.longestName ?? 0),
    );
    /**
     * A catalog tool named like one of the agent's own tools, and not that tool: the agent's
     * tool is the one sent and run under the name, so search never offers the other (its
     * description would describe a tool the model cannot get).
     */
    const shadowedByOwn = (entry: CatalogEntry<TTool>): boolean => {
      const own = alwaysOnByName.get(entry.descriptor.name);
      return (
        own !== undefined && own.entry !== entry && (own.entry === undefined || own.entry.tool !== entry.tool)
      );
    };
    for (const item of alwaysOn) {
      const other = requestCatalog?.byName(item.name);
      if (other === undefined || !shadowedByOwn(other)) continue;
      reportRejected(threadId, {
        toolName: item.name,
        reason: 'duplicate-name',
        message: `The request tool "${item.name}" has the name of one of the agent's own tools, which is the one sent and run under that name: it was left out of search.`,
      });
    }

    /**
     * A canonical name only (request tools win over static ones): how names the engine itself
     * wrote (a store's, a result's) are resolved, never by alias or case, so a request tool's
     * name can never come back as another tool that has it as an alias or in another case.
     */
    function lookupCanonical(name: string): Lookup<TTool> {
      return requestCatalog?.byName(name) ?? staticCatalog.byName(name);
    }

    /** Canonical name or alias; request tools win over static ones, canonical names over aliases. */
    function lookupExact(name: string): Lookup<TTool> {
      return (
        requestCatalog?.byName(name) ??
        staticCatalog.byName(name) ??
        requestCatalog?.byAlias(name) ??
        staticCatalog.byAlias(name)
      );
    }

    /**
     * As lookupExact, then a case-insensitive match (for names a model typed) when exactly one
     * tool has the name in another case: a request tool `Gamma` and a static `gamma` leave
     * "GAMMA" unknown (with both as suggestions), as two static tools would.
     */
    function lookupForLoad(name: string): Lookup<TTool> {
      const exact = lookupExact(name);
      if (exact !== undefined || requestCatalog === undefined)
        return exact ?? staticCatalog.byFoldedName(name);
      const fromRequest = requestCatalog.byFoldedName(name);
      if (!staticCatalog.hasFoldedName(name)) return fromRequest;
      if (!requestCatalog.hasFoldedName(name)) return staticCatalog.byFoldedName(name);
      // Both have it: one tool only if the static one is the request tool's namesake (shadowed by it).
      const fromStatic = staticCatalog.byFoldedName(name);
      return fromRequest !== undefined && fromStatic?.descriptor.name === fromRequest.descriptor.name
        ? fromRequest
        : undefined;
    }

    const canonicalName = (name: string) => lookupForLoad(name)?.descriptor.name;

    // Filter results, memoised per phase and name for the life of the request.
    const filterMemo = new Map<string, Promise<boolean>>();
    function allowed(name: string, tool: TTool | undefined, phase: FilterPhase): Promise<boolean> | boolean {
      if (!filter) return true;
      const key = `${phase}\u0000${name}`;
      let decision = filterMemo.get(key);
      if (!decision) {
        decision = (async () => {
          try {
            const answer = filter({ toolName: name, tool: tool as TTool, requestContext, phase });
            // Fail closed: a policy that does not answer refuses the tool, as one that throws does.
            const verdict: unknown = isPromiseLike(answer)
              ? await failAfter(
                  answer,
                  filterTimeoutMs,
                  clock,
                  'FILTER_TIMEOUT',
                  `The filter did not decide on ${JSON.stringify(name)} (${phase}) within ${filterTimeoutMs} ms.`,
                )
              : answer;
            // Only `true` allows: 'false', { allowed: false } or 1 are a broken policy, not a yes.
            if (typeof verdict !== 'boolean') throw nonBooleanVerdict(verdict, name, phase);
            return verdict;
          } catch (error) {
            emit({ type: 'filter-error', threadId, time: now(), toolName: name, phase, error });
            return false;
          }
        })();
        filterMemo.set(key, decision);
      }
      return decision;
    }
    const entryAllowed = (entry: CatalogEntry<TTool>, phase: FilterPhase) =>
      allowed(entry.descriptor.name, entry.tool, phase);

    // When this request last loaded each name, and when the current plan read the load state, on
    // one request-wide counter: a name loaded after the plan's read is "just loaded" (visible from
    // the next step); one loaded before it and missing from the plan has gone since (evicted by
    // maxLoadedTools, expired, cleared) and must be loaded again.
    let moment = 0;
    const loadedThisRequest = new Map<string, number>();
    /** Names whose store write timed out in this request (it may land later), at that moment. */
    const uncertainThisRequest = new Map<string, number>();
    let records: readonly ConversationRecord[] | undefined;
    let plan: InternalPlan<TTool> | undefined;

    // 'context' storage: the records' loads and calls, replayed (memoised per records array).
    let derivedMemo: { records: typeof records; length: number; state: DerivedLoadState } | undefined;
    function derivedState(): DerivedLoadState {
      const length = records?.length ?? 0;
      if (derivedMemo === undefined || derivedMemo.records !== records || derivedMemo.length !== length) {
        const state = deriveLoadState({
          records,
          threadId,
          autoLoad,
          signer,
          canonicalName,
          maxLoadedTools,
          skip: alwaysOnNames,
        });
        derivedMemo = { records, length, state };
      }
      return derivedMemo.state;
    }

    // This request's loads and allowed calls ('context' storage): applied after the records
    // until the records show them, so a load is visible from the next step even before the
    // framework stores the messages, and never shared with another request. `seen` is how
    // many such loads (or calls) of the name the records held at the time. Within a step,
    // calls go before loads, as the step's tool calls precede its results in the records.
    let step = 0;
    const pending: { step: number; kind: 'load' | 'call'; names: { name: string; seen: number }[] }[] = [];
    function notePending(kind: 'load' | 'call', names: readonly string[]): void {
      if (names.length === 0) return;
      const counts = kind === 'load' ? derivedState().loadCounts : derivedState().callCounts;
      pending.push({ step, kind, names: names.map((name) => ({ name, seen: counts.get(name) ?? 0 })) });
    }

    function contextState(): LoadedToolsReplay {
      const derived = derivedState();
      const state = derived.loaded.copy();
      const ordered = [...pending].sort(
        (a, b) => a.step - b.step || (a.kind === b.kind ? 0 : a.kind === 'call' ? -1 : 1),
      );
      for (const use of ordered) {
        const counts = use.kind === 'load' ? derived.loadCounts : derived.callCounts;
        const unseen = use.names.filter(({ name, seen }) => (counts.get(name) ?? 0) <= seen);
        if (use.kind === 'load') state.load(unseen.map(({ name }) => name));
        else for (const { name } of unseen) state.use(name);
      }
      return state;
    }

    async function currentLoadedNames(): Promise<string[]> {
      if (store) return store.read(threadId);
      return [...contextState().names()];
    }

    /** A loaded tool was used: remembered per process (store) or until the records show it ('context'). */
    function noteCall(name: string): void {
      if (maxLoadedTools === undefined) return;
      if (store) memory.noteUse(threadId, [name]);
      else notePending('call', [name]);
    }

    /** The plan being made (the latest prepareStep still under way), for a guard that has none. */
    let planning: Promise<StepPlan<TTool>> | undefined;
    function prepareStep(input?: StepInput): Promise<StepPlan<TTool>> {
      const made = makePlan(input);
      planning = made;
      const settled = () => {
        if (planning === made) planning = undefined;
      };
      made.then(settled, settled);
      return made;
    }

    async function makePlan(input?: StepInput): Promise<StepPlan<TTool>> {
      if (input && Array.isArray(input.records)) records = input.records;
      step++;
      const readAt = ++moment;
      let names: string[] = [];
      let degraded = false;
      try {
        names = await currentLoadedNames();
      } catch {
        degraded = true; // storeFailure already reported it.
      }

      // The agent's own tools are the app's to choose per request, not tool search's: never
      // filtered. A catalog tool kept on by name is shown while the 'active' filter allows it.
      const alwaysOnChecks = await Promise.all(
        alwaysOn.map((item) => !item.catalog || allowed(item.name, item.entry?.tool, 'active')),
      );
      const visibleAlwaysOn = alwaysOn.filter((_, index) => alwaysOnChecks[index]);

      const candidates: CatalogEntry<TTool>[] = [];
      const seen = new Set<string>(alwaysOnNames);
      for (const name of names) {
        const entry = lookupCanonical(name);
        if (!entry || seen.has(entry.descriptor.name)) continue;
        seen.add(entry.descriptor.name);
        candidates.push(entry);
      }
      // Whatever loaded it (another request of the thread, under another request context; a
      // policy since revoked), a loaded tool is shown only while this request may load it and
      // use it: withheld, not forgotten, while either is refused.
      const checks = await Promise.all(
        candidates.map(async (entry) => (await entryAllowed(entry, 'load')) && entryAllowed(entry, 'active')),
      );
      const loaded = candidates.filter((_, index) => checks[index]);

      const visible = [
        ...offeredMetaNames,
        ...visibleAlwaysOn.map((item) => item.name),
        ...loaded.map((entry) => entry.descriptor.name),
      ];
      const byName = new Map<string, CatalogEntry<TTool> | undefined>();
      for (const item of visibleAlwaysOn) byName.set(item.name, item.entry);
      for (const entry of loaded) byName.set(entry.descriptor.name, entry);
      // A visible catalog tool (loaded, or kept on by name) also answers to its aliases, except
      // one that names an always-on tool: withheld, that tool must not become callable through
      // the alias (an adapter would run its own tool of that name).
      for (const entry of [...visibleAlwaysOn.map((item) => item.entry), ...loaded]) {
        for (const alias of entry?.aliases ?? [])
          if (!byName.has(alias) && !alwaysOnNames.has(alias) && lookupExact(alias) === entry)
            byName.set(alias, entry);
      }
      plan = {
        visible,
        byName,
        loadedNames: new Set(loaded.map((entry) => entry.descriptor.name)),
        readAt,
      };

      const catalogCount =
        visibleAlwaysOn.length +
        staticCatalog.size +
        (requestCatalog ? requestCatalog.size - requestCatalog.shadowed : 0);
      if (input?.modelStep !== false) {
        emit({ type: 'step', threadId, time: now(), visibleCount: visible.length, catalogCount, visible });
      }
      return { visible, metaTools, loaded, degraded };
    }

    // -- search ---------------------------------------------------------------

    const totalSize =
      staticCatalog.size + (requestCatalog ? requestCatalog.size - requestCatalog.shadowed : 0);

    async function rankedCandidates(query: string, k: number): Promise<SearchResult[]> {
      const lists: (readonly SearchResult[])[] = [];
      if (requestCatalog && requestCatalog.size > 0) {
        lists.push(await searchRanker(requestCatalog.ranker(), query, { topK: k, minScore }));
      }
      if (staticCatalog.size > 0) {
        const shadowed = requestCatalog?.shadowed ?? 0;
        const fromStatic = await searchRanker(staticCatalog.ranker(), query, {
          topK: Math.min(k + shadowed, staticCatalog.size),
          minScore,
        });
        lists.push(
          requestCatalog ? fromStatic.filter((result) => !requestCatalog.byName(result.name)) : fromStatic,
        );
      }
      const merged = lists.flat();
      if (lists.length > 1) {
        merged.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      }
      return merged.slice(0, k);
    }

    // Under autoLoad a search loads every tool it finds: finding more than maxLoadedTools would
    // evict some of them (the best ones, used first) at once, and the model, told they were
    // loaded, would call them, be told to search again, and load and lose them again.
    const searchLimit = autoLoad && maxLoadedTools !== undefined ? Math.min(topK, maxLoadedTools) : topK;

    async function rank(query: string): Promise<{ entry: CatalogEntry<TTool>; result: SearchResult }[]> {
      let k = Math.min(searchLimit, totalSize);
      if (k === 0) return [];
      for (;;) {
        const raw = await rankedCandidates(query, k);
        // A name the catalog does not have is left out; a tool named twice (by its name and an
        // alias, or by a ranker that repeats itself) is listed once, where it first appears.
        const seen = new Set<CatalogEntry<TTool>>();
        const found: { result: SearchResult; entry: CatalogEntry<TTool> }[] = [];
        for (const result of raw) {
          const entry = lookupExact(result.name);
          if (entry === undefined || seen.has(entry) || shadowedByOwn(entry)) continue;
          seen.add(entry);
          found.push({ result, entry });
        }
        const checks = await Promise.all(
          found.map(async ({ entry }) => {
            if (!(await entryAllowed(entry, 'search'))) return false;
            return autoLoad ? entryAllowed(entry, 'load') : true;
          }),
        );
        const kept = found.filter((_, index) => checks[index]).slice(0, searchLimit);
        if (kept.length >= searchLimit || raw.length < k || k >= totalSize) return kept;
        k = Math.min(totalSize, k * 4);
      }
    }

    /** One search; after `signal` aborts (its caller no longer waits), it loads and reports nothing. */
    async function searchTools(input: unknown, signal: AbortSignal | undefined): Promise<SearchToolsOutput> {
      const parsed = parseSearchToolsInput(input);
      if (!parsed.ok) return { results: [], message: parsed.message };
      const started = now();
      let ranked: { entry: CatalogEntry<TTool>; result: SearchResult }[];
      try {
        ranked = await rank(parsed.query);
      } catch (error) {
        signal?.throwIfAborted();
        emit({ type: 'search-error', threadId, time: now(), query: parsed.query, error });
        return {
          results: [],
          message: 'Tool search failed for this query. Try again, perhaps with other keywords.',
        };
      }
      signal?.throwIfAborted();
      const results: SearchResult[] = ranked.map(({ entry, result }) => ({
        name: entry.descriptor.name,
        description: cutDescription(
          result.description || (entry.descriptor.description ?? ''),
          MAX_RESULT_DESCRIPTION_LENGTH,
        ),
        score: Math.round(result.score * 1000) / 1000,
      }));
      emit({
        type: 'search',
        threadId,
        time: now(),
        query: parsed.query,
        results,
        durationMs: now() - started,
      });
      const quoted = `"${clip(parsed.query, 80)}"`;
      if (results.length === 0) {
        return {
          results,
          message: `No tools found for ${quoted}. Try other or fewer keywords (for example the object or action you need).`,
        };
      }
      const names = results.map((result) => result.name).join(', ');
      if (!autoLoad) {
        return {
          results,
          message: `Found ${results.length} tool(s): ${names}. Call load_tool with the exact name(s) you need; a loaded tool can be called ${fromNextStep()}.`,
        };
      }
      const outcome = await loadCanonical(
        ranked.map(({ entry }) => entry.descriptor.name),
        signal,
        { auto: true, notFound: [] },
      );
      if (!outcome.ok) {
        return {
          results,
          loaded: [],
          message:
            outcome.mayHaveLoaded.length > 0
              ? `Found ${results.length} tool(s): ${names}. ${mayHaveLoadedMessage(outcome.mayHaveLoaded)}`
              : `Found ${results.length} tool(s): ${names}, but they could not be loaded right now (tool state is unavailable). Try again in a moment.`,
        };
      }
      // An always-on tool the search found is available, not loaded by it (nor used: it takes no
      // slot): listed under `loaded`, a 'context' replay would load it in a later request that
      // does not keep it on, where a store has nothing of it.
      const loaded = [...outcome.loaded, ...outcome.alreadyLoaded.filter((name) => !alwaysOnNames.has(name))];
      const { alreadyLoaded } = outcome;
      let message = `Found and loaded ${results.length} tool(s): ${names}. Call them by these exact names ${fromNextStep()}.`;
      if (alreadyLoaded.length > 0) {
        // A repeated search finds tools loaded before it (as Mastra's processor, say so): those
        // this step was sent can be called now, the others from the next step (when the app
        // replaced tool search's step preparation, what this step was sent is not known).
        const sentNow = stepsReplaced ? [] : alreadyLoaded.filter((name) => plan?.byName.has(name) === true);
        const notYet = alreadyLoaded.filter((name) => !sentNow.includes(name));
        const them = (list: readonly string[]) => (list.length === 1 ? 'it' : 'them');
        const were = (list: readonly string[]) => `${list.join(', ')} ${list.length === 1 ? 'was' : 'were'}`;
        message = `Found ${results.length} tool(s): ${names}.`;
        if (outcome.loaded.length > 0)
          message += ` Loaded ${outcome.loaded.join(', ')}: call ${them(outcome.loaded)} ${fromNextStep()}.`;
        if (sentNow.length > 0) message += ` ${were(sentNow)} already loaded: call ${them(sentNow)} now.`;
        if (notYet.length > 0)
          message += ` ${were(notYet)} already loaded: call ${them(notYet)} ${fromNextStep()}.`;
        message += ' Use these exact names.';
      }
      const output: SearchToolsOutput = {
        results,
        message,
        loaded,
        ...(alreadyLoaded.length > 0 ? { alreadyLoaded } : {}),
      };
      return sign(SEARCH_TOOLS_NAME, output);
    }

    // -- load -----------------------------------------------------------------

    type LoadOutcome =
      | { ok: true; loaded: string[]; alreadyLoaded: string[]; evicted: string[] }
      | { ok: false; error: ToolSearchError; mayHaveLoaded: readonly string[] };

    /** How a load is reported: whether a search made it, and the names it did not find. */
    interface LoadReport {
      readonly auto: boolean;
      readonly notFound: readonly string[];
    }

    /**
     * Loads canonical names already found and allowed (nothing once `signal` has aborted), after
     * the thread's loads already under way in this process, and reports it: a `load` event, then
     * an `evict` event for the names it evicted.
     */
    function loadCanonical(
      names: readonly string[],
      signal: AbortSignal | undefined,
      report: LoadReport,
    ): Promise<LoadOutcome> {
      return inLoadQueue(threadId, () => loadNow(names, signal, report));
    }

    async function loadNow(
      names: readonly string[],
      signal: AbortSignal | undefined,
      report: LoadReport,
    ): Promise<LoadOutcome> {
      signal?.throwIfAborted();
      let current: string[];
      try {
        current = await currentLoadedNames();
      } catch (error) {
        return { ok: false, error: error as ToolSearchError, mayHaveLoaded: [] };
      }
      signal?.throwIfAborted();
      const present = new Set([...current, ...alwaysOnNames]);
      const loaded: string[] = [];
      const alreadyLoaded: string[] = [];
      for (const name of names) {
        if (present.has(name)) alreadyLoaded.push(name);
        else if (!loaded.includes(name)) loaded.push(name);
      }
      // Every name asked for counts as used (always-on tools take no slot): the new ones, then
      // those already loaded, in the order a 'context' replay of this result will use.
      const used = [...loaded, ...alreadyLoaded.filter((name) => !alwaysOnNames.has(name))];
      let evicted: string[] = [];
      if (store) {
        if (loaded.length > 0) {
          try {
            evicted = await store.add(threadId, loaded, used);
          } catch (error) {
            // A write that timed out may still land: its outcome is unknown. Any other failure
            // (the store refused before writing) wrote nothing.
            const timedOut = ToolSearchError.isInstance(error) && error.code === 'STORE_TIMEOUT';
            if (timedOut) {
              const at = ++moment;
              for (const name of loaded) uncertainThisRequest.set(name, at);
            }
            return { ok: false, error: error as ToolSearchError, mayHaveLoaded: timedOut ? loaded : [] };
          }
        } else {
          memory.noteUse(threadId, used);
        }
      } else {
        evicted = contextState().load(used);
        notePending('load', used);
      }
      const loadedAt = ++moment;
      for (const name of loaded) loadedThisRequest.set(name, loadedAt);
      // Reported here, before the next load of the thread starts: a name's load comes before its eviction.
      emit({
        type: 'load',
        threadId,
        time: now(),
        loaded,
        alreadyLoaded,
        notFound: [...report.notFound],
        auto: report.auto,
      });
      if (evicted.length > 0)
        emit({ type: 'evict', threadId, time: now(), toolNames: evicted, reason: 'max-loaded-tools' });
      return { ok: true, loaded, alreadyLoaded, evicted };
    }

    /**
     * "Did you mean": a full comparison with every name of a catalog of at most
     * FULL_SCAN_SUGGESTIONS tools; in a larger one, with the names the ranker finds for
     * the unknown name (so the cost does not grow with the catalog), unless no tool has a
     * name that long. Only names that pass both the 'search' and the 'load' filter are
     * suggested (as in catalogInstructions): a suggestion must not reveal a tool the search hides.
     */
    async function suggestionsFor(name: string): Promise<string[]> {
      const lists: ScoredName[][] = [];
      for (const catalog of requestCatalog ? [requestCatalog, staticCatalog] : [staticCatalog]) {
        if (catalog.size === 0) continue;
        if (catalog.size <= FULL_SCAN_SUGGESTIONS) {
          lists.push(catalog.suggester().suggest(name, 10));
          continue;
        }
        // A name longer than every tool's is not searched for (a search costs its length).
        if (!mayNameTool(name, longestName)) continue;
        try {
          const found = await searchRanker(catalog.ranker(), name, { topK: 50 });
          lists.push(createNameSuggester(found.map((result) => result.name)).suggest(name, 10));
        } catch (error) {
          // No suggestions from a ranker that fails; the message still says to search.
          emit({ type: 'search-error', threadId, time: now(), query: name, error });
        }
      }
      const close = mergeSuggestions(lists, 10);
      const checks = await Promise.all(
        close.map(async (candidate) => {
          const entry = lookupCanonical(candidate);
          return entry !== undefined && (await entryAllowed(entry, 'search')) && entryAllowed(entry, 'load');
        }),
      );
      return close.filter((_, index) => checks[index]).slice(0, 3);
    }

    /** One load; after `signal` aborts (its caller no longer waits), it loads nothing. */
    async function loadTool(input: unknown, signal: AbortSignal | undefined): Promise<LoadToolOutput> {
      const parsed = parseLoadToolInput(input);
      if (!parsed.ok) return { success: false, message: parsed.message };

      const notFound: string[] = [];
      const canonical: string[] = [];
      const found = parsed.names.map((name) => {
        const known = mayNameTool(name, longestName);
        return {
          name,
          entry: known ? lookupForLoad(name) : undefined,
          // Always on: already available (reported as already loaded); unfiltered if the agent's own.
          own: known ? alwaysOnByName.get(name) : undefined,
        };
      });
      const checks = await Promise.all(
        found.map(({ name, entry, own }) => {
          if (own) return !own.catalog || allowed(name, own.entry?.tool, 'active');
          return entry ? entryAllowed(entry, 'load') : false;
        }),
      );
      found.forEach(({ name, entry, own }, index) => {
        // A denied tool is reported exactly like an unknown one: its existence does not leak.
        const canonicalName = own ? own.name : entry?.descriptor.name;
        if (canonicalName === undefined || !checks[index]) notFound.push(name);
        else if (!canonical.includes(canonicalName)) canonical.push(canonicalName);
      });

      signal?.throwIfAborted();
      const outcome =
        canonical.length > 0
          ? await loadCanonical(canonical, signal, { auto: false, notFound })
          : { ok: true as const, loaded: [], alreadyLoaded: [], evicted: [] };
      if (!outcome.ok) {
        return {
          success: false,
          message:
            outcome.mayHaveLoaded.length > 0
              ? mayHaveLoadedMessage(outcome.mayHaveLoaded)
              : 'Tools could not be loaded right now (tool state is unavailable). Try again in a moment; nothing was loaded.',
          ...(parsed.single ? { toolName: clip(parsed.names[0]!, 100) } : {}),
        };
      }
      const { loaded, alreadyLoaded, evicted } = outcome;
      if (canonical.length === 0)
        emit({ type: 'load', threadId, time: now(), loaded, alreadyLoaded, notFound, auto: false });
      signal?.throwIfAborted();

      const suggestions: string[] = [];
      for (const name of notFound.slice(0, 3)) {
        for (const suggestion of await suggestionsFor(name))
          if (!suggestions.includes(suggestion)) suggestions.push(suggestion);
      }
      const shownNotFound = notFound.map((name) => clip(name, 100));

      if (parsed.single && parsed.names.length === 1) {
        const asked = shownNotFound[0];
        if (asked !== undefined) {
          return {
            success: false,
            message:
              `Tool "${asked}" not found.` +
              (suggestions.length > 0
                ? ` Did you mean: ${suggestions.slice(0, 3).join(', ')}? Call load_tool with one of these exact names.`
                : ' Use search_tools to find available tools.'),
            toolName: asked,
            notFound: shownNotFound,
            ...(suggestions.length > 0 ? { suggestions: suggestions.slice(0, 3) } : {}),
          };
        }
        const name = (loaded[0] ?? alreadyLoaded[0])!;
        return sign(LOAD_TOOL_NAME, {
          success: true,
          message:
            loaded.length > 0
              ? `Tool "${name}" loaded successfully. You can call it ${fromNextStep()}.`
              : stepsReplaced
                ? `Tool "${name}" is already loaded; it can be called ${fromNextStep()}.`
                : `Tool "${name}" is already loaded and available.`,
          toolName: name,
          ...(loaded.length > 0 ? { loaded } : { alreadyLoaded }),
        });
      }

      const parts: string[] = [];
      if (loaded.length > 0) parts.push(`Loaded: ${loaded.join(', ')}; callable ${fromNextStep()}`);
      if (alreadyLoaded.length > 0) parts.push(`Already loaded: ${alreadyLoaded.join(', ')}`);
      // More names than maxLoadedTools in one call: the first ones went again at once.
      const lost = evicted.filter((name) => loaded.includes(name) || alreadyLoaded.includes(name));
      if (lost.length > 0) {
        parts.push(
          `Unloaded again at once, since at most ${maxLoadedTools} tools stay loaded: ${lost.join(', ')} (load fewer tools at a time)`,
        );
      }
      if (shownNotFound.length > 0) {
        parts.push(
          `Not found: ${shownNotFound.join(', ')}` +
            (suggestions.length > 0
              ? ` (did you mean: ${suggestions.join(', ')}?)`
              : ' (use search_tools to find the exact names)'),
        );
      }
      return sign(LOAD_TOOL_NAME, {
        success: notFound.length === 0,
        message: parts.join(' | '),
        loadedCount: loaded.length,
        ...(loaded.length > 0 ? { loaded } : {}),
        ...(notFound.length > 0 ? { notFound: shownNotFound } : {}),
        ...(alreadyLoaded.length > 0 ? { alreadyLoaded } : {}),
        ...(suggestions.length > 0 ? { suggestions } : {}),
      });
    }

    function sign<T extends SearchToolsOutput | LoadToolOutput>(metaToolName: string, output: T): T {
      if (!signer) return output;
      const names = activatedNames(metaToolName, output);
      if (names.length === 0) return output;
      return { ...output, receipt: signer.sign(threadId, metaToolName, output) };
    }

    // -- hooks the app replaced -----------------------------------------------

    const replacedHooks = new Set<ReplacedHook>();
    /** The app chooses the tools of each step itself (it replaced the adapter's step preparation). */
    let stepsReplaced = false;
    function hookReplaced(hook: ReplacedHook): void {
      if (hook !== 'step-preparation' && hook !== 'call-repair') {
        throw new ToolSearchError(
          'INVALID_INPUT',
          `hookReplaced takes 'step-preparation' or 'call-repair', got ${JSON.stringify(String(hook))}.`,
        );
      }
      if (replacedHooks.has(hook)) return;
      replacedHooks.add(hook);
      if (hook === 'step-preparation') stepsReplaced = true;
      emit({ type: 'hook-replaced', threadId, time: now(), hook });
    }
    /** When a loaded tool can be called: from the next step, or, once the app chooses the tools, only if it does. */
    /** A store write that timed out: whether it landed is unknown until the next step reads the store. */
    function mayHaveLoadedMessage(names: readonly string[]): string {
      return (
        `Tool state did not answer in time, so these tools may have been loaded: ${names.join(', ')}. ` +
        `Each that was will be offered ${fromNextStep()}; load again any that is not offered then.`
      );
    }

    function fromNextStep(): string {
      return stepsReplaced
        ? 'from your next step if offered: this app chooses your tools itself, not tool search, so a loaded tool may never be offered (then do not load it again)'
        : 'from your next step';
    }

    // -- guard ----------------------------------------------------------------

    async function guard(toolName: string, options?: GuardOptions): Promise<GuardDecision> {
      // No plan yet (a call replayed before the first step): wait for the one being made, or make
      // one outside a model step (no 'step' event: no tools were sent to a model for it).
      if (!plan) await (planning ?? prepareStep({ modelStep: false }));
      const current = plan!;
      if (typeof toolName === 'string') {
        if (offeredMetaNames.includes(toolName)) return { allowed: true };
        if (current.byName.has(toolName)) {
          const canonical = current.byName.get(toolName)?.descriptor.name ?? toolName;
          // Shown by the plan, refused by the framework: its step did not send the tool.
          if (options?.offered === false) {
            return {
              allowed: false,
              message: `Tool "${canonical}" is loaded, but it was not offered to you in this step, so it was not run. Do not load it again; call it only when it is among your tools.`,
            };
          }
          if (current.loadedNames.has(canonical)) noteCall(canonical);
          return { allowed: true };
        }
      }
      const name = typeof toolName === 'string' ? toolName : String(toolName);
      const shown = clip(name, 100);
      const deny = (reason: 'not-loaded' | 'filtered' | 'unknown-tool', message: string): GuardDecision => {
        emit({ type: 'deny', threadId, time: now(), toolName: name, reason });
        return { allowed: false, message };
      };
      const unavailable = `Tool "${shown}" is not available, so it was not run. Call search_tools with keywords for what you need to find a tool that can do it.`;
      if (name === LOAD_TOOL_NAME && autoLoad) {
        return deny(
          'unknown-tool',
          `load_tool is not needed here: search_tools loads the tools it finds automatically. Call the found tools by name ${fromNextStep()}.`,
        );
      }
      // A catalog tool kept on by name, not in the plan: the 'active' filter withholds it (the model
      // is told no more than of an unknown name).
      if (typeof toolName === 'string' && alwaysOnNames.has(toolName)) return deny('filtered', unavailable);
      const entry = typeof toolName === 'string' ? lookupExact(toolName) : undefined;
      if (!entry) return deny('unknown-tool', unavailable);
      if (!(await entryAllowed(entry, 'load')) || !(await entryAllowed(entry, 'active')))
        return deny('filtered', unavailable);
      const canonical = entry.descriptor.name;
      const loadedAt = loadedThisRequest.get(canonical);
      if (loadedAt !== undefined && loadedAt > current.readAt) {
        return deny(
          'not-loaded',
          stepsReplaced
            ? `Tool "${canonical}" was just loaded, so it was not run: it can be called ${fromNextStep()}.`
            : `Tool "${canonical}" was just loaded; it can be called from your next step, not in the step that loaded it. Call it again now.`,
        );
      }
      const uncertainAt = uncertainThisRequest.get(canonical);
      if (uncertainAt !== undefined && uncertainAt > current.readAt) {
        return deny(
          'not-loaded',
          `Tool "${canonical}" may have been loaded (tool state did not answer in time), so it was not run. If it was, it will be offered ${fromNextStep()}; if it is not offered then, load it again.`,
        );
      }
      if (loadedAt !== undefined || unloadedFromThread(canonical)) {
        // Loaded earlier in this thread (this request, or one before it), and gone since: saying
        // "call it again" would loop, and "search, then load" would send the model searching for
        // a name it already has.
        return deny(
          'not-loaded',
          autoLoad
            ? `Tool "${canonical}" is no longer loaded, so it was not run. Call search_tools with keywords for it to load it again; it can be called ${fromNextStep()}.`
            : `Tool "${canonical}" is no longer loaded, so it was not run. Call load_tool with "${canonical}" to load it again; it can be called ${fromNextStep()}.`,
        );
      }
      return deny(
        'not-loaded',
        autoLoad
          ? `Tool "${canonical}" is not loaded, so it was not run. Call search_tools with keywords for what you need; the tools it finds are loaded and can be called ${fromNextStep()}.`
          : `Tool "${canonical}" is not loaded, so it was not run. Call search_tools with keywords for what you need, then load_tool with the exact name; the tool can be called ${fromNextStep()}.`,
      );
    }

    /** Whether the thread loaded the name and has lost it since (as far as this process knows, or the records show). */
    function unloadedFromThread(name: string): boolean {
      if (store) return memory.wasUnloaded(threadId, name);
      return contextState().wasEvicted(name);
    }

    function resolve(toolName: string): CatalogEntry<TTool> | undefined {
      return typeof toolName === 'string' ? plan?.byName.get(toolName) : undefined;
    }

    // -- catalog listing ------------------------------------------------------

    let listing: Promise<string | undefined> | undefined;
    /**
     * The catalog as a system-prompt listing: the static tools in catalog order (those a request
     * tool of the same name shadows left out), then the request's tools; only tools that pass
     * both the 'search' and the 'load' filter, so nothing is advertised that cannot be loaded.
     * Made once per request (the filter's answers are memoised per request too), so every step
     * of a request sends the same text.
     */
    function catalogInstructions(): Promise<string | undefined> {
      listing ??= (async () => {
        const entries = [
          ...(requestCatalog
            ? staticCatalog.entries.filter((entry) => !requestCatalog.byName(entry.descriptor.name))
            : staticCatalog.entries),
          ...(requestCatalog?.entries ?? []),
        ].filter((entry) => !shadowedByOwn(entry));
        const checks = await Promise.all(
          entries.map(async (entry) => (await entryAllowed(entry, 'search')) && entryAllowed(entry, 'load')),
        );
        const listed = entries.filter((_, index) => checks[index]).map((entry) => entry.descriptor);
        return listed.length > 0 ? catalogListingInstructions(listed, { autoLoad }) : undefined;
      })();
      return listing;
    }

    return {
      threadId,
      prepareStep,
      searchTools: (input: unknown, options?: MetaToolCallOptions) =>
        abortable(options?.signal, (signal) => searchTools(input, signal)),
      loadTool: (input: unknown, options?: MetaToolCallOptions) =>
        abortable(options?.signal, (signal) => loadTool(input, signal)),
      guard,
      hookReplaced,
      resolve,
      catalogInstructions,
    };
  }

  return engine;
}

type RequestCatalog<TTool> = Catalog<TTool> & {
  readonly rejected: readonly RejectedTool[];
  readonly shadowed: number;
};

interface InternalPlan<TTool> {
  readonly visible: readonly string[];
  /** Visible names and the aliases of visible tools → entries (undefined for always-on names given without an entry). */
  readonly byName: ReadonlyMap<string, CatalogEntry<TTool> | undefined>;
  /** Canonical names of the loaded tools visible this step (always-on tools are not among them). */
  readonly loadedNames: ReadonlySet<string>;
  /** When (on the request's counter) this plan read the load state. */
  readonly readAt: number;
}
