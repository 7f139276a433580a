/**
 * Native mode's translations for the AI SDK (see docs/native-deferral.md at the repository root):
 * a catalog tool sent with its provider's deferral, the search tool whose result refers what it
 * found (Anthropic `tool-reference` parts; OpenAI a client-executed `tool_search` whose output
 * carries the found tools' definitions), and the message that brings a thread's earlier loads back
 * at the start of a call (Anthropic `tool_addition`, OpenAI `additional_tools`). What is referred
 * or restored is the engine's decision; these only spell it.
 */
import {
  type MetaToolDefinition,
  type NativeProvider,
  type SearchToolsOutput,
  type ToolDescriptor,
  withFields,
} from '@tool-search/core';
import { jsonSchema, type ModelMessage, type Tool, type ToolExecutionOptions } from 'ai';
import { toMetaTool } from './tool-set';

/**
 * The tool with its provider's deferral (`providerOptions[provider].deferLoading: true`, the rest
 * of its provider options kept) and without the AI SDK's own `deferLoading` (which would hold the
 * tool back from the provider until the SDK's `toolSearch()` finds it).
 */
export function deferredTool(tool: Tool, provider: NativeProvider): Tool {
  const own = (tool.providerOptions ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const providerOptions = Object.fromEntries([
    ...Object.entries(own).filter(([key]) => key !== provider),
    [provider, { ...(own[provider] ?? {}), deferLoading: true }],
  ]);
  const fields: Partial<Tool> = { providerOptions: providerOptions as Tool['providerOptions'] };
  if (tool.deferLoading === true) fields.deferLoading = false;
  return withFields(tool, fields);
}

/** An OpenAI Responses function definition, as `tool_search_output` and `additional_tools` carry it. */
export function openaiDefinition(descriptor: ToolDescriptor): Record<string, unknown> {
  const { $schema: _schema, ...parameters } = (descriptor.parameters ?? {
    type: 'object',
    properties: {},
  }) as Record<string, unknown>;
  return {
    type: 'function',
    name: descriptor.name,
    ...(descriptor.description === undefined ? {} : { description: descriptor.description }),
    parameters,
  };
}

export type SearchExecute = (
  input: unknown,
  options: ToolExecutionOptions<unknown>,
) => Promise<SearchToolsOutput>;

/** The names a search result refers (none when it failed or found nothing). */
function referredOf(output: unknown): string[] {
  const referred = (output as SearchToolsOutput | null)?.referred;
  return Array.isArray(referred) ? referred.filter((name): name is string => typeof name === 'string') : [];
}

/**
 * `search_tools` in native mode. Anthropic: the function tool, whose result is the search's JSON
 * followed by one `tool-reference` part per referred tool. OpenAI: the client-executed
 * `tool_search` tool (the documented way to use deferred functions): the model's
 * `tool_search_call` arguments are the search's input, and the `tool_search_output` carries the
 * referred tools' definitions; the search's JSON travels beside them, for `'context'` storage.
 */
export function nativeSearchTool(parts: {
  readonly provider: NativeProvider;
  readonly definition: MetaToolDefinition;
  readonly execute: SearchExecute;
  readonly definitionsOf: (names: readonly string[]) => Record<string, unknown>[];
}): Tool {
  const { provider, definition, execute, definitionsOf } = parts;
  if (provider === 'anthropic') {
    const search = toMetaTool(definition, execute);
    return withFields(search, {
      toModelOutput: ({ output }: { output: unknown }) => {
        const referred = referredOf(output);
        if (referred.length === 0) return { type: 'json', value: output };
        return {
          type: 'content',
          value: [
            { type: 'text', text: JSON.stringify(output) },
            ...referred.map((toolName) => ({
              type: 'custom',
              providerOptions: { anthropic: { type: 'tool-reference', toolName } },
            })),
          ],
        };
      },
    } as Partial<Tool>);
  }
  return {
    type: 'provider',
    id: 'openai.tool_search',
    args: { execution: 'client', description: definition.description, parameters: definition.inputSchema },
    // The model's call is `{ arguments, call_id }`; the engine checks the arguments.
    inputSchema: jsonSchema({ type: 'object', properties: { arguments: {}, call_id: {} } }),
    execute: (input: unknown, options: ToolExecutionOptions<unknown>) =>
      execute(searchArguments(input), options),
    toModelOutput: ({ output }: { output: unknown }) => ({
      type: 'json',
      value: { ...(output as object), tools: definitionsOf(referredOf(output)) },
    }),
  } as unknown as Tool;
}

/** The search input inside an OpenAI `tool_search_call`'s `{ arguments, call_id }` (a JSON string or an object). */
function searchArguments(input: unknown): unknown {
  const given =
    input !== null && typeof input === 'object' ? (input as { arguments?: unknown }).arguments : input;
  if (typeof given !== 'string') return given;
  try {
    return JSON.parse(given);
  } catch {
    return { query: given };
  }
}

/**
 * The message that adds the thread's earlier loads mid-conversation, without touching the tool
 * list: an empty system message carrying Anthropic `toolChanges` (`tool_addition` by reference) or
 * OpenAI `additionalTools` (their definitions). Undefined when nothing was loaded before.
 */
export function restoreMessage(
  provider: NativeProvider,
  names: readonly string[],
  definitionsOf: (names: readonly string[]) => Record<string, unknown>[],
): ModelMessage | undefined {
  if (names.length === 0) return undefined;
  const providerOptions: Record<string, unknown> =
    provider === 'anthropic'
      ? { anthropic: { toolChanges: names.map((toolName) => ({ type: 'tool_addition', toolName })) } }
      : { openai: { additionalTools: definitionsOf(names) } };
  return { role: 'system', content: '', providerOptions } as unknown as ModelMessage;
}
