import {
  type CatalogEntry,
  type Clock,
  createToolSearchEngine,
  isMetaToolName,
  type JsonSchema,
  LOAD_TOOL_NAME,
  type LoadStateStore,
  type LoadToolInput,
  type LoadToolOutput,
  type MetaToolDefinition,
  type RankerFactory,
  type SearchToolsInput,
  type SearchToolsOutput,
  type StoreStats,
  type ToolDescriptor,
  type ToolFilter,
  type ToolSearchEngine,
  ToolSearchError,
  type ToolSearchEventListener,
  type ToolSearchRequest,
} from '@tool-search/core';
import {
  asSchema,
  jsonSchema,
  type ModelMessage,
  NoSuchToolError,
  type PrepareStepFunction,
  type Tool,
  type ToolCallRepairFunction,
  type ToolExecutionOptions,
  type ToolSet,
} from 'ai';
import { toConversationRecords } from './to-conversation-records';

/** The AI SDK's per-call runtime context (`runtimeContext` of generateText / streamText). */
export type RuntimeContext = Record<string, unknown>;

/** The meta-tools as AI SDK tools. With `search.autoLoad`, `load_tool` is never made active. */
export type MetaToolSet = {
  search_tools: Tool<SearchToolsInput, SearchToolsOutput>;
  load_tool: Tool<LoadToolInput, LoadToolOutput>;
};

/** Every tool one call can use: the meta-tools, the always-on tools and the catalog. */
export type ToolSearchToolSet<TOOLS extends ToolSet, ALWAYS_ON extends ToolSet> = MetaToolSet &
  ALWAYS_ON &
  TOOLS;

type ToolName<TOOLS extends ToolSet> = keyof TOOLS & string;

export interface CreateToolSearchOptions<
  TOOLS extends ToolSet,
  ALWAYS_ON extends ToolSet = Record<never, never>,
  REQUEST_CONTEXT = unknown,
> {
  /** The searchable catalog, keyed by name: hidden from the model until loaded. */
  readonly tools: TOOLS;
  /** Tools sent on every step (after the 'active' filter), after the meta-tools. Not searchable. */
  readonly alwaysOn?: ALWAYS_ON;
  readonly search?: {
    /** At most this many results per search (default 5). */
    readonly topK?: number;
    /** Drop results scoring below this (0..1, default 0). */
    readonly minScore?: number;
    /** Load what a search finds; `load_tool` is not offered. */
    readonly autoLoad?: boolean;
  };
  /** 'in-memory' (default), 'context' (read from the call's messages) or a store (e.g. Redis). */
  readonly storage?: 'in-memory' | 'context' | LoadStateStore;
  /** In-memory TTL in milliseconds (default one hour; 0 disables sweeping). */
  readonly ttl?: number;
  /** In-memory cap on threads (default 10,000; least recently used evicted first). */
  readonly maxThreads?: number;
  /** Cap on loaded tools per thread; the oldest load goes first. */
  readonly maxLoadedTools?: number;
  /** `requestContext` is what `forCall()` was given, else the call's `runtimeContext`. */
  readonly filter?: ToolFilter<Tool, REQUEST_CONTEXT>;
  /** With 'context' storage: results carry a receipt that a forged or edited message cannot reproduce. */
  readonly signingSecret?: string;
  /** Replaces the keyword ranker (for example with the hybrid ranker). */
  readonly ranker?: RankerFactory;
  readonly clock?: Clock;
  readonly onEvent?: ToolSearchEventListener;
  /** Bound on a store call before it fails (default 2,000 ms). */
  readonly storeTimeoutMs?: number;
}

export interface ToolSearchCallOptions<REQUEST_CONTEXT = unknown> {
  /**
   * The conversation this call belongs to. When left out, the call's `runtimeContext.threadId`
   * (a string) is used; calls with neither share the `'default'` thread.
   */
  readonly threadId?: string | null;
  /** Handed to `filter`. When left out, the call's `runtimeContext` is used. */
  readonly requestContext?: REQUEST_CONTEXT;
  /**
   * Tools resolved for this call only (for example MCP tools with the caller's credentials):
   * searchable, hidden until loaded, and a loaded name runs this call's instance.
   */
  readonly requestTools?: ToolSet;
}

/** The `prepareStep` of one call: each step's `activeTools` and `toolOrder`. */
export type ToolSearchPrepareStep<TOOLSET extends ToolSet> = <RUNTIME extends RuntimeContext>(
  options: Parameters<PrepareStepFunction<TOOLSET, RUNTIME>>[0],
) => Promise<{ activeTools: Array<ToolName<TOOLSET>>; toolOrder: Array<ToolName<TOOLSET>> }>;

/** What one generateText / streamText call (or one agent call, from `prepareCall`) spreads in. */
export interface ToolSearchCallSettings<TOOLSET extends ToolSet> {
  /** The catalog (each tool guarded), the always-on tools and the meta-tools. */
  readonly tools: TOOLSET;
  /** The first step's tools before load state is read: meta-tools, then always-on tools. */
  readonly activeTools: Array<ToolName<TOOLSET>>;
  /** Tools are sent in this order: meta-tools, always-on, loaded in load order. */
  readonly toolOrder: Array<ToolName<TOOLSET>>;
  /** Reads load state before each step and returns that step's `activeTools` and `toolOrder`. */
  readonly prepareStep: ToolSearchPrepareStep<TOOLSET>;
  /**
   * Answers a call to a tool that is not active with a tool error telling the model to search
   * and load it first. Returns null for anything else, so it can be chained with your own.
   */
  readonly repairToolCall: ToolCallRepairFunction<TOOLSET>;
}

export interface ToolSearch<
  TOOLS extends ToolSet,
  ALWAYS_ON extends ToolSet = Record<never, never>,
  REQUEST_CONTEXT = unknown,
> {
  /** Settings for one call. Call it once per generateText / streamText call (or in an agent's `prepareCall`). */
  forCall(
    options?: ToolSearchCallOptions<REQUEST_CONTEXT>,
  ): ToolSearchCallSettings<ToolSearchToolSet<TOOLS, ALWAYS_ON>>;
  /**
   * The tool set's shape for an agent's constructor (its types and UI message validation).
   * These tools refuse to run: each call gets working ones from `forCall()`.
   */
  readonly tools: ToolSearchToolSet<TOOLS, ALWAYS_ON>;
  /** A system-prompt paragraph telling the model how to use the meta-tools. */
  readonly instructions: string;
  /** The engine behind this binding (for benchmarks and advanced use). */
  readonly engine: ToolSearchEngine<Tool, REQUEST_CONTEXT>;
  /** Loaded names of a thread; with 'context' storage, pass the conversation's messages. */
  getLoadedToolNames(
    threadId?: string | null,
    messages?: readonly ModelMessage[],
  ): Promise<readonly string[]>;
  clearState(threadId?: string | null): Promise<void>;
  clearAllState(): Promise<void>;
  getStateStats(): Promise<StoreStats>;
  /** Removes expired threads now; returns how many were removed. */
  cleanupNow(): Promise<number>;
  /** Stops timers and releases the store; safe to call twice. */
  dispose(): Promise<void>;
}

/**
 * Tool search for the AI SDK: a catalog of tools hidden until the model finds them with
 * `search_tools` and loads them with `load_tool`. Load state outlives a call, per thread.
 *
 * ```ts
 * const toolSearch = createToolSearch({ tools: catalog, alwaysOn: { getTime } });
 * const result = await generateText({
 *   model,
 *   ...toolSearch.forCall({ threadId: 'user-42' }),
 *   stopWhen: isStepCount(10),
 *   prompt,
 * });
 * ```
 */
export function createToolSearch<
  TOOLS extends ToolSet,
  ALWAYS_ON extends ToolSet = Record<never, never>,
  REQUEST_CONTEXT = unknown,
>(
  options: CreateToolSearchOptions<TOOLS, ALWAYS_ON, REQUEST_CONTEXT>,
): ToolSearch<TOOLS, ALWAYS_ON, REQUEST_CONTEXT> {
  if (options === null || typeof options !== 'object') {
    throw new ToolSearchError('INVALID_OPTIONS', 'createToolSearch needs an options object with `tools`.');
  }
  const catalogTools = ownTools(options.tools, 'tools');
  const alwaysOnTools = ownTools(options.alwaysOn ?? {}, 'alwaysOn');
  const catalogNames = new Set(catalogTools.map(([name]) => name));
  for (const [name] of alwaysOnTools) {
    // The engine would leave such a tool out of each request; in a tool set keyed by name it
    // would replace a meta-tool or a catalog tool, so it is refused here, once.
    if (isMetaToolName(name)) {
      throw new ToolSearchError(
        'RESERVED_TOOL_NAME',
        `An always-on tool may not be named "${name}": the name belongs to a tool-search meta-tool.`,
      );
    }
    if (catalogNames.has(name)) {
      throw new ToolSearchError(
        'DUPLICATE_TOOL_NAME',
        `"${name}" is both an always-on tool and a catalog tool; give it to one of them.`,
      );
    }
  }

  const engine = createToolSearchEngine<Tool, REQUEST_CONTEXT>({
    catalog: catalogTools.map(([name, tool]) => toCatalogEntry(name, tool)),
    search: options.search,
    storage: options.storage,
    ttl: options.ttl,
    maxThreads: options.maxThreads,
    maxLoadedTools: options.maxLoadedTools,
    filter: options.filter,
    signingSecret: options.signingSecret,
    ranker: options.ranker,
    clock: options.clock,
    onEvent: options.onEvent,
    storeTimeoutMs: options.storeTimeoutMs,
  });

  const alwaysOnEntries = alwaysOnTools.map(([name, tool]) => toCatalogEntry(name, tool));
  const alwaysOnNames = alwaysOnTools.map(([name]) => name);
  const firstStep = [...engine.metaTools.map((definition) => definition.name), ...alwaysOnNames];
  const contextStorage = options.storage === 'context';

  type TOOLSET = ToolSearchToolSet<TOOLS, ALWAYS_ON>;

  function forCall(
    callOptions: ToolSearchCallOptions<REQUEST_CONTEXT> = {},
  ): ToolSearchCallSettings<TOOLSET> {
    const requestEntries =
      callOptions.requestTools === undefined
        ? undefined
        : ownTools(callOptions.requestTools, 'requestTools').map(([name, tool]) =>
            toCatalogEntry(name, tool),
          );

    // One request per call. It starts at the call's first step (when the runtime context is
    // known) or, for approved tool calls the SDK replays before its first step, at that call.
    let request: ToolSearchRequest<Tool> | undefined;
    let visible: ReadonlySet<string> | undefined;

    const start = (runtimeContext: RuntimeContext | undefined): ToolSearchRequest<Tool> => {
      const threadId =
        callOptions.threadId !== undefined
          ? callOptions.threadId
          : typeof runtimeContext?.threadId === 'string'
            ? runtimeContext.threadId
            : undefined;
      const requestContext =
        callOptions.requestContext !== undefined
          ? callOptions.requestContext
          : (runtimeContext as REQUEST_CONTEXT | undefined);
      const started = engine.startRequest({
        threadId,
        requestContext,
        alwaysOn: alwaysOnEntries,
        requestTools: requestEntries,
      });
      request = started;
      visible = undefined;
      return started;
    };

    const planStep = async (
      current: ToolSearchRequest<Tool>,
      messages: readonly ModelMessage[] | undefined,
    ): Promise<readonly string[]> => {
      const plan = await current.prepareStep(
        contextStorage ? { records: toConversationRecords(messages) } : {},
      );
      visible = new Set(plan.visible);
      return plan.visible;
    };

    /** The request of this call, with the view of its current step. */
    const current = async (
      messages: readonly ModelMessage[] | undefined,
    ): Promise<ToolSearchRequest<Tool>> => {
      if (request !== undefined && visible !== undefined) return request;
      const started = request ?? start(undefined);
      await planStep(started, messages);
      return started;
    };

    const prepareStep: ToolSearchPrepareStep<TOOLSET> = async (step) => {
      const started = step.stepNumber === 0 || request === undefined ? start(step.runtimeContext) : request;
      const names = (await planStep(started, step.messages)) as Array<ToolName<TOOLSET>>;
      return { activeTools: [...names], toolOrder: [...names] };
    };

    const guardedExecute = (name: string, tool: Tool, execute: NonNullable<Tool['execute']>) =>
      function execute_(input: unknown, executionOptions: ToolExecutionOptions<unknown>) {
        // Visible in this step: run as is, so a streaming tool keeps streaming.
        if (visible?.has(name)) return execute.call(tool, input, executionOptions);
        return (async () => {
          const active = await current(executionOptions?.messages);
          const decision = await active.guard(name);
          if (!decision.allowed) throw new Error(decision.message ?? `Tool "${name}" is not loaded.`);
          // Allowed by the engine outside a planned step (an approved call the SDK replays before
          // its first step): a promise is all the SDK accepts here, so a stream gives its last value.
          return lastValue(await execute.call(tool, input, executionOptions));
        })();
      };

    const guardTool = (name: string, tool: Tool): Tool =>
      typeof tool.execute === 'function' ? withExecute(tool, guardedExecute(name, tool, tool.execute)) : tool;
    const tools = new Map<string, Tool>();
    for (const definition of engine.metaTools) {
      tools.set(
        definition.name,
        metaTool(definition, async (input, executionOptions) => {
          const active = await current(executionOptions?.messages);
          return definition.name === LOAD_TOOL_NAME ? active.loadTool(input) : active.searchTools(input);
        }),
      );
    }
    for (const [name, tool] of alwaysOnTools) tools.set(name, tool);
    for (const [name, tool] of catalogTools) tools.set(name, guardTool(name, tool));
    for (const entry of requestEntries ?? []) {
      const name = entry.descriptor.name;
      // A request tool never replaces a meta-tool or an always-on tool; it replaces a catalog
      // tool of the same name, as the engine resolves that name to the request's instance.
      if (isMetaToolName(name) || alwaysOnNames.includes(name)) continue;
      tools.set(name, guardTool(name, entry.tool));
    }

    const repairToolCall: ToolCallRepairFunction<TOOLSET> = async ({ toolCall, error, messages }) => {
      if (!NoSuchToolError.isInstance(error)) return null;
      const active = await current(messages);
      const decision = await active.guard(toolCall.toolName);
      if (decision.allowed) return null;
      throw new Error(decision.message ?? `Tool "${toolCall.toolName}" is not available.`);
    };

    return {
      tools: toToolSet(tools) as TOOLSET,
      activeTools: [...firstStep] as Array<ToolName<TOOLSET>>,
      toolOrder: [...firstStep] as Array<ToolName<TOOLSET>>,
      prepareStep,
      repairToolCall,
    };
  }

  const inertTools = new Map<string, Tool>();
  const refuse = (name: string) => () => {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `Tool "${name}" was called through toolSearch.tools, which only describes the tool set. ` +
        "Spread toolSearch.forCall() into the call (or return it from the agent's prepareCall).",
    );
  };
  for (const definition of engine.metaTools)
    inertTools.set(definition.name, metaTool(definition, refuse(definition.name)));
  for (const [name, tool] of alwaysOnTools) inertTools.set(name, tool);
  for (const [name, tool] of catalogTools) inertTools.set(name, withExecute(tool, refuse(name)));

  return {
    forCall,
    tools: toToolSet(inertTools) as TOOLSET,
    engine,
    instructions: engine.instructions,
    getLoadedToolNames: (threadId, messages) =>
      engine.getLoadedToolNames(threadId, contextStorage ? toConversationRecords(messages) : undefined),
    clearState: async (threadId) => {
      await engine.clearState(threadId);
    },
    clearAllState: async () => {
      await engine.clearAllState();
    },
    getStateStats: async () => engine.getStateStats(),
    cleanupNow: async () => engine.cleanupNow(),
    dispose: async () => {
      await engine.dispose();
    },
  };
}

/** The own entries of a tool record, checked to be objects. */
function ownTools(record: ToolSet, label: string): Array<[string, Tool]> {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `\`${label}\` must be an object of AI SDK tools keyed by name.`,
    );
  }
  return Object.entries(record).map(([name, tool]) => {
    if (tool === null || typeof tool !== 'object') {
      throw new ToolSearchError('INVALID_OPTIONS', `\`${label}.${name}\` is not an AI SDK tool.`);
    }
    return [name, tool as Tool];
  });
}

/** An AI SDK tool as the engine sees it: its key, its description, its input's JSON Schema. */
export function toCatalogEntry(name: string, tool: Tool): CatalogEntry<Tool> {
  const descriptor: { name: string; description?: string; parameters?: JsonSchema } = { name };
  if (typeof tool.description === 'string') descriptor.description = tool.description;
  const parameters = inputJsonSchema(tool);
  if (parameters !== undefined) descriptor.parameters = parameters;
  return { descriptor: descriptor as ToolDescriptor, tool };
}

/** The input's JSON Schema when it is available synchronously (Zod, Standard Schema, jsonSchema()). */
function inputJsonSchema(tool: Tool): JsonSchema | undefined {
  if (tool.inputSchema == null) return undefined;
  try {
    const schema = asSchema(tool.inputSchema).jsonSchema;
    if (
      schema === null ||
      typeof schema !== 'object' ||
      typeof (schema as PromiseLike<unknown>).then === 'function'
    ) {
      return undefined;
    }
    return schema as JsonSchema;
  } catch {
    return undefined; // a schema that cannot be converted is still searchable by name and description
  }
}

/** A core meta-tool definition wrapped as an AI SDK tool (never redefined here). */
function metaTool(
  definition: MetaToolDefinition,
  execute: (input: unknown, options: ToolExecutionOptions<unknown>) => unknown,
): Tool {
  return {
    description: definition.description,
    // No validation here: the engine checks what the model sends and answers with a clear message.
    inputSchema: jsonSchema(definition.inputSchema as Parameters<typeof jsonSchema>[0]),
    execute,
  } as Tool;
}

/** A copy of the tool (same prototype, same fields) whose `execute` is replaced; tools without one are kept. */
function withExecute(tool: Tool, execute: unknown): Tool {
  if (typeof tool.execute !== 'function' || typeof execute !== 'function') return tool;
  const prototype = Object.getPrototypeOf(tool) as object | null;
  if (prototype === Object.prototype) return { ...tool, execute } as Tool; // tool() returns plain objects
  return Object.assign(Object.create(prototype) as Tool, tool, { execute });
}

/** A tool set (own properties only: a tool may be named `__proto__`). */
function toToolSet(entries: Iterable<readonly [string, Tool]>): ToolSet {
  const set: ToolSet = {};
  for (const [name, tool] of entries) {
    if (name === '__proto__') {
      Object.defineProperty(set, name, { value: tool, enumerable: true, writable: true, configurable: true });
    } else set[name] = tool;
  }
  return set;
}

/** The last value of an async iterable (a streaming tool's final output), or the value itself. */
async function lastValue(result: unknown): Promise<unknown> {
  if (result === null || typeof result !== 'object' || !(Symbol.asyncIterator in result)) return result;
  let last: unknown;
  for await (const value of result as AsyncIterable<unknown>) last = value;
  return last;
}
