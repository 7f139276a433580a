// Owns the load_tool meta-tool of one request: the names a model typed resolved to tools the
// filter lets it load (a denied tool answered exactly like an unknown one), the load, suggestions
// for what was not found, and the answer and message the model reads.
import { mayNameTool } from '../catalog';
import { clip, LOAD_TOOL_NAME, parseLoadToolInput } from '../meta-tools';
import type { Clock, LoadToolOutput, ToolSearchEvent } from '../types';
import { isPromiseLike } from './promise-like';
import type { SignResult } from './receipts';
import type { ReplacedHooks } from './replaced-hooks';
import type { RequestFilter } from './request-filter';
import type { RequestTools } from './request-tools';
import type { SuggestionsFor } from './suggestions';
import type { LoadCanonical } from './tool-loading';
import type { ToolResolution } from './tool-resolution';

/** One load; after `signal` aborts (its caller no longer waits), it loads nothing. */
export type LoadTool = (input: unknown, signal: AbortSignal | undefined) => Promise<LoadToolOutput>;

export interface LoadToolOptions<TTool> {
  readonly threadId: string;
  readonly maxLoadedTools: number | undefined;
  readonly tools: Pick<RequestTools<TTool>, 'lookupForLoad' | 'alwaysOnByName' | 'longestName'>;
  readonly filter: RequestFilter<TTool>;
  /** A lazily resolved tool is loaded only once this request has resolved it. */
  readonly resolution: ToolResolution<TTool>;
  readonly loadCanonical: LoadCanonical;
  readonly suggestionsFor: SuggestionsFor;
  readonly hooks: Pick<ReplacedHooks, 'fromNextStep' | 'stepsReplaced' | 'mayHaveLoadedMessage'>;
  readonly sign: SignResult;
  readonly clock: Clock;
  readonly emit: (event: ToolSearchEvent) => void;
}

export function createLoadTool<TTool>(options: LoadToolOptions<TTool>): LoadTool {
  const {
    threadId,
    maxLoadedTools,
    tools,
    filter,
    resolution,
    loadCanonical,
    suggestionsFor,
    hooks,
    sign,
    clock,
    emit,
  } = options;

  /**
   * The canonical names asked for and allowed, the names asked for that are unknown or denied,
   * and the allowed ones whose lazy `resolve` failed (with why).
   */
  async function resolveNames(
    names: readonly string[],
  ): Promise<{ canonical: string[]; notFound: string[]; unavailable: Map<string, string> }> {
    const notFound: string[] = [];
    const unavailable = new Map<string, string>();
    const canonical: string[] = [];
    const found = names.map((name) => {
      const known = mayNameTool(name, tools.longestName);
      return {
        name,
        entry: known ? tools.lookupForLoad(name) : undefined,
        // Always on: already available (reported as already loaded); unfiltered if the agent's own.
        own: known ? tools.alwaysOnByName.get(name) : undefined,
      };
    });
    const checks = await Promise.all(
      found.map(({ name, entry, own }) => {
        if (own) return !own.catalog || filter.allowed(name, own.entry?.tool, 'active');
        if (!entry) return false;
        const allowed = filter.entryAllowed(entry, 'load');
        // Only an allowed tool is resolved: a denied one costs nothing and reveals nothing.
        const resolveIfAllowed = (yes: boolean) => {
          if (!yes) return false;
          const outcome = resolution.resolved(entry, 'load');
          const note = (settled: Awaited<typeof outcome>) => {
            if (!settled.ok) unavailable.set(entry.descriptor.name, settled.reason);
            return true;
          };
          return isPromiseLike(outcome) ? outcome.then(note) : note(outcome);
        };
        return isPromiseLike(allowed) ? allowed.then(resolveIfAllowed) : resolveIfAllowed(allowed);
      }),
    );
    found.forEach(({ name, entry, own }, index) => {
      // A denied tool is reported exactly like an unknown one: its existence does not leak.
      const canonicalName = own ? own.name : entry?.descriptor.name;
      if (canonicalName === undefined || !checks[index]) notFound.push(name);
      else if (!unavailable.has(canonicalName) && !canonical.includes(canonicalName))
        canonical.push(canonicalName);
    });
    return { canonical, notFound, unavailable };
  }

  return async (input, signal) => {
    const parsed = parseLoadToolInput(input);
    if (!parsed.ok) return { success: false, message: parsed.message };
    const { fromNextStep } = hooks;

    const { canonical, notFound, unavailable } = await resolveNames(parsed.names);

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
            ? hooks.mayHaveLoadedMessage(outcome.mayHaveLoaded)
            : 'Tools could not be loaded right now (tool state is unavailable). Try again in a moment; nothing was loaded.',
        ...(parsed.single ? { toolName: clip(parsed.names[0]!, 100) } : {}),
      };
    }
    const { loaded, alreadyLoaded, evicted } = outcome;
    if (canonical.length === 0)
      emit({ type: 'load', threadId, time: clock.now(), loaded, alreadyLoaded, notFound, auto: false });
    signal?.throwIfAborted();

    const suggestions: string[] = [];
    for (const name of notFound.slice(0, 3)) {
      for (const suggestion of await suggestionsFor(name))
        if (!suggestions.includes(suggestion)) suggestions.push(suggestion);
    }
    const shownNotFound = notFound.map((name) => clip(name, 100));

    const unavailableNames = [...unavailable.keys()];
    const unavailableText = unavailableNames.map((name) => `"${name}" (${unavailable.get(name)})`).join(', ');
    if (parsed.single && parsed.names.length === 1 && unavailableNames.length > 0) {
      return {
        success: false,
        message: `Tool "${unavailableNames[0]}" is not available right now, so it was not loaded: ${unavailable.get(unavailableNames[0]!)}`,
        toolName: unavailableNames[0]!,
        unavailable: unavailableNames,
      };
    }
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
            : hooks.stepsReplaced()
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
    if (unavailableNames.length > 0) parts.push(`Not available right now, not loaded: ${unavailableText}`);
    if (shownNotFound.length > 0) {
      parts.push(
        `Not found: ${shownNotFound.join(', ')}` +
          (suggestions.length > 0
            ? ` (did you mean: ${suggestions.join(', ')}?)`
            : ' (use search_tools to find the exact names)'),
      );
    }
    return sign(LOAD_TOOL_NAME, {
      success: notFound.length === 0 && unavailableNames.length === 0,
      message: parts.join(' | '),
      loadedCount: loaded.length,
      ...(loaded.length > 0 ? { loaded } : {}),
      ...(notFound.length > 0 ? { notFound: shownNotFound } : {}),
      ...(alreadyLoaded.length > 0 ? { alreadyLoaded } : {}),
      ...(suggestions.length > 0 ? { suggestions } : {}),
      ...(unavailableNames.length > 0 ? { unavailable: unavailableNames } : {}),
    });
  };
}
