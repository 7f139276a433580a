import { toolSearchInstructions } from '@tool-search/core';
import { countPromptTokens } from '@tool-search/example-catalog';
import { expectDemoTrace, testedDemoRequests } from '@tool-search/example-catalog/testing';
import { afterAll, describe, it } from 'vitest';
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
