// Provider-native deferred loading, LangChain side: which chat models have it, the catalog tools
// as bound for it, and the messages as `@langchain/anthropic` and `@langchain/openai` must be
// handed them so that their wire carries the references. What is referred, and what a thread
// loaded earlier, the engine decides; this module only translates.
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  type MessageContent,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import {
  anthropicToolAdditions,
  anthropicToolReferences,
  type MetaToolDefinition,
  type NativeProvider,
  openaiFunctionDefinition,
  SEARCH_TOOLS_NAME,
  ToolSearchError,
  withFields,
} from '@tool-search/core';
import type { LangChainTool } from './options';
import { toCatalogEntry } from './to-catalog-entries';

export type { NativeProvider };

/**
 * The `native` option: `'auto'` reads the provider from the chat model (`ChatAnthropic`, or
 * `ChatOpenAI` on the Responses API); a provider name forces that provider's wire shapes, whatever
 * the model (a wrapper, or a gateway that speaks the provider's API).
 */
export type NativeOption = 'auto' | NativeProvider;

const NATIVE_OPTIONS: readonly unknown[] = ['auto', 'anthropic', 'openai'];

/** Checks the `native` option; `undefined` (the default) is off. */
export function checkNativeOption(value: unknown, source: string): NativeOption | undefined {
  if (value === undefined || value === null || value === false) return undefined;
  if (NATIVE_OPTIONS.includes(value)) return value as NativeOption;
  throw new ToolSearchError(
    'INVALID_OPTIONS',
    `\`native\` of ${source} must be 'auto', 'anthropic' or 'openai' (or left out), got ${JSON.stringify(String(value))}.`,
  );
}

interface ModelLike {
  getName?: () => string;
  _defaultConfig?: { modelProvider?: unknown };
  useResponsesApi?: unknown;
  _useResponsesApi?: (options: unknown) => unknown;
}

/** True when a `ChatOpenAI` sends its calls to the Responses API (`useResponsesApi`, or a model that needs it). */
function usesResponsesApi(model: ModelLike, name: string): boolean {
  if (model.useResponsesApi === true || name === 'ChatOpenAIResponses') return true;
  if (typeof model._useResponsesApi !== 'function') return false;
  try {
    return model._useResponsesApi({}) === true;
  } catch {
    return false;
  }
}

/**
 * The model's provider id, in the form the core's `native: { provider: 'auto' }` reads (the AI
 * SDK's): `'anthropic.messages'` for `ChatAnthropic`, `'openai.responses'` for `ChatOpenAI` on the
 * Responses API, `'openai.chat'` on Chat Completions (which has no deferred loading), and for any
 * other model its LangChain class name (`ChatGoogle`, `FakeToolCallingModel`…), which no provider
 * matches. A configurable model (`initChatModel`) is read by its default provider.
 */
export function modelProviderOf(model: unknown): string {
  if (model === null || typeof model !== 'object') return 'unknown';
  const like = model as ModelLike;
  let name = 'unknown';
  try {
    if (typeof like.getName === 'function') name = like.getName();
  } catch {
    // A model whose getName throws is one LangChain does not name.
  }
  const configured = name === 'ConfigurableModel' ? like._defaultConfig?.modelProvider : undefined;
  if (name === 'ChatAnthropic' || configured === 'anthropic') return 'anthropic.messages';
  if (name === 'ChatOpenAI' || name === 'ChatOpenAIResponses' || configured === 'openai') {
    return usesResponsesApi(like, name) ? 'openai.responses' : 'openai.chat';
  }
  return name;
}

/** Catalog tools as bound in native mode, per tool: the same copy on every model call. */
const deferredCopies = new WeakMap<LangChainTool, LangChainTool>();

/**
 * A catalog tool as bound in native mode: a copy with `extras.defer_loading: true` (its other
 * extras kept), which `@langchain/anthropic` and `@langchain/openai` send on as the tool's
 * `defer_loading`. The same copy every call, so every call's tool list is the same.
 */
export function boundAsDeferred(tool: LangChainTool): LangChainTool {
  let copy = deferredCopies.get(tool);
  if (copy === undefined) {
    const extras = (tool as { extras?: Record<string, unknown> }).extras;
    copy = withFields(tool as LangChainTool & { extras?: Record<string, unknown> }, {
      extras: { ...extras, defer_loading: true },
    });
    deferredCopies.set(tool, copy);
  }
  return copy;
}

/** A `tool_reference` content block: Anthropic's reference to a deferred tool, in a tool result. */
interface ToolReferenceBlock {
  readonly type: 'tool_reference';
  readonly tool_name: string;
}

function isToolReference(block: unknown): block is ToolReferenceBlock {
  return (
    typeof block === 'object' &&
    block !== null &&
    (block as { type?: unknown }).type === 'tool_reference' &&
    typeof (block as { tool_name?: unknown }).tool_name === 'string'
  );
}

/**
 * The content of `search_tools`' tool message in native mode: the engine's result as JSON text,
 * then one `tool_reference` block per referred tool (the blocks Anthropic reads in a tool result;
 * for OpenAI they become an `additional_tools` item on the way to the model).
 */
export function searchResultContent(text: string, referred: readonly string[]): MessageContent {
  if (referred.length === 0) return text;
  return [{ type: 'text', text }, ...anthropicToolReferences(referred)] as MessageContent;
}

/** The tools a `search_tools` tool message refers, in order (none for any other message). */
export function referencesOf(message: BaseMessage): string[] {
  if (!ToolMessage.isInstance(message) || message.name !== SEARCH_TOOLS_NAME) return [];
  if (!Array.isArray(message.content)) return [];
  const blocks: readonly unknown[] = message.content;
  return blocks.filter(isToolReference).map((block) => block.tool_name);
}

/** Every tool the messages refer already (so the model's context holds its definition). */
export function referredIn(messages: readonly BaseMessage[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) for (const name of referencesOf(message)) names.add(name);
  return names;
}

/**
 * Where the tools a thread loaded in earlier calls are announced: right after the last user
 * message (the start of this call), so that every step of the call sends the same messages before
 * it, and Anthropic's rule holds (a system message with tool changes comes right before an
 * assistant message, or last).
 */
function additionIndex(messages: readonly BaseMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (HumanMessage.isInstance(messages[index])) return index + 1;
  }
  return messages.length;
}

/** The Anthropic beta headers a mid-conversation `tool_addition` by reference needs. */
export const ANTHROPIC_TOOL_CHANGE_BETAS: readonly string[] = [
  'mid-conversation-system-2026-04-07',
  'mid-conversation-tool-changes-2026-07-01',
];

/**
 * The messages as `@langchain/anthropic` must be handed them. A `search_tools` tool message with
 * references becomes a user message holding the raw `tool_result` block (its text and its
 * `tool_reference` blocks): `@langchain/anthropic` 1.5 drops content blocks of a tool message it
 * does not know, and passes a user message's `tool_result` block on as it is. Tools loaded in
 * earlier calls come back as a system message of `tool_addition` blocks by reference.
 */
export function anthropicMessages(
  messages: readonly BaseMessage[],
  additions: readonly string[],
): BaseMessage[] {
  const out: BaseMessage[] = [];
  const at = additions.length > 0 ? additionIndex(messages) : -1;
  messages.forEach((message, index) => {
    if (index === at) out.push(anthropicAddition(additions));
    if (referencesOf(message).length === 0) {
      out.push(message);
      return;
    }
    const tool = message as ToolMessage;
    out.push(
      new HumanMessage({
        content: [
          {
            type: 'tool_result',
            tool_use_id: tool.tool_call_id,
            content: tool.content,
            ...(tool.status === 'error' ? { is_error: true } : {}),
          },
        ] as MessageContent,
      }),
    );
  });
  if (at === messages.length) out.push(anthropicAddition(additions));
  return out;
}

function anthropicAddition(additions: readonly string[]): SystemMessage {
  return new SystemMessage({ content: anthropicToolAdditions(additions) as unknown as MessageContent });
}

/** A tool's definition as an OpenAI Responses function tool (the core's spelling, from the tool's descriptor). */
function responsesDefinition(tool: LangChainTool): Record<string, unknown> {
  return openaiFunctionDefinition(toCatalogEntry(tool).descriptor);
}

/**
 * A raw OpenAI Responses input item, as `@langchain/openai` passes one on: a `non_standard` block
 * of a standard-content (v1) AI message of the `openai` provider is sent as it is.
 */
function responsesItem(item: Record<string, unknown>): AIMessage {
  return new AIMessage({
    content: [{ type: 'non_standard', value: item }] as MessageContent,
    response_metadata: { output_version: 'v1', model_provider: 'openai' },
  });
}

/** OpenAI's client-executed `tool_search` tool for a `search_tools` definition, per definition: the same object every call. */
const searchToolSpecs = new WeakMap<MetaToolDefinition, Record<string, unknown>>();

/**
 * `search_tools` as OpenAI's client-executed `tool_search` tool (the documented way to use
 * deferred functions), its parameters the meta-tool's input schema: the model answers with a
 * `tool_search_call` item, the client with a `tool_search_output` item.
 */
export function openaiSearchTool(definition: MetaToolDefinition): Record<string, unknown> {
  let spec = searchToolSpecs.get(definition);
  if (spec === undefined) {
    spec = {
      type: 'tool_search',
      execution: 'client',
      description: definition.description,
      parameters: definition.inputSchema,
    };
    searchToolSpecs.set(definition, spec);
  }
  return spec;
}

interface SearchCallItem {
  readonly type: 'tool_search_call';
  readonly call_id: string;
  readonly arguments?: unknown;
  readonly execution?: unknown;
}

/** The client-executed `tool_search_call` items of a Responses AI message (as `@langchain/openai` keeps them). */
function searchCallsOf(message: BaseMessage): SearchCallItem[] {
  if (!AIMessage.isInstance(message)) return [];
  const output = message.response_metadata?.output;
  const items: unknown[] = Array.isArray(output)
    ? output
    : ((message.additional_kwargs?.tool_outputs as unknown[]) ?? []);
  return items.filter(
    (item): item is SearchCallItem =>
      typeof item === 'object' &&
      item !== null &&
      (item as { type?: unknown }).type === 'tool_search_call' &&
      (item as { execution?: unknown }).execution === 'client' &&
      typeof (item as { call_id?: unknown }).call_id === 'string',
  );
}

/** The search input of a `tool_search_call` (its `arguments`: an object, or JSON text). */
function searchArguments(item: SearchCallItem): Record<string, unknown> {
  let args = item.arguments;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args) as unknown;
    } catch {
      return { query: args as string };
    }
  }
  return typeof args === 'object' && args !== null && !Array.isArray(args)
    ? (args as Record<string, unknown>)
    : {};
}

/**
 * An OpenAI answer with its `tool_search_call` items as `search_tools` tool calls, so that
 * `createAgent` (or a loop) runs them like any other call. The items stay in the message's
 * `response_metadata.output`, which `@langchain/openai` sends back as they were, so the call
 * reaches OpenAI again as the `tool_search_call` its `tool_search_output` answers.
 */
export function withSearchCalls(message: unknown): unknown {
  if (!AIMessage.isInstance(message)) return message;
  const calls = searchCallsOf(message).filter(
    (item) => !(message.tool_calls ?? []).some((call) => call.id === item.call_id),
  );
  if (calls.length === 0) return message;
  return new AIMessage({
    id: message.id,
    name: message.name,
    content: message.content,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
    usage_metadata: message.usage_metadata,
    invalid_tool_calls: message.invalid_tool_calls,
    tool_calls: [
      ...(message.tool_calls ?? []),
      ...calls.map((item) => ({
        id: item.call_id,
        name: SEARCH_TOOLS_NAME,
        args: searchArguments(item),
        type: 'tool_call' as const,
      })),
    ],
  });
}

/**
 * The messages as `@langchain/openai` (Responses API) must be handed them. The tool message of a
 * `search_tools` call that was a `tool_search_call` becomes its `tool_search_output` item, whose
 * `tools` are the referred tools' definitions (the search's JSON stays in the conversation, for
 * `'context'` storage; OpenAI shows the model only the definitions). Tools loaded in earlier calls
 * come back as one `additional_tools` item after the last user message.
 */
export function openaiMessages(
  messages: readonly BaseMessage[],
  additions: readonly string[],
  toolOf: (name: string) => LangChainTool | undefined,
): BaseMessage[] {
  const searchCalls = new Set<string>();
  for (const message of messages) for (const item of searchCallsOf(message)) searchCalls.add(item.call_id);
  const definitions = (names: readonly string[]) =>
    names.flatMap((name) => {
      const tool = toolOf(name);
      return tool ? [responsesDefinition(tool)] : [];
    });
  const out: BaseMessage[] = [];
  const added = definitions(additions);
  const at = added.length > 0 ? additionIndex(messages) : -1;
  messages.forEach((message, index) => {
    if (index === at) out.push(responsesItem({ type: 'additional_tools', role: 'developer', tools: added }));
    if (!ToolMessage.isInstance(message) || !searchCalls.has(message.tool_call_id)) {
      out.push(message);
      return;
    }
    out.push(
      responsesItem({
        type: 'tool_search_output',
        execution: 'client',
        call_id: message.tool_call_id,
        status: 'completed',
        tools: definitions(referencesOf(message)),
      }),
    );
  });
  if (at === messages.length)
    out.push(responsesItem({ type: 'additional_tools', role: 'developer', tools: added }));
  return out;
}

/** Model settings or bind options with these provider beta flags added to any already set (`betas`, as ChatAnthropic reads them). */
export function withBetas(settings: unknown, betas: readonly string[]): Record<string, unknown> {
  const given =
    settings !== null && typeof settings === 'object' ? (settings as Record<string, unknown>) : {};
  const already = Array.isArray(given.betas) ? (given.betas as unknown[]) : [];
  return { ...given, betas: [...new Set([...already, ...betas])] };
}
