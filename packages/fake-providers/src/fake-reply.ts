// What a scripted model answers, written once for both providers: the wire modules turn it into
// the Anthropic Messages or the OpenAI Responses format.

/** A tool call the scripted model makes. `id` defaults to a counter of the server (`call_1`, …). */
export interface FakeToolCall {
  readonly toolName: string;
  readonly input: unknown;
  readonly id?: string;
}

/**
 * An OpenAI Responses `tool_search_call` item with `execution: 'client'` (the client runs the
 * search and answers with a `tool_search_output` item). Anthropic has no such item: the server
 * refuses a reply holding one for an Anthropic request.
 */
export interface FakeToolSearchCall {
  readonly arguments: unknown;
  readonly id?: string;
}

/** One scripted answer: a text, or text and tool calls. A string is a text answer. */
export type FakeReply =
  | string
  | {
      readonly text?: string;
      readonly toolCalls?: readonly FakeToolCall[];
      readonly toolSearchCalls?: readonly FakeToolSearchCall[];
      /** Reported as the answer's input tokens; by default a quarter of the request's raw length. */
      readonly inputTokens?: number;
    };

/** A reply with its defaults filled in, ids included. */
export interface NormalizedReply {
  readonly text: string | undefined;
  readonly toolCalls: readonly Required<FakeToolCall>[];
  readonly toolSearchCalls: readonly Required<FakeToolSearchCall>[];
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export function normalizeReply(reply: FakeReply, nextId: () => string, rawLength: number): NormalizedReply {
  const value = typeof reply === 'string' ? { text: reply } : reply;
  if (value === null || typeof value !== 'object') {
    throw new TypeError(`a fake reply is a string or an object, got ${String(value)}`);
  }
  const toolCalls = (value.toolCalls ?? []).map((call) => ({
    toolName: call.toolName,
    input: call.input,
    id: call.id ?? nextId(),
  }));
  const toolSearchCalls = (value.toolSearchCalls ?? []).map((call) => ({
    arguments: call.arguments,
    id: call.id ?? nextId(),
  }));
  const text = value.text;
  const outputText = (text ?? '') + JSON.stringify(toolCalls) + JSON.stringify(toolSearchCalls);
  return {
    text,
    toolCalls,
    toolSearchCalls,
    inputTokens: value.inputTokens ?? Math.ceil(rawLength / 4),
    outputTokens: Math.max(1, Math.ceil(outputText.length / 4)),
  };
}
