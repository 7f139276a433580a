import { expectDemoTrace, testedDemoRequests } from '@tool-search/example-catalog/testing';
import { afterAll, describe, it } from 'vitest';
import { createAiSdkAgent } from './ai-sdk-agent';
import { createOfflineModel } from './offline-model';

const model = createOfflineModel();
const agent = await createAiSdkAgent({ model });
afterAll(() => agent.dispose());

describe.each(testedDemoRequests)('the AI SDK example on "$text"', ({ text, expectedTools }) => {
  it('searches, loads, calls the right tools and sends far fewer tokens than the whole catalog', async () => {
    const sentBefore = model.doGenerateCalls.length;
    const trace = await agent.ask(text);

    expectDemoTrace(
      trace,
      { text, expectedTools },
      model.doGenerateCalls.slice(sentBefore).map((call) => call.tools?.map((tool) => tool.name)),
    );
  });
});
