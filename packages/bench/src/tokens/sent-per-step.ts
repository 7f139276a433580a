import { createToolSearch } from '@tool-search/ai-sdk';
import type { ToolDescriptor } from '@tool-search/core';
import { generateText, jsonSchema, type Tool, tool, toolSearch } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { SentTool } from './tool-tokens';

/** What the model was sent at one step: its tool definitions and the system text. */
export interface SentStep {
  readonly tools: readonly SentTool[];
  readonly systemText: string;
}

type CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** What a provider would receive: the function tools' name, description and JSON Schema, and the system messages. */
export function toSentStep(options: CallOptions, ignoreSystem: readonly string[] = []): SentStep {
  const tools = (options.tools ?? []).flatMap((sent) =>
    sent.type === 'function'
      ? [
          {
            name: sent.name,
            description: sent.description,
            parameters: sent.inputSchema as SentTool['parameters'],
          },
        ]
      : [],
  );
  const systemText = options.prompt
    .filter((message) => message.role === 'system')
    .map((message) => String(message.content))
    .filter((text) => !ignoreSystem.includes(text))
    .join('\n');
  return { tools, systemText };
}

/** A mock model that plays `moves` (tool calls, then text) and records each call's options. */
function recordingModel(moves: readonly { toolName: string; input: unknown }[][]) {
  const calls: CallOptions[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      const move = moves[calls.length];
      calls.push(options);
      return move
        ? {
            content: move.map((call, index) => ({
              type: 'tool-call' as const,
              toolCallId: `call-${calls.length}-${index}`,
              toolName: call.toolName,
              input: JSON.stringify(call.input),
            })),
            finishReason: { unified: 'tool-calls' as const, raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: 'text' as const, text: 'done' }],
            finishReason: { unified: 'stop' as const, raw: undefined },
            usage,
            warnings: [],
          };
    },
  });
  return { model, calls };
}

function aiSdkTools(descriptors: readonly ToolDescriptor[], deferLoading: boolean): Record<string, Tool> {
  const tools: Record<string, Tool> = {};
  for (const descriptor of descriptors) {
    Object.defineProperty(tools, descriptor.name, {
      value: tool({
        ...(deferLoading ? { deferLoading: true } : {}),
        description: descriptor.description ?? '',
        inputSchema: jsonSchema(
          (descriptor.parameters ?? { type: 'object', properties: {} }) as Parameters<typeof jsonSchema>[0],
        ),
        execute: async () => 'ok',
      }),
      enumerable: true,
      configurable: true,
    });
  }
  return tools;
}

/**
 * Ours, through `@tool-search/ai-sdk` in a real `generateText` call: the first step (meta-tools
 * only) and the step after the model loaded `load` tools with `load_tool`.
 */
export async function oursSentSteps(
  descriptors: readonly ToolDescriptor[],
  load: readonly string[],
): Promise<{ first: SentStep; afterLoad: SentStep }> {
  const search = createToolSearch<Record<string, Tool>>({ tools: aiSdkTools(descriptors, false) });
  const { model, calls } = recordingModel([[{ toolName: 'load_tool', input: { toolNames: load } }]]);
  await generateText({
    model,
    ...search.forCall({ threadId: 'tokens' }),
    instructions: search.instructions,
    stopWhen: () => false,
    prompt: 'Book a flight to Rome.',
  });
  await search.dispose();
  if (calls.length < 2) throw new Error('the token run did not reach its second step');
  return { first: toSentStep(calls[0]!), afterLoad: toSentStep(calls[1]!) };
}

/** The AI SDK's `toolSearch()`: what its first step sends (the search tool; deferred tools wait). */
export async function aiSdkSentFirstStep(descriptors: readonly ToolDescriptor[]): Promise<SentStep> {
  const tools = { ...aiSdkTools(descriptors, true) };
  Object.defineProperty(tools, 'search', { value: toolSearch(), enumerable: true, configurable: true });
  const { model, calls } = recordingModel([]);
  await generateText({ model, tools, prompt: 'Book a flight to Rome.' });
  return toSentStep(calls[0]!);
}

/** Mastra's `ToolSearchProcessor` in a real Mastra `Agent`: what its first step sends. */
export async function mastraSentFirstStep(descriptors: readonly ToolDescriptor[]): Promise<SentStep> {
  process.env.MASTRA_TELEMETRY_DISABLED ??= '1';
  const [{ Agent }, { ToolSearchProcessor }, { toMastraTools }] = await Promise.all([
    import('@mastra/core/agent'),
    import('@mastra/core/processors'),
    import('../peers/mastra-tool-search'),
  ]);
  const { model, calls } = recordingModel([]);
  const instructions = 'You are a helpful assistant.';
  const agent = new Agent({
    id: 'tokens',
    name: 'tokens',
    instructions,
    model: model as never, // Mastra types its own model wrapper; it accepts an AI SDK V4 model
    inputProcessors: [new ToolSearchProcessor({ tools: toMastraTools(descriptors) })],
  });
  await agent.generate('Book a flight to Rome.');
  return toSentStep(calls[0]!, [instructions]);
}
