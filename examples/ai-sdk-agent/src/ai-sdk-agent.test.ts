import { toolSearchInstructions } from '@tool-search/core';
import { countPromptTokens } from '@tool-search/example-catalog';
import { expectDemoTrace, testedDemoRequests } from '@tool-search/example-catalog/testing';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { createAiSdkAgent } from './ai-sdk-agent';
import { createOfflineModel } from './offline-model';
import { toOpenAIChatMessages } from './prompt-capture';

const model = createOfflineModel();
const agent = await createAiSdkAgent({ model });
afterAll(() => agent.dispose());

describe.each(testedDemoRequests)('the AI SDK example on "$text"', ({ text, expectedTools }) => {
  it('searches, loads, calls the right tools and sends far fewer tokens than the whole catalog', async () => {
    const sentBefore = model.doGenerateCalls.length;
    const trace = await agent.ask(text);

    const calls = model.doGenerateCalls.slice(sentBefore);
    expectDemoTrace(
      trace,
      { text, expectedTools },
      calls.map((call) => call.tools?.map((tool) => tool.name)),
      // The messages the model received, as @ai-sdk/openai's chat model sends them.
      calls.map((call) =>
        countPromptTokens(toOpenAIChatMessages(call.prompt), { instructions: toolSearchInstructions() }),
      ),
    );
  });
});

/** A model that loads the forecast tool, then calls it with a city its schema refuses, then answers. */
function modelWithBadInput() {
  const usage = {
    inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 0, text: 0, reasoning: 0 },
  };
  const script = [
    {
      type: 'tool-call',
      toolCallId: 'c1',
      toolName: 'load_tool',
      input: '{"toolName":"get_weather_forecast"}',
    },
    { type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather_forecast', input: '{"city":42}' },
    { type: 'text', text: 'Sorry.' },
  ] as const;
  let call = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => {
      const part = script[Math.min(call++, script.length - 1)]!;
      return {
        content: [part],
        finishReason: { unified: part.type === 'text' ? 'stop' : 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

it('shows a call whose input the AI SDK refused before the tool ran, with what the model was told', async () => {
  const scripted = await createAiSdkAgent({ model: modelWithBadInput() });
  try {
    const trace = await scripted.ask('weather in Oslo');
    expect(trace.toolsCalled).toEqual(['get_weather_forecast']);
    const call = trace.steps[1]!.calls[0]!;
    expect(call).toMatchObject({ toolName: 'get_weather_forecast', input: { city: 42 } });
    expect(call.error).toMatch(/Invalid input for tool get_weather_forecast/);
    expect(trace.tokens.modelCallsWithoutSearch).toBe(2);
  } finally {
    await scripted.dispose();
  }
});
