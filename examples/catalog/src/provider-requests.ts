/**
 * A provider request body as a model reads it: the conversation (as the planner's neutral events)
 * and the tool definitions the model's context holds. Read from the JSON that `@ai-sdk/anthropic`
 * (Anthropic Messages API, `POST /v1/messages`) and `@ai-sdk/openai` (OpenAI Responses API,
 * `POST /v1/responses`) send, so that the offline planner can stand in for the provider's model
 * behind a local server, and so that a run's figures come from what was really sent.
 *
 * Which definitions are in the context: every tool of the `tools` array that is not deferred
 * (`defer_loading: true`), and the deferred ones the conversation brought in: Anthropic's
 * `tool_reference` blocks (in a tool result, or a mid-conversation system message's
 * `tool_addition`), OpenAI's `tool_search_output` and `additional_tools` items.
 */
import type { JsonSchemaObject } from './catalog';
import { type PlannerAction, type PlannerEvent, type PlannerTool, planNextStep } from './planner';
import { parseArguments } from './trace';

/** The two providers whose deferred loading the native demo drives. */
export const nativeProviders = ['anthropic', 'openai'] as const;
export type NativeProvider = (typeof nativeProviders)[number];

/** One entry of a request's `tools` array, as the model reads it. */
export interface ProviderToolDefinition extends PlannerTool {
  /** Sent with `defer_loading: true`: its definition is not in the context until referred. */
  readonly deferred: boolean;
}

export interface ProviderRequest {
  /** The conversation, for the planner. */
  readonly events: readonly PlannerEvent[];
  /** The request's `tools` array, in order. */
  readonly tools: readonly ProviderToolDefinition[];
  /** The definitions the model's context holds on this call: the undeferred tools, then the referred ones, in order. */
  readonly inContext: readonly PlannerTool[];
  /** The `tools` array as sent (JSON), to tell whether it changed between calls. */
  readonly toolList: string;
  /**
   * The search tool's name: `search_tools`, or `tool_search` when an OpenAI request holds a
   * client-executed `tool_search` tool instead (its calls are `tool_search_call` items).
   */
  readonly searchToolName: string;
}

/** OpenAI's client-executed tool search, as the planner sees it. */
export const openAIToolSearchName = 'tool_search';

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const records = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const schema = (value: unknown): JsonSchemaObject | undefined =>
  isRecord(value) ? (value as JsonSchemaObject) : undefined;

/** The text of content given as a string or as text parts (`text`, `input_text`, `output_text`). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return records(content)
    .map((part) => text(part.text))
    .join('');
}

/**
 * A search tool result as the planner reads it: its text (the engine's JSON result), and when the
 * text lists no results, the tools the result referred, as results.
 */
function searchOutput(resultText: string, referred: readonly string[]): unknown {
  if (referred.length === 0) return resultText;
  const parsed = parseArguments(resultText);
  if (isRecord(parsed) && Array.isArray(parsed.results)) return parsed;
  return { results: referred.map((name) => ({ name })), ...(resultText ? { message: resultText } : {}) };
}

function readAnthropicTools(body: Json): ProviderToolDefinition[] {
  return records(body.tools).map((tool) => ({
    name: text(tool.name),
    ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
    ...(schema(tool.input_schema) ? { parameters: schema(tool.input_schema)! } : {}),
    deferred: tool.defer_loading === true,
  }));
}

function readAnthropic(body: Json): { events: PlannerEvent[]; referred: string[] } {
  const events: PlannerEvent[] = [];
  const referred: string[] = [];
  const names = new Map<string, string>();
  for (const message of records(body.messages)) {
    const blocks =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : records(message.content);
    if (message.role === 'system') {
      for (const block of blocks) {
        const tool = isRecord(block.tool) ? block.tool : {};
        if (block.type === 'tool_addition' && tool.type === 'tool_reference') referred.push(text(tool.name));
      }
      continue;
    }
    const userText: string[] = [];
    for (const block of blocks) {
      if (block.type === 'text') {
        if (message.role === 'assistant') events.push({ type: 'assistant', text: text(block.text) });
        else userText.push(text(block.text));
      } else if (block.type === 'tool_use') {
        names.set(text(block.id), text(block.name));
        events.push({
          type: 'tool-call',
          toolCallId: text(block.id),
          toolName: text(block.name),
          input: block.input,
        });
      } else if (block.type === 'tool_result') {
        const parts =
          typeof block.content === 'string'
            ? [{ type: 'text', text: block.content }]
            : records(block.content);
        const references = parts
          .filter((part) => part.type === 'tool_reference')
          .map((part) => text(part.tool_name));
        referred.push(...references);
        const toolCallId = text(block.tool_use_id);
        events.push({
          type: 'tool-result',
          toolCallId,
          toolName: names.get(toolCallId) ?? '',
          output: searchOutput(contentText(parts.filter((part) => part.type === 'text')), references),
          ...(block.is_error === true ? { isError: true } : {}),
        });
      }
    }
    // A user message's text after its tool results: the next request of the thread.
    if (userText.length > 0) events.push({ type: 'user', text: userText.join('\n') });
  }
  return { events, referred };
}

function openAITool(tool: Json): ProviderToolDefinition {
  return {
    name: text(tool.name),
    ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
    ...(schema(tool.parameters) ? { parameters: schema(tool.parameters)! } : {}),
    deferred: tool.defer_loading === true,
  };
}

function readOpenAITools(body: Json): ProviderToolDefinition[] {
  return records(body.tools).flatMap((tool) => {
    if (tool.type === 'function') return [openAITool(tool)];
    if (tool.type === 'tool_search' && tool.execution === 'client')
      return [{ ...openAITool(tool), name: openAIToolSearchName, deferred: false }];
    return [];
  });
}

function readOpenAI(
  body: Json,
  servedItems: ReadonlyMap<string, unknown> | undefined,
): { events: PlannerEvent[]; referred: ProviderToolDefinition[] } {
  const events: PlannerEvent[] = [];
  const referred: ProviderToolDefinition[] = [];
  const names = new Map<string, string>();
  const input =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : records(body.input);
  // With `store` on, @ai-sdk/openai sends an item the server answered before as a reference to its id.
  const resolve = (item: Json): Json => {
    if (item.type !== 'item_reference') return item;
    const served = servedItems?.get(text(item.id));
    return isRecord(served) ? served : item;
  };
  for (const item of input.map(resolve)) {
    switch (item.type ?? 'message') {
      case 'message':
        if (item.role === 'user') events.push({ type: 'user', text: contentText(item.content) });
        else if (item.role === 'assistant')
          events.push({ type: 'assistant', text: contentText(item.content) });
        break;
      case 'function_call':
        names.set(text(item.call_id), text(item.name));
        events.push({
          type: 'tool-call',
          toolCallId: text(item.call_id),
          toolName: text(item.name),
          input: parseArguments(item.arguments),
        });
        break;
      case 'function_call_output': {
        const toolCallId = text(item.call_id);
        events.push({
          type: 'tool-result',
          toolCallId,
          toolName: names.get(toolCallId) ?? '',
          output: contentText(item.output),
        });
        break;
      }
      case 'tool_search_call':
        names.set(text(item.call_id), openAIToolSearchName);
        events.push({
          type: 'tool-call',
          toolCallId: text(item.call_id),
          toolName: openAIToolSearchName,
          input: parseArguments(item.arguments),
        });
        break;
      case 'tool_search_output': {
        const tools = records(item.tools).map(openAITool);
        referred.push(...tools);
        events.push({
          type: 'tool-result',
          toolCallId: text(item.call_id),
          toolName: openAIToolSearchName,
          output: { results: tools.map(({ name, description }) => ({ name, description })) },
        });
        break;
      }
      case 'additional_tools':
        referred.push(...records(item.tools).map(openAITool));
        break;
      default:
        break;
    }
  }
  return { events, referred };
}

/**
 * Reads a request body that the provider package sent (parsed JSON). `servedItems`: the OpenAI
 * output items answered before, by id, for the `item_reference` items of `input`.
 */
export function readProviderRequest(
  provider: NativeProvider,
  body: unknown,
  options: { readonly servedItems?: ReadonlyMap<string, unknown> } = {},
): ProviderRequest {
  const json = isRecord(body) ? body : {};
  const tools = provider === 'anthropic' ? readAnthropicTools(json) : readOpenAITools(json);
  const plain = ({ deferred: _, ...tool }: ProviderToolDefinition): PlannerTool => tool;
  const inContext = tools.filter((tool) => !tool.deferred).map(plain);
  const held = new Set(inContext.map((tool) => tool.name));
  const add = (tool: PlannerTool | undefined) => {
    if (tool === undefined || held.has(tool.name)) return;
    held.add(tool.name);
    inContext.push(tool);
  };
  let events: PlannerEvent[];
  if (provider === 'anthropic') {
    const read = readAnthropic(json);
    events = read.events;
    // A reference names a tool of the tools array: its definition is the array's.
    for (const name of read.referred) {
      const tool = tools.find((candidate) => candidate.name === name);
      add(tool && plain(tool));
    }
  } else {
    const read = readOpenAI(json, options.servedItems);
    events = read.events;
    // OpenAI's items carry the definitions themselves.
    for (const tool of read.referred) add(plain(tool));
  }
  const clientSearch =
    !tools.some((tool) => tool.name === 'search_tools') &&
    tools.some((tool) => tool.name === openAIToolSearchName);
  return {
    events,
    tools,
    inContext,
    toolList: JSON.stringify(json.tools ?? []),
    searchToolName: provider === 'openai' && clientSearch ? openAIToolSearchName : 'search_tools',
  };
}

/** The offline planner's next action on a request: what the provider's model would answer. */
export function planProviderCall(request: ProviderRequest): PlannerAction {
  return planNextStep(
    { events: request.events, tools: request.inContext },
    { searchToolName: request.searchToolName },
  );
}
