/**
 * The tool set of one AI SDK call: the meta-tools bound to the call's request, the always-on
 * tools, and the catalog and request tools, each `execute` guarded (a tool not visible in this
 * step runs only if the engine allows it). Reads and updates the call's state only through
 * its functions (call-state.ts).
 */
import {
  type CatalogEntry,
  isMetaToolName,
  LOAD_TOOL_NAME,
  type MetaToolDefinition,
  type NativeProvider,
  type SearchToolsOutput,
  type ToolSearchEngine,
  type ToolSearchRequest,
} from '@tool-search/core';
import type { Tool, ToolExecutionOptions } from 'ai';
import type { CallState } from './call-state';
import { lazyCallTool } from './lazy-tools';
import { deferredTool, nativeSearchTool } from './native-tools';
import { afterSuccess, lastValue, sentAsLoaded, toMetaTool, withExecute } from './tool-set';

/** A call in native mode: its provider, and the OpenAI definitions of tools by name. */
export interface NativeCallTools {
  readonly provider: NativeProvider;
  /** The meta-tools the request offers (search_tools alone). */
  readonly metaTools: readonly MetaToolDefinition[];
  readonly definitionsOf: (names: readonly string[]) => Record<string, unknown>[];
}

export interface CallTools {
  /** Every tool of the call, by name. */
  readonly tools: ReadonlyMap<string, Tool>;
  /** The catalog and request tools of this call, by name (an always-on tool is not loaded). */
  readonly loadableNames: ReadonlySet<string>;
}

export function createCallTools<REQUEST_CONTEXT>(parts: {
  readonly engine: ToolSearchEngine<Tool, REQUEST_CONTEXT>;
  readonly catalogTools: ReadonlyArray<[string, Tool]>;
  readonly alwaysOnTools: ReadonlyArray<[string, Tool]>;
  readonly alwaysOnNames: readonly string[];
  readonly requestEntries: readonly CatalogEntry<Tool>[] | undefined;
  readonly state: CallState;
  /** Whether the engine learns from use: only then is a successful call awaited and told. */
  readonly learning: boolean;
  /** Native mode: every catalog and request tool is sent deferred, and search_tools refers what it finds. */
  readonly native?: NativeCallTools;
}): CallTools {
  const { engine, catalogTools, alwaysOnTools, alwaysOnNames, requestEntries, state, native, learning } =
    parts;
  const metaTools = native?.metaTools ?? engine.metaTools;
  // The catalog and request tools of this call, by name (an always-on tool is not loaded).
  const loadableNames = new Set(
    [
      ...catalogTools.map(([name]) => name),
      ...(requestEntries ?? []).map((entry) => entry.descriptor.name),
    ].filter((name) => !isMetaToolName(name) && !alwaysOnNames.includes(name)),
  );

  /**
   * Tells the request that a call of a catalog or request tool succeeded (with `learning`, the
   * query of the search that found it becomes evidence). Not for an always-on tool, which no search
   * finds, nor for a call aborted meanwhile; it never throws into the SDK.
   */
  const succeeded =
    (request: ToolSearchRequest<Tool>, name: string, signal: AbortSignal | undefined) => () => {
      if (!loadableNames.has(name) || signal?.aborted === true) return;
      try {
        request.toolCallSucceeded(name);
      } catch {
        // Learning only ranks: a failure to record leaves the call's result as it is.
      }
    };

  const guardedExecute = (name: string, tool: Tool, execute: NonNullable<Tool['execute']>) =>
    function execute_(input: unknown, executionOptions: ToolExecutionOptions<unknown>) {
      state.noteSignal(executionOptions?.abortSignal);
      state.noteStep(executionOptions?.messages, executionOptions?.toolCallId);
      // Visible in this step: run as is, so a streaming tool keeps streaming. The engine's guard
      // still sees the call, as that is where a call counts as a use (maxLoadedTools): with the
      // step planned, it allows a visible tool and records the use before its first await, so
      // the call is not held up, even by an asynchronous store.
      const planned = state.planned();
      if (state.isVisible(name) && planned !== undefined) {
        planned.guard(name).catch(() => {});
        const result = execute.call(tool, input, executionOptions);
        // Without learning, and for an always-on tool (its calls are no evidence), the result
        // goes to the SDK as it is.
        if (!learning || !loadableNames.has(name)) return result;
        return afterSuccess(result, succeeded(planned, name, executionOptions?.abortSignal));
      }
      return (async () => {
        const active = await state.current(executionOptions?.messages);
        // The filter judges catalog and request tools only: an always-on tool needs no context.
        if (loadableNames.has(name)) state.checkReplayContext(name);
        const decision = await active.guard(name);
        if (!decision.allowed) {
          // An always-on tool does not depend on the thread: only the filter withholds one.
          if (loadableNames.has(name)) state.checkReplayThread(name);
          throw new Error(decision.message ?? `Tool "${name}" is not loaded.`);
        }
        // Allowed by the engine outside a planned step (an approved call the SDK replays before
        // its first step): a promise is all the SDK accepts here, so a stream gives its last value.
        const value = await lastValue(await execute.call(tool, input, executionOptions));
        succeeded(active, name, executionOptions?.abortSignal)();
        return value;
      })();
    };

  /**
   * A catalog or request tool as sent once loaded (never deferred), or in native mode as sent
   * always (deferred by its provider), its `execute` guarded.
   */
  const guardTool = (name: string, tool: Tool): Tool => {
    const sent = native === undefined ? sentAsLoaded(tool) : deferredTool(tool, native.provider);
    return typeof sent.execute === 'function'
      ? withExecute(sent, guardedExecute(name, tool, tool.execute!))
      : sent;
  };
  const tools = new Map<string, Tool>();
  // With autoLoad, search_tools loads what it finds; without, only load_tool loads.
  const autoLoad = !metaTools.some((definition) => definition.name === LOAD_TOOL_NAME);
  for (const definition of metaTools) {
    const loadsState = definition.name === LOAD_TOOL_NAME || autoLoad;
    const execute = async (input: unknown, executionOptions: ToolExecutionOptions<unknown>) => {
      state.noteSignal(executionOptions?.abortSignal);
      state.noteStep(executionOptions?.messages, executionOptions?.toolCallId);
      const active = await state.current(executionOptions?.messages);
      state.checkReplayContext(definition.name);
      if (loadsState) state.checkReplayThread(definition.name);
      // Aborting the call ends a slow search or load at once, with the signal's reason.
      const options = { signal: executionOptions?.abortSignal };
      return definition.name === LOAD_TOOL_NAME
        ? active.loadTool(input, options)
        : active.searchTools(input, options);
    };
    tools.set(
      definition.name,
      native === undefined || definition.name === LOAD_TOOL_NAME
        ? toMetaTool(definition, execute)
        : nativeSearchTool({
            provider: native.provider,
            definition,
            execute: execute as (...args: Parameters<typeof execute>) => Promise<SearchToolsOutput>,
            definitionsOf: native.definitionsOf,
          }),
    );
  }
  // Always-on tools go through the guard too (never filtered, they are always allowed): the SDK
  // runs an approved call from the history against this whole set, not the step's active tools.
  for (const [name, tool] of alwaysOnTools) {
    tools.set(
      name,
      typeof tool.execute === 'function' ? withExecute(tool, guardedExecute(name, tool, tool.execute)) : tool,
    );
  }
  for (const [name, tool] of catalogTools) tools.set(name, guardTool(name, tool));
  for (const entry of requestEntries ?? []) {
    const name = entry.descriptor.name;
    // A request tool never replaces a meta-tool or an always-on tool; it replaces a catalog
    // tool of the same name, as the engine resolves that name to the request's instance.
    if (isMetaToolName(name) || alwaysOnNames.includes(name)) continue;
    // A lazily resolved tool: this call's tool, run as the call's request resolved it.
    if (typeof entry.resolve === 'function') {
      tools.set(
        name,
        lazyCallTool(name, entry, state.planned, (execute) => guardedExecute(name, entry.tool, execute)),
      );
      continue;
    }
    tools.set(name, guardTool(name, entry.tool));
  }
  return { tools, loadableNames };
}
