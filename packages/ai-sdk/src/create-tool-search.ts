import {
  checkOptionNames,
  createStateControls,
  createToolSearchEngine,
  FORWARDED_ENGINE_OPTION_NAMES,
  isMetaToolName,
  type OptionNamesOf,
  optionsObject,
  type StateControls,
  type ToolSearchEngine,
  type ToolSearchEngineOptions,
  ToolSearchError,
} from '@tool-search/core';
import type { ModelMessage, Tool, ToolSet } from 'ai';
import {
  type CallBinding,
  createCallSettings,
  type RuntimeContext,
  type ToolSearchCallOptions,
  type ToolSearchCallSettings,
  type ToolSearchToolSet,
} from './create-call-settings';
import { ownTools, toCatalogEntry } from './to-catalog-entry';
import { toConversationRecords } from './to-conversation-records';
import { toMetaTool, toToolSet, withExecute } from './tool-set';

/**
 * The catalog, the always-on tools, and every option of the core engine (search, storage, ttl,
 * maxThreads, maxLoadedTools, filter, signingSecret, ranker, learning, clock, onEvent,
 * storeTimeoutMs, searchTimeoutMs, filterTimeoutMs),
 * forwarded unchanged. The filter's `requestContext` is what `forCall()` was given, else the
 * call's `runtimeContext`. With `learning` (`createLearning()`), each successful call of a
 * catalog or request tool tells the engine, which records the query of the search that found it
 * and ranks later searches with it.
 */
export interface CreateToolSearchOptions<
  TOOLS extends ToolSet,
  ALWAYS_ON extends ToolSet = Record<never, never>,
  REQUEST_CONTEXT = unknown,
> extends Omit<ToolSearchEngineOptions<Tool, REQUEST_CONTEXT>, 'catalog'> {
  /** The searchable catalog, keyed by name: hidden from the model until loaded. */
  readonly tools: TOOLS;
  /** Tools sent on every step (after the 'active' filter), after the meta-tools. Not searchable. */
  readonly alwaysOn?: ALWAYS_ON;
  /**
   * Add `toolSearch.instructions` to each call's instructions, after the call's own (default
   * true); false to leave them as they are.
   */
  readonly instructions?: boolean;
  /**
   * Use the provider's native deferred loading (docs/advanced.md): every catalog tool is sent
   * deferred, the tool list never changes, and `search_tools` refers what it finds so the model
   * calls it from its next step. `'auto'` reads each call's model (`forCall({ model })`):
   * Anthropic and OpenAI Responses models run natively, any other keeps the default mode. Off by
   * default.
   */
  readonly native?: 'auto' | 'anthropic' | 'openai';
}

/** `createToolSearch`'s option names: its own, and the engine's it forwards. */
const CREATE_TOOL_SEARCH_OPTION_NAMES = {
  ...FORWARDED_ENGINE_OPTION_NAMES,
  tools: true,
  alwaysOn: true,
  instructions: true,
  native: true,
} as const satisfies OptionNamesOf<CreateToolSearchOptions<ToolSet>>;
/** `forCall`'s option names. */
const FOR_CALL_OPTION_NAMES = {
  threadId: true,
  requestContext: true,
  requestTools: true,
  prepareStep: true,
  repairToolCall: true,
  abortSignal: true,
  model: true,
  allowSystemInMessages: true,
} as const satisfies OptionNamesOf<ToolSearchCallOptions>;

export interface ToolSearch<
  TOOLS extends ToolSet,
  ALWAYS_ON extends ToolSet = Record<never, never>,
  REQUEST_CONTEXT = unknown,
> extends StateControls {
  /**
   * Settings for one call. Call it once per generateText / streamText call (or in an agent's
   * `prepareCall`). Your own `prepareStep` and `repairToolCall` go in its options, to be combined
   * with ours: next to the spread settings, they would replace ours or be ignored.
   */
  forCall<RUNTIME_CONTEXT extends RuntimeContext = RuntimeContext>(
    options?: ToolSearchCallOptions<
      REQUEST_CONTEXT,
      ToolSearchToolSet<TOOLS, ALWAYS_ON>,
      RUNTIME_CONTEXT
    > | null,
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
    threadId?: string | number | bigint | null,
    messages?: readonly ModelMessage[],
  ): Promise<readonly string[]>;
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
  checkOptionNames(options, CREATE_TOOL_SEARCH_OPTION_NAMES, 'createToolSearch');
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

  const { tools: _catalog, alwaysOn: _alwaysOn, instructions = true, native, ...engineOptions } = options;
  if (native !== undefined && native !== 'auto' && native !== 'anthropic' && native !== 'openai') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `createToolSearch's native must be 'auto', 'anthropic' or 'openai', got ${typeof native === 'string' ? JSON.stringify((native as string).slice(0, 40)) : typeof native}`,
    );
  }
  if (typeof instructions !== 'boolean') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `createToolSearch's instructions must be true or false, got ${typeof instructions}: the paragraph itself is toolSearch.instructions.`,
    );
  }
  const catalogEntries = catalogTools.map(([name, tool]) => toCatalogEntry(name, tool));
  const engine = createToolSearchEngine<Tool, REQUEST_CONTEXT>({ ...engineOptions, catalog: catalogEntries });

  const contextStorage = options.storage === 'context';

  type TOOLSET = ToolSearchToolSet<TOOLS, ALWAYS_ON>;

  const binding: CallBinding<REQUEST_CONTEXT> = {
    engine,
    catalogTools,
    alwaysOnTools,
    alwaysOnEntries: alwaysOnTools.map(([name, tool]) => toCatalogEntry(name, tool)),
    contextStorage,
    filtered: options.filter !== undefined,
    learning: options.learning !== undefined && options.learning !== null,
    sharedStore: typeof options.storage === 'object' && options.storage !== null,
    threads: { fromRuntimeContext: false },
    instructions: instructions ? engine.instructions : undefined,
    warned: new Set(),
    native,
    descriptors: new Map(catalogEntries.map((entry) => [entry.descriptor.name, entry.descriptor])),
  };
  const forCall = <RUNTIME_CONTEXT extends RuntimeContext = RuntimeContext>(
    callOptions?: ToolSearchCallOptions<REQUEST_CONTEXT, TOOLSET, RUNTIME_CONTEXT> | null,
  ) => {
    const given = optionsObject(callOptions, 'forCall');
    checkOptionNames(given, FOR_CALL_OPTION_NAMES, 'forCall');
    return createCallSettings(
      binding,
      given as ToolSearchCallOptions<REQUEST_CONTEXT>,
    ) as unknown as ToolSearchCallSettings<TOOLSET>;
  };

  const inertTools = new Map<string, Tool>();
  const refuse = (name: string) => () => {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `Tool "${name}" was called through toolSearch.tools, which only describes the tool set. ` +
        "Spread toolSearch.forCall() into the call (or return it from the agent's prepareCall).",
    );
  };
  for (const definition of engine.metaTools)
    inertTools.set(definition.name, toMetaTool(definition, refuse(definition.name)));
  for (const [name, tool] of alwaysOnTools) inertTools.set(name, tool);
  for (const [name, tool] of catalogTools) inertTools.set(name, withExecute(tool, refuse(name)));

  return {
    forCall,
    tools: toToolSet(inertTools) as TOOLSET,
    engine,
    instructions: engine.instructions,
    getLoadedToolNames: (threadId, messages) =>
      engine.getLoadedToolNames(threadId, contextStorage ? toConversationRecords(messages) : undefined),
    ...createStateControls(engine),
  };
}
