import {
  type JsonSchemaObject,
  offlinePlannerLabel,
  type PlannerEvent,
  type PlannerTool,
  planNextStep,
} from '@tool-search/example-catalog';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';

// The provider types, read off the SDK's own mock model (`@ai-sdk/provider` is not a dependency).
type CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type Content = GenerateResult['content'][number];
type Prompt = CallOptions['prompt'];
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer PART>
    ? PART
    : never;

export const offlineModelLabel = offlinePlannerLabel;

/** No tokens are spent: the planner is not a model. */
const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** The conversation as the planner reads it (the AI SDK prompt → neutral events). */
function toPlannerEvents(prompt: Prompt): PlannerEvent[] {
  const events: PlannerEvent[] = [];
  for (const message of prompt) {
    if (message.role === 'user') {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      events.push({ type: 'user', text });
    } else if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type === 'text') events.push({ type: 'assistant', text: part.text });
        else if (part.type === 'tool-call')
          events.push({
            type: 'tool-call',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
          });
      }
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type === 'tool-result')
          events.push({
            type: 'tool-result',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            output: part.output,
          });
      }
    }
  }
  return events;
}

/**
 * A STAND-IN FOR AN LLM: the example catalog's offline planner behind the AI SDK's own
 * `MockLanguageModelV4`, so the agent runs with no API key and no network. At each step it reads
 * the prompt and the tools it was sent and does what a model does with tool search: search with
 * the request, load the best result, call it with arguments built from its schema, then answer.
 * Any provider's model (`openai('gpt-5-mini')`, …) replaces it with no other change.
 */
export function createOfflineModel() {
  const decide = (options: CallOptions): Content[] => {
    const tools: PlannerTool[] = (options.tools ?? []).flatMap((tool) =>
      tool.type === 'function'
        ? [
            {
              name: tool.name,
              description: tool.description,
              parameters: tool.inputSchema as JsonSchemaObject,
            },
          ]
        : [],
    );
    const action = planNextStep({ events: toPlannerEvents(options.prompt), tools });
    if (action.type === 'text') return [{ type: 'text', text: action.text }];
    return action.calls.map((call) => ({
      type: 'tool-call',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: JSON.stringify(call.input),
    }));
  };
  const finishReason = (content: Content[]) =>
    content.some((part) => part.type === 'tool-call')
      ? ({ unified: 'tool-calls', raw: undefined } as const)
      : ({ unified: 'stop', raw: undefined } as const);

  return new MockLanguageModelV4({
    provider: 'offline',
    modelId: 'offline-planner',
    doGenerate: async (options): Promise<GenerateResult> => {
      const content = decide(options);
      return { content, finishReason: finishReason(content), usage, warnings: [] };
    },
    doStream: async (options) => {
      const content = decide(options);
      const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of content) {
        if (part.type === 'text') {
          parts.push(
            { type: 'text-start', id: 'answer' },
            { type: 'text-delta', id: 'answer', delta: part.text },
          );
          parts.push({ type: 'text-end', id: 'answer' });
        } else parts.push(part as StreamPart);
      }
      parts.push({ type: 'finish', finishReason: finishReason(content), usage });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}
