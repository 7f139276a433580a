// Provider-native deferred loading, Mastra side. Mastra's model calls go through the AI SDK
// providers, and Mastra passes on what they read: a tool's `providerOptions` (so a catalog tool
// carries `providerOptions.<provider>.deferLoading`), a tool's `toModelOutput` (so `search_tools`'
// result carries Anthropic tool references as `custom` parts), and a tool invocation's
// `providerMetadata` as the tool result's provider options (so it carries OpenAI's
// `additionalTools`). What is referred, and what a thread loaded earlier, the engine decides.
import type {
  MetaToolCallOptions,
  MetaToolDefinition,
  NativeProvider,
  SearchToolsOutput,
} from '@tool-search/core';
import { openaiFunctionDefinition, SEARCH_TOOLS_NAME, ToolSearchError, withFields } from '@tool-search/core';
import { reportingSuccess } from './call-success';
import { toCatalogEntry } from './catalog-entries';
import { modelFacingSchema } from './meta-tool';

/** The `native` option: `'auto'` reads the model's provider id; a provider name forces its wire shapes. */
export type NativeOption = 'auto' | NativeProvider;

/**
 * Checks the `native` option when the processor is made (undefined: off).
 * CORE-GAP: the same check as the LangChain adapter's; the core could export it.
 */
export function checkNativeOption(value: unknown): NativeOption | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'auto' || value === 'anthropic' || value === 'openai') return value;
  throw new ToolSearchError(
    'INVALID_OPTIONS',
    `\`native\` of ToolSearchProcessor must be 'auto', 'anthropic' or 'openai' (or left out), got ${JSON.stringify(String(value)).slice(0, 60)}.`,
  );
}

/** The AI SDK provider id of the step's model (`'anthropic.messages'`, `'openai.responses'`…), as the core reads it. */
export function modelProviderOf(model: unknown): string | undefined {
  if (model === null || typeof model !== 'object') return undefined;
  const provider = (model as { provider?: unknown }).provider;
  return typeof provider === 'string' ? provider : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** What a deferred tool's `execute` asks before it runs, and tells after a successful call. */
export interface DeferredToolHooks {
  readonly guard: () => Promise<{ allowed: boolean; message?: string }>;
  /** The call succeeded (see `reportingSuccess`), for learning from use; undefined without learning. */
  readonly succeeded: (() => void) | undefined;
}

/**
 * A catalog tool as sent in native mode: a copy whose `providerOptions.<provider>` has
 * `deferLoading: true` (its other options kept), and whose `execute` asks the guard first, so a
 * call of a tool the thread never found (the provider knows its definition) does not run: the
 * model gets the guard's message as the tool's error.
 */
export function deferredTool(tool: unknown, provider: NativeProvider, hooks: DeferredToolHooks): unknown {
  if (!isObject(tool)) return tool;
  const given = isObject(tool.providerOptions) ? tool.providerOptions : {};
  const own = isObject(given[provider]) ? given[provider] : {};
  const providerOptions = { ...given, [provider]: { ...own, deferLoading: true } };
  const execute = tool.execute;
  const run = typeof execute === 'function' ? reportingSuccess(execute, hooks.succeeded) : undefined;
  return withFields(tool as { providerOptions?: unknown; execute?: unknown }, {
    providerOptions,
    ...(run
      ? {
          async execute(this: unknown, ...callArgs: unknown[]) {
            const decision = await hooks.guard();
            if (!decision.allowed) throw new Error(decision.message ?? 'This tool is not available.');
            return run(this, callArgs);
          },
        }
      : {}),
  });
}

/** The tools a `search_tools` result referred (its `referred`), or none. */
function referredOf(output: unknown): string[] {
  const referred = isObject(output) ? (output as Partial<SearchToolsOutput>).referred : undefined;
  return Array.isArray(referred) ? referred.filter((name): name is string => typeof name === 'string') : [];
}

/**
 * `search_tools`' `toModelOutput` for Anthropic: the result as JSON text, then one `custom` part
 * per referred tool, which `@ai-sdk/anthropic` sends as a `tool_reference` block.
 */
export function anthropicReferences(output: unknown) {
  return {
    type: 'content' as const,
    value: [
      { type: 'text' as const, text: JSON.stringify(output) },
      ...referredOf(output).map((toolName) => ({
        type: 'custom' as const,
        providerOptions: { anthropic: { type: 'tool-reference', toolName } },
      })),
    ],
  };
}

interface InvocationPart {
  type: 'tool-invocation';
  toolInvocation: { state: string; toolName: string; toolCallId: string; result?: unknown };
  providerMetadata?: Record<string, unknown>;
}

function searchResults(messages: readonly unknown[] | undefined): InvocationPart[] {
  const found: InvocationPart[] = [];
  for (const message of Array.isArray(messages) ? messages : []) {
    const parts = isObject(message) && isObject(message.content) ? message.content.parts : undefined;
    if (!Array.isArray(parts)) continue;
    for (const part of parts as unknown[]) {
      if (!isObject(part) || part.type !== 'tool-invocation' || !isObject(part.toolInvocation)) continue;
      const invocation = part.toolInvocation as InvocationPart['toolInvocation'];
      if (invocation.toolName === SEARCH_TOOLS_NAME && invocation.state === 'result') {
        found.push(part as unknown as InvocationPart);
      }
    }
  }
  return found;
}

/** Every tool the conversation's `search_tools` results referred (so the model's context holds it). */
export function referredInMessages(messages: readonly unknown[] | undefined): Set<string> {
  const names = new Set<string>();
  for (const part of searchResults(messages)) {
    for (const name of referredOf(part.toolInvocation.result)) names.add(name);
  }
  return names;
}

/** A tool's definition as an OpenAI Responses function tool (the core's spelling, from its descriptor). */
function responsesDefinition(name: string, tool: unknown): Record<string, unknown> {
  return openaiFunctionDefinition(toCatalogEntry(name, tool).descriptor);
}

/** The search input inside an OpenAI `tool_search_call`'s `{ arguments, call_id }` (an object, or JSON text). */
function searchArguments(input: unknown): unknown {
  const given = isObject(input) ? input.arguments : input;
  if (typeof given !== 'string') return given;
  try {
    return JSON.parse(given) as unknown;
  } catch {
    return { query: given };
  }
}

/**
 * `search_tools` for OpenAI: its client-executed `tool_search` tool (the documented way to use
 * deferred functions), as an AI SDK provider tool that Mastra runs like any tool. The model's
 * `tool_search_call` arguments are the search's input; the `tool_search_output` carries the
 * referred tools' definitions, and the search's JSON beside them (kept in memory, for `'context'`
 * storage; OpenAI shows the model only the definitions).
 */
export function openaiSearchTool(parts: {
  readonly definition: MetaToolDefinition;
  readonly search: (input: unknown, options: MetaToolCallOptions) => Promise<unknown>;
  readonly toolOf: (name: string) => unknown;
}): unknown {
  const { definition, search, toolOf } = parts;
  const definitionsOf = (names: readonly string[]) =>
    names.flatMap((name) => {
      const tool = toolOf(name);
      return tool === undefined ? [] : [responsesDefinition(name, tool)];
    });
  return {
    type: 'provider',
    id: 'openai.tool_search',
    args: { execution: 'client', description: definition.description, parameters: definition.inputSchema },
    // The model's call is `{ arguments, call_id }`; the engine checks the arguments.
    inputSchema: modelFacingSchema({ type: 'object', properties: { arguments: {}, call_id: {} } }),
    execute: (input: unknown, context?: { abortSignal?: AbortSignal }) =>
      search(searchArguments(input), { signal: context?.abortSignal }),
    toModelOutput: (given: unknown) => {
      // Mastra hands a tool's own toModelOutput the result; the AI SDK hands it { output }.
      const output = isObject(given) && 'output' in given ? given.output : given;
      return {
        type: 'json',
        value: { ...(isObject(output) ? output : {}), tools: definitionsOf(referredOf(output)) },
      };
    },
  };
}
