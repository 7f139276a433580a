import { toolSearchInstructions } from '@tool-search/core';
import { createOfflineModel, toOpenAIChatMessages } from '@tool-search/example-ai-sdk-agent';
import { countPromptTokens } from '@tool-search/example-catalog';
import { badInputGenerate, expectDemoTrace, testedDemoRequests } from '@tool-search/example-catalog/testing';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { createMastraAgent } from './mastra-agent';

const model = createOfflineModel();
/** The tools the model was sent at each call (Mastra's generate goes through doStream or doGenerate). */
const modelCalls = () => [...model.doGenerateCalls, ...model.doStreamCalls];
const agent = await createMastraAgent({ model });
afterAll(() => agent.dispose());

describe.each(testedDemoRequests)('the Mastra example on "$text"', ({ text, expectedTools }) => {
  it('searches, loads, calls the right tools and sends far fewer tokens than the whole catalog', async () => {
    const sentBefore = modelCalls().length;
    const trace = await agent.ask(text);

    const calls = modelCalls().slice(sentBefore);
    expectDemoTrace(
      trace,
      { text, expectedTools },
      calls.map((call) => call.tools?.map((tool) => tool.name)),
      // The messages the model received (Mastra's instructions and tool search's paragraph are two system messages).
      calls.map((call) =>
        countPromptTokens(toOpenAIChatMessages(call.prompt), { instructions: toolSearchInstructions() }),
      ),
    );
  });
});

/** A model that loads the forecast tool, then calls it with a city its schema refuses, then answers. */
const modelWithBadInput = () => new MockLanguageModelV4({ doGenerate: badInputGenerate() });

it('shows a call whose input Mastra refused before the tool ran, with what the model was told', async () => {
  const scripted = await createMastraAgent({ model: modelWithBadInput() });
  try {
    const trace = await scripted.ask('weather in Oslo');
    expect(trace.toolsCalled).toEqual(['get_weather_forecast']);
    const call = trace.steps[1]!.calls[0]!;
    expect(call).toMatchObject({ toolName: 'get_weather_forecast', input: { city: 42 } });
    expect(call.error).toMatch(/Tool input validation failed for get_weather_forecast/);
    expect(trace.tokens.modelCallsWithoutSearch).toBe(2);
  } finally {
    await scripted.dispose();
  }
});
