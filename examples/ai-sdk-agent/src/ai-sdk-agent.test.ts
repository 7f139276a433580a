import { toolSearchInstructions } from '@tool-search/core';
import { countPromptTokens } from '@tool-search/example-catalog';
import { badInputGenerate, expectDemoTrace, testedDemoRequests } from '@tool-search/example-catalog/testing';
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
const modelWithBadInput = () => new MockLanguageModelV4({ doGenerate: badInputGenerate() });

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
