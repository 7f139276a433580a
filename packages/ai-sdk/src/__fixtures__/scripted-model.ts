import { APICallError } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';

// The provider types, read off the SDK's own mock (the `@ai-sdk/provider` package is not a dependency).
type LanguageModelV4CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];
type LanguageModelV4GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type LanguageModelV4Content = LanguageModelV4GenerateResult['content'][number];
type LanguageModelV4Prompt = LanguageModelV4CallOptions['prompt'];
type LanguageModelV4StreamPart =
  Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer PART>
    ? PART
    : never;

/** What the scripted model answers in one step: tool calls, or a final text. */
export interface Turn {
  readonly toolCalls?: ReadonlyArray<{ readonly toolName: string; readonly input: unknown }>;
  readonly text?: string;
}

/** One model call as the model saw it. */
export interface SeenCall {
  /** Names of the tools sent to the model, in the order sent. */
  readonly tools: readonly string[];
  /** The tools as sent (name, schema, provider options). */
  readonly definitions: NonNullable<LanguageModelV4CallOptions['tools']>;
  readonly prompt: LanguageModelV4Prompt;
  /** The tool choice sent (undefined: the provider's default). */
  readonly toolChoice: LanguageModelV4CallOptions['toolChoice'];
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/**
 * The AI SDK's own `MockLanguageModelV4`, answering from a script (a list of turns, or a
 * function of what the model was sent) and recording the tools it receives at every step.
 * It answers both `doGenerate` (generateText) and `doStream` (streamText).
 */
export function scriptedModel(
  script: readonly Turn[] | ((call: SeenCall, index: number) => Turn),
  options: {
    idPrefix?: string;
    /**
     * Answer as OpenAI and Anthropic do a request whose tool choice forces a tool it does not
     * send: with a 400 error (the call is not recorded in `seen`).
     */
    refuseUnsentToolChoice?: boolean;
  } = {},
) {
  const seen: SeenCall[] = [];
  let nextId = 0;
  const next = (callOptions: LanguageModelV4CallOptions): LanguageModelV4Content[] => {
    const call: SeenCall = {
      tools: (callOptions.tools ?? []).map((tool) => tool.name),
      definitions: callOptions.tools ?? [],
      prompt: callOptions.prompt,
      toolChoice: callOptions.toolChoice,
    };
    const forced = call.toolChoice?.type === 'tool' ? call.toolChoice.toolName : undefined;
    if (options.refuseUnsentToolChoice && forced !== undefined && !call.tools.includes(forced)) {
      throw new APICallError({
        message: `Invalid 'tool_choice': no tool named '${forced}' was sent in 'tools'.`,
        url: 'https://provider.example/v1/chat',
        requestBodyValues: {},
        statusCode: 400,
        isRetryable: false,
      });
    }
    const index = seen.length;
    seen.push(call);
    const turn = typeof script === 'function' ? script(call, index) : script[index];
    if (turn === undefined) throw new Error(`The script has no turn ${index}.`);
    const content: LanguageModelV4Content[] = (turn.toolCalls ?? []).map((toolCall) => ({
      type: 'tool-call',
      toolCallId: `${options.idPrefix ?? 'call'}-${++nextId}`,
      toolName: toolCall.toolName,
      input: JSON.stringify(toolCall.input),
    }));
    if (turn.text !== undefined) content.push({ type: 'text', text: turn.text });
    return content;
  };
  const finishReason = (content: LanguageModelV4Content[]) =>
    content.some((part) => part.type === 'tool-call')
      ? ({ unified: 'tool-calls', raw: undefined } as const)
      : ({ unified: 'stop', raw: undefined } as const);

  const model = new MockLanguageModelV4({
    doGenerate: async (callOptions): Promise<LanguageModelV4GenerateResult> => {
      const content = next(callOptions);
      return { content, finishReason: finishReason(content), usage, warnings: [] };
    },
    doStream: async (callOptions) => {
      const content = next(callOptions);
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of content) {
        if (part.type === 'text') {
          parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text });
          parts.push({ type: 'text-end', id: 't' });
        } else parts.push(part as LanguageModelV4StreamPart);
      }
      parts.push({ type: 'finish', finishReason: finishReason(content), usage });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });

  return {
    model,
    /** Every model call so far. */
    seen,
    /** The tool names the model received at each step. */
    toolsPerStep: () => seen.map((call) => [...call.tools]),
  };
}

/** The tool results the model was sent in the prompt of a call (latest last). */
export function toolResultsIn(
  prompt: LanguageModelV4Prompt,
): Array<{ toolName: string; type: string; value: unknown }> {
  const results: Array<{ toolName: string; type: string; value: unknown }> = [];
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output as { type: string; value?: unknown };
      results.push({ toolName: part.toolName, type: output.type, value: output.value });
    }
  }
  return results;
}

/** The text of the first user message of a prompt (to script a model per conversation). */
export function firstUserText(prompt: LanguageModelV4Prompt): string {
  for (const message of prompt) {
    if (message.role !== 'user') continue;
    return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  }
  return '';
}
