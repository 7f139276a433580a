import { createOfflineModel } from '@tool-search/example-ai-sdk-agent';
import { demoRequests } from '@tool-search/example-catalog';
import { afterAll, describe, expect, it } from 'vitest';
import { createMastraAgent } from './mastra-agent';

const model = createOfflineModel();
/** The tools the model was sent at each call (Mastra's generate goes through doStream or doGenerate). */
const modelCalls = () => [...model.doGenerateCalls, ...model.doStreamCalls];
const agent = await createMastraAgent({ model });
afterAll(() => agent.dispose());

describe.each(demoRequests.filter((request) => ['restaurant', 'trip'].includes(request.id)))(
  'the Mastra example on "$text"',
  ({ text, expectedTools }) => {
    it('searches, loads, calls the right tools and sends far fewer tokens than the whole catalog', async () => {
      const sentBefore = modelCalls().length;
      const trace = await agent.ask(text);

      const steps = trace.steps;
      expect(steps[0]!.sent).toEqual(['search_tools', 'load_tool']);
      expect(steps[0]!.searches[0]!.query).toBe(text);
      expect(steps[0]!.searches[0]!.results.map((result) => result.name)).toEqual(
        expect.arrayContaining([...expectedTools]),
      );
      expect(steps.flatMap((step) => step.loads.flatMap((load) => load.loaded))).toEqual(expectedTools);
      expect(trace.toolsCalled).toEqual(expectedTools);
      expect(steps.flatMap((step) => step.calls).every((call) => call.error === undefined)).toBe(true);
      expect(trace.answer).toMatch(/^\[offline planner\]/);
      // The trace tells what the model was really sent, step by step.
      expect(
        modelCalls()
          .slice(sentBefore)
          .map((call) => call.tools?.map((tool) => tool.name)),
      ).toEqual(steps.map((step) => step.sent));

      const { tokens } = trace;
      expect(tokens.modelCalls).toBe(steps.length);
      expect(tokens.wholeCatalogPerCall).toBeGreaterThan(10_000);
      expect(tokens.withToolSearch).toBeGreaterThan(0);
      expect(tokens.withToolSearch).toBeLessThan(tokens.wholeCatalog);
      expect(tokens.withToolSearch).toBeLessThan(tokens.wholeCatalogPerCall);
    });
  },
);
