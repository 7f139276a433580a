// Owns the search_tools meta-tool of one request: ranking over the request's and the static
// catalog, results the filter allows (more asked of the ranker when it withholds some), the
// `search` event, the message to the model, and under autoLoad the load of what was found.
import { clip, cutDescription, parseSearchToolsInput, SEARCH_TOOLS_NAME } from '../meta-tools';
import type { CatalogEntry, Clock, SearchResult, SearchToolsOutput, ToolSearchEvent } from '../types';
import type { SearchRanker } from './ranker-search';
import type { SignResult } from './receipts';
import type { ReplacedHooks } from './replaced-hooks';
import type { RequestFilter } from './request-filter';
import type { RequestTools } from './request-tools';
import type { InternalPlan } from './step-plan';
import type { LoadCanonical } from './tool-loading';

/** Descriptions in search results are cut to this many characters (as Mastra's processor cuts them). */
export const MAX_RESULT_DESCRIPTION_LENGTH = 150;

/** One search; after `signal` aborts (its caller no longer waits), it loads and reports nothing. */
export type SearchTools = (input: unknown, signal: AbortSignal | undefined) => Promise<SearchToolsOutput>;

export interface SearchToolsOptions<TTool> {
  readonly threadId: string;
  readonly topK: number;
  readonly minScore: number;
  readonly autoLoad: boolean;
  /** Native mode (autoLoad on): what a search loads is also listed under `referred`. */
  readonly refers: boolean;
  readonly maxLoadedTools: number | undefined;
  readonly tools: RequestTools<TTool>;
  readonly filter: RequestFilter<TTool>;
  readonly searchRanker: SearchRanker;
  readonly loadCanonical: LoadCanonical;
  readonly hooks: ReplacedHooks;
  /** The latest step plan: which tools already loaded this step was sent. */
  readonly currentPlan: () => InternalPlan<TTool> | undefined;
  readonly sign: SignResult;
  readonly clock: Clock;
  readonly emit: (event: ToolSearchEvent) => void;
}

export function createSearchTools<TTool>(options: SearchToolsOptions<TTool>): SearchTools {
  const { threadId, topK, minScore, autoLoad, refers, maxLoadedTools, tools, filter, searchRanker } = options;
  const { loadCanonical, hooks, currentPlan, sign, clock, emit } = options;
  const { staticCatalog, requestCatalog, totalSize, alwaysOnNames } = tools;
  const now = () => clock.now();

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
        const entry = tools.lookupExact(result.name);
        if (entry === undefined || seen.has(entry) || tools.shadowedByOwn(entry)) continue;
        seen.add(entry);
        found.push({ result, entry });
      }
      const checks = await Promise.all(
        found.map(async ({ entry }) => {
          if (!(await filter.entryAllowed(entry, 'search'))) return false;
          return autoLoad ? filter.entryAllowed(entry, 'load') : true;
        }),
      );
      const kept = found.filter((_, index) => checks[index]).slice(0, searchLimit);
      if (kept.length >= searchLimit || raw.length < k || k >= totalSize) return kept;
      k = Math.min(totalSize, k * 4);
    }
  }

  /** The message and output of a search under autoLoad, once it loaded what it found. */
  async function loadFound(
    ranked: readonly { entry: CatalogEntry<TTool> }[],
    results: SearchResult[],
    signal: AbortSignal | undefined,
  ): Promise<SearchToolsOutput> {
    const { fromNextStep } = hooks;
    const names = results.map((result) => result.name).join(', ');
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
            ? `Found ${results.length} tool(s): ${names}. ${hooks.mayHaveLoadedMessage(outcome.mayHaveLoaded)}`
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
      const plan = currentPlan();
      const sentNow = hooks.stepsReplaced()
        ? []
        : alreadyLoaded.filter((name) => plan?.byName.has(name) === true);
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
      // An always-on tool is sent undeferred: there is nothing to refer.
      ...(refers ? { referred: [...loaded] } : {}),
    };
    return sign(SEARCH_TOOLS_NAME, output);
  }

  return async (input, signal) => {
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
    if (!autoLoad) {
      const names = results.map((result) => result.name).join(', ');
      return {
        results,
        message: `Found ${results.length} tool(s): ${names}. Call load_tool with the exact name(s) you need; a loaded tool can be called ${hooks.fromNextStep()}.`,
      };
    }
    return await loadFound(ranked, results, signal);
  };
}
