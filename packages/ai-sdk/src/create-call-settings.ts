import {
  type CatalogEntry,
  checkThreadId,
  createMetaToolDefinitions,
  decideNativeMode,
  isAbortSignal,
  isLazyTool,
  type LazyTool,
  type LoadToolInput,
  type LoadToolOutput,
  type NativeDeferralOptions,
  openaiFunctionDefinition,
  type SearchToolsInput,
  type SearchToolsOutput,
  type ToolDescriptor,
  type ToolSearchEngine,
  ToolSearchError,
  toolSearchInstructions,
} from '@tool-search/core';
import type {
  LanguageModel,
  PrepareStepFunction,
  PrepareStepResult,
  Tool,
  ToolCallRepairFunction,
  ToolSet,
} from 'ai';
import { createCallPrepareStep } from './call-prepare-step';
import { createCallRepair } from './call-repair';
import { createCallState } from './call-state';
import { createCallTools } from './call-tools';
import { lazyCatalogEntry } from './lazy-tools';
import type { WarnedHooks } from './replaced-hooks';
import { ownTools, toCatalogEntry } from './to-catalog-entry';
import { toToolSet } from './tool-set';

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

export interface ToolSearchCallOptions<
  REQUEST_CONTEXT = unknown,
  TOOLSET extends ToolSet = ToolSet,
  RUNTIME_CONTEXT extends RuntimeContext = RuntimeContext,
> {
  /**
   * The conversation this call belongs to (a number is the thread of its string). When left out,
   * the call's `runtimeContext.threadId` (a string or a number) is used; calls with neither share
   * the `'default'` thread. A bigint is the thread of its string too; any other type (an object,
   * `NaN`) throws `INVALID_OPTIONS`.
   */
  readonly threadId?: string | number | bigint | null;
  /** Handed to `filter`. When left out, the call's `runtimeContext` is used. */
  readonly requestContext?: REQUEST_CONTEXT;
  /**
   * Tools resolved for this call only (for example MCP tools with the caller's credentials):
   * searchable, hidden until loaded, and a loaded name runs this call's instance.
   */
  readonly requestTools?: Readonly<Record<string, Tool | LazyTool<never>>>;
  /**
   * Your own `prepareStep` (an agent's, in `prepareCall`): run after ours on every step, as
   * `composePrepareStep(ours, yours)` would. It may narrow `activeTools`, never widen them.
   */
  readonly prepareStep?: PrepareStepFunction<TOOLSET, RUNTIME_CONTEXT>;
  /**
   * Your own `repairToolCall` (an agent's, in `prepareCall`), combined with ours: it is asked
   * to repair invalid input and names that are no tool of this call (a typo), never a call of a
   * catalog tool that is not loaded or is filtered (that one gets our tool error). What it
   * returns must name a tool that may run in this step, or the model gets our tool error for it.
   */
  readonly repairToolCall?: ToolCallRepairFunction<TOOLSET>;
  /**
   * The call's `abortSignal`, which the SDK does not hand to `prepareStep`: aborting it ends a
   * step that waits on a slow store or filter at once. From the call's first tool call on, the
   * signal the SDK hands its tools is used without it.
   */
  readonly abortSignal?: AbortSignal | null;
  /**
   * The call's model. Read with `createToolSearch({ native: 'auto' })`, which needs it: its
   * provider id decides whether the call uses the provider's native deferred loading.
   */
  readonly model?: LanguageModel;
  /**
   * Native mode: your own messages hold system messages on purpose (the AI SDK's
   * `allowSystemInMessages`). Native mode's settings turn the SDK's flag on for tool search's own
   * tool-addition message, and its prepareStep refuses any other system message unless this is true.
   */
  readonly allowSystemInMessages?: boolean;
}

/**
 * The `prepareStep` of one call: each step's `activeTools` and `toolOrder`, and whatever else
 * the `prepareStep` given to `forCall` returns.
 */
export type ToolSearchPrepareStep<TOOLSET extends ToolSet> = <RUNTIME extends RuntimeContext>(
  options: Parameters<PrepareStepFunction<TOOLSET, RUNTIME>>[0],
) => Promise<
  NonNullable<PrepareStepResult<TOOLSET, RUNTIME>> & {
    activeTools: Array<ToolName<TOOLSET>>;
    toolOrder: Array<ToolName<TOOLSET>>;
  }
>;

/** What one generateText / streamText call (or one agent call, from `prepareCall`) spreads in. */
export interface ToolSearchCallSettings<TOOLSET extends ToolSet> {
  /** The catalog (each tool guarded), the always-on tools and the meta-tools. */
  readonly tools: TOOLSET;
  /** The first step's tools before load state is read: meta-tools, then always-on tools. */
  readonly activeTools: Array<ToolName<TOOLSET>>;
  /** Tools are sent in this order: meta-tools, always-on, loaded in load order. */
  readonly toolOrder: Array<ToolName<TOOLSET>>;
  /**
   * Reads load state before each step and returns that step's `activeTools` and `toolOrder`,
   * and its `instructions`: the call's own, with tool search's paragraph added once.
   */
  readonly prepareStep: ToolSearchPrepareStep<TOOLSET>;
  /**
   * Answers a call to a tool that is not active with a tool error telling the model to search
   * and load it first; the rest goes to the `repairToolCall` given to `forCall`, if any.
   */
  readonly repairToolCall: ToolCallRepairFunction<TOOLSET>;
  /**
   * Native mode only: `true`, for the system message that brings earlier loads back (the SDK's
   * streamText checks each step's messages); tool search's prepareStep refuses any other system
   * message unless `forCall` was given `allowSystemInMessages: true`.
   */
  readonly allowSystemInMessages?: boolean;
}

/** What every call of one `createToolSearch` shares. */
export interface CallBinding<REQUEST_CONTEXT> {
  readonly engine: ToolSearchEngine<Tool, REQUEST_CONTEXT>;
  readonly catalogTools: ReadonlyArray<[string, Tool]>;
  readonly alwaysOnTools: ReadonlyArray<[string, Tool]>;
  readonly alwaysOnEntries: readonly CatalogEntry<Tool>[];
  readonly contextStorage: boolean;
  /** Whether the engine has a filter (which reads the request context). */
  readonly filtered: boolean;
  /** Whether the engine learns from use (a catalog tool's successful call is then told to it). */
  readonly learning: boolean;
  /** Whether the load state is a store of the user's (shared by processes: Redis, say). */
  readonly sharedStore: boolean;
  /** Set once a call of this tool search took its thread from `runtimeContext.threadId`. */
  readonly threads: { fromRuntimeContext: boolean };
  /** Tool search's system-prompt paragraph, added to each call's instructions; none when turned off. */
  readonly instructions: string | undefined;
  /** The hooks a call of this tool search was found to have replaced, warned about once each. */
  readonly warned: WarnedHooks;
  /** `createToolSearch`'s `native` option (undefined: off). */
  readonly native: NativeDeferralOptions['provider'] | undefined;
  /** The catalog's descriptors by name (what native mode's OpenAI definitions are made of). */
  readonly descriptors: ReadonlyMap<string, ToolDescriptor>;
}

/**
 * The settings of one call: its tool set (meta-tools bound to this call's request, the
 * always-on tools, the catalog with each `execute` guarded), the first step's `activeTools`,
 * and the `prepareStep` and `repairToolCall` that consult the engine for this call. The call's
 * state (call-state.ts) is shared by its prepareStep (call-prepare-step.ts), its tools
 * (call-tools.ts) and its repair (call-repair.ts), each through the state's functions.
 */
export function createCallSettings<REQUEST_CONTEXT>(
  binding: CallBinding<REQUEST_CONTEXT>,
  callOptions: ToolSearchCallOptions<REQUEST_CONTEXT>,
): ToolSearchCallSettings<ToolSet> {
  const { engine, catalogTools, alwaysOnTools } = binding;
  const userPrepareStep = optionalFunction(callOptions.prepareStep, 'prepareStep');
  const userRepair = optionalFunction(callOptions.repairToolCall, 'repairToolCall');
  checkThreadId(callOptions.threadId, "forCall's threadId");
  const givenSignal = optionalSignal(callOptions.abortSignal);
  const alwaysOnNames = alwaysOnTools.map(([name]) => name);
  const firstStep = [...engine.metaTools.map((definition) => definition.name), ...alwaysOnNames];
  const requestEntries =
    callOptions.requestTools === undefined
      ? undefined
      : ownTools(callOptions.requestTools as ToolSet, 'requestTools').map(([name, tool]) =>
          isLazyTool(tool) ? lazyCatalogEntry(name, tool) : toCatalogEntry(name, tool),
        );

  const nativeOptions = nativeOptionsOf(binding.native, callOptions.model);
  const provider = nativeOptions === undefined ? undefined : decideNativeMode(nativeOptions).provider;
  const definitionsOf = (names: readonly string[]) => {
    const requestDescriptors = new Map(
      (requestEntries ?? []).map((entry) => [entry.descriptor.name, entry.descriptor]),
    );
    return names.flatMap((name) => {
      const descriptor = requestDescriptors.get(name) ?? binding.descriptors.get(name);
      return descriptor === undefined ? [] : [openaiFunctionDefinition(descriptor)];
    });
  };
  const native =
    provider === undefined
      ? undefined
      : { provider, metaTools: createMetaToolDefinitions({ autoLoad: true }), definitionsOf };

  const state = createCallState(binding, callOptions, requestEntries, nativeOptions);
  const { tools, loadableNames } = createCallTools({
    engine,
    catalogTools,
    alwaysOnTools,
    alwaysOnNames,
    requestEntries,
    state,
    learning: binding.learning,
    ...(native === undefined ? {} : { native }),
  });
  const allNames = [...tools.keys()];
  const prepareStep = createCallPrepareStep({
    state,
    givenSignal,
    instructions:
      native === undefined || binding.instructions === undefined
        ? binding.instructions
        : toolSearchInstructions({ autoLoad: true }),
    userPrepareStep,
    ...(native === undefined
      ? {}
      : {
          native: {
            provider: native.provider,
            allNames,
            definitionsOf,
            allowSystemInMessages: optionalBoolean(
              callOptions.allowSystemInMessages,
              'allowSystemInMessages',
            ),
          },
        }),
  });
  const repairToolCall = createCallRepair({
    state,
    tools,
    loadableNames,
    filtered: binding.filtered,
    userRepair,
  });

  const first = native === undefined ? firstStep : allNames;
  return {
    tools: toToolSet(tools) as ToolSet,
    activeTools: [...first] as Array<ToolName<ToolSet>>,
    toolOrder: [...first] as Array<ToolName<ToolSet>>,
    prepareStep,
    repairToolCall,
    ...(native === undefined ? {} : { allowSystemInMessages: true }),
  };
}

/** An optional boolean option of `forCall` (absent: false). */
function optionalBoolean(value: unknown, name: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `forCall's ${name} must be true or false, got ${typeof value}`,
    );
  }
  return value;
}

/**
 * The native deferral one call asks the engine for: none without the option; `'auto'` reads the
 * provider id of the call's model, which `forCall` must then be given.
 */
function nativeOptionsOf(
  native: NativeDeferralOptions['provider'] | undefined,
  model: LanguageModel | undefined,
): NativeDeferralOptions | undefined {
  if (native === undefined) return undefined;
  const modelProvider =
    model !== null &&
    typeof model === 'object' &&
    typeof (model as { provider?: unknown }).provider === 'string'
      ? (model as { provider: string }).provider
      : undefined;
  if (native === 'auto' && model == null) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      "createToolSearch's native: 'auto' reads the call's model: pass it to forCall({ model }), or name the provider (native: 'anthropic' | 'openai').",
    );
  }
  return modelProvider === undefined ? { provider: native } : { provider: native, modelProvider };
}

/** `forCall`'s optional `abortSignal`: absent (undefined or null), or an `AbortSignal`. */
function optionalSignal(value: unknown): AbortSignal | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isAbortSignal(value)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `forCall's abortSignal must be an AbortSignal, got ${Array.isArray(value) ? 'an array' : typeof value}`,
    );
  }
  return value;
}

/** An optional function option of `forCall`: absent (undefined or null), or a function. */
function optionalFunction<F>(value: F | null | undefined, name: string): F | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'function') {
    throw new ToolSearchError('INVALID_OPTIONS', `forCall's ${name} must be a function, got ${typeof value}`);
  }
  return value;
}
