// Provider-neutral readings of a recorded request body, for assertions and for a scripted
// planner that answers from what the client sent. Each reads the documented wire shapes:
// Anthropic `tools[]`, `messages[]` with `tool_use` / `tool_result` blocks (a result's content may
// hold `tool_reference` blocks) and mid-conversation `system` messages with `tool_addition`
// blocks; OpenAI Responses `tools[]` and `input[]` with `function_call`,
// `function_call_output`, `tool_search_call`, `tool_search_output` and `additional_tools` items.
import type { RecordedRequest } from './fake-provider-server';

export interface SentTool {
  readonly name: string;
  /** `defer_loading: true` on the definition. */
  readonly deferred: boolean;
  readonly definition: Readonly<Record<string, unknown>>;
}

export interface SentToolResult {
  readonly callId: string;
  /** The name of the tool call it answers, when the request holds that call. */
  readonly toolName: string | undefined;
  /** The result's text (text blocks joined; a JSON string for OpenAI as sent). */
  readonly text: string;
  /**
   * The tools the result refers: Anthropic `tool_reference` blocks in it; OpenAI the tools of the
   * `additional_tools` item right after it, or a `tool_search_output`'s tools.
   */
  readonly references: readonly string[];
}

export interface SentToolAddition {
  /** Index in `messages` (Anthropic) or `input` (OpenAI). */
  readonly position: number;
  readonly names: readonly string[];
}

// biome-ignore lint/suspicious/noExplicitAny: wire JSON, read defensively field by field.
type Json = Record<string, any>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const listOf = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

function toolName(definition: Json): string {
  if (typeof definition.name === 'string') return definition.name;
  return typeof definition.type === 'string' ? definition.type : '';
}

/** The request's top-level tools, in the order sent. */
export function sentTools(request: RecordedRequest): SentTool[] {
  return listOf(request.body?.tools).map((definition) => ({
    name: toolName(definition),
    deferred: definition.defer_loading === true,
    definition,
  }));
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return listOf(content)
    .filter((block) => block.type === 'text' || block.type === 'input_text' || block.type === 'output_text')
    .map((block) => String(block.text))
    .join('');
}

function anthropicToolResults(body: Json): SentToolResult[] {
  const names = new Map<string, string>();
  const results: SentToolResult[] = [];
  for (const message of listOf(body.messages)) {
    for (const block of listOf(message.content)) {
      if (block.type === 'tool_use') names.set(String(block.id), String(block.name));
      if (block.type === 'tool_result') {
        const callId = String(block.tool_use_id);
        const references = listOf(block.content)
          .filter((part) => part.type === 'tool_reference')
          .map((part) => String(part.tool_name));
        results.push({ callId, toolName: names.get(callId), text: textOf(block.content), references });
      }
    }
  }
  return results;
}

/** OpenAI `input`, each `item_reference` replaced by the item the server answered under that id. */
function openaiInput(request: RecordedRequest): Json[] {
  return listOf(request.body.input).map((item) => {
    if (item.type !== 'item_reference') return item;
    const served = request.servedItems.get(String(item.id));
    return isObject(served) ? served : item;
  });
}

function openaiToolResults(request: RecordedRequest): SentToolResult[] {
  const names = new Map<string, string>();
  const results: SentToolResult[] = [];
  const input = openaiInput(request);
  input.forEach((item, index) => {
    if (item.type === 'function_call') names.set(String(item.call_id), String(item.name));
    if (item.type === 'tool_search_call') names.set(String(item.call_id), 'tool_search');
    if (item.type === 'function_call_output') {
      const next = input[index + 1];
      const references = next?.type === 'additional_tools' ? listOf(next.tools).map(toolName) : [];
      const callId = String(item.call_id);
      results.push({ callId, toolName: names.get(callId), text: textOf(item.output), references });
    }
    if (item.type === 'tool_search_output') {
      const callId = String(item.call_id);
      const references = listOf(item.tools).map(toolName);
      results.push({ callId, toolName: names.get(callId), text: '', references });
    }
  });
  return results;
}

/** Every tool result in the request's conversation, oldest first. */
export function sentToolResults(request: RecordedRequest): SentToolResult[] {
  if (!isObject(request.body)) return [];
  return request.provider === 'anthropic' ? anthropicToolResults(request.body) : openaiToolResults(request);
}

/**
 * Tools added mid-conversation without touching `tools[]`: Anthropic `system` messages in
 * `messages` with `tool_addition` blocks (by reference or by definition), OpenAI `additional_tools`
 * items in `input` that do not follow a tool result.
 */
export function sentToolAdditions(request: RecordedRequest): SentToolAddition[] {
  if (!isObject(request.body)) return [];
  const additions: SentToolAddition[] = [];
  if (request.provider === 'anthropic') {
    listOf(request.body.messages).forEach((message, position) => {
      if (message.role !== 'system') return;
      const names = listOf(message.content)
        .filter((block) => block.type === 'tool_addition' && isObject(block.tool))
        .map((block) =>
          block.tool.type === 'tool_reference'
            ? String(block.tool.name)
            : toolName(block.tool.definition ?? {}),
        );
      if (names.length > 0) additions.push({ position, names });
    });
    return additions;
  }
  const input = openaiInput(request);
  input.forEach((item, position) => {
    if (item.type !== 'additional_tools' || input[position - 1]?.type === 'function_call_output') return;
    additions.push({ position, names: listOf(item.tools).map(toolName) });
  });
  return additions;
}

/** The text of the conversation's last user message ('' when there is none). */
export function lastUserText(request: RecordedRequest): string {
  if (!isObject(request.body)) return '';
  const messages = request.provider === 'anthropic' ? listOf(request.body.messages) : openaiInput(request);
  const users = messages.filter((message) => message.role === 'user');
  return textOf(users.at(-1)?.content);
}
