import { toolSearchInstructions } from '@tool-search/core';
import { createOfflineModel, toOpenAIChatMessages } from '@tool-search/example-ai-sdk-agent';
import { countPromptTokens } from '@tool-search/example-catalog';
import { expectDemoTrace, testedDemoRequests } from '@tool-search/example-catalog/testing';
import { afterAll, describe, it } from 'vitest';
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
