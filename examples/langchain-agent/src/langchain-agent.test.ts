import type { BindToolsInput } from '@langchain/core/language_models/chat_models';
import { demoRequests } from '@tool-search/example-catalog';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLangChainAgent } from './langchain-agent';
import { OfflinePlannerChatModel } from './offline-model';

// The tools createAgent binds to the model before each model call: what the model is sent.
const bound: string[][] = [];
const bindTools = OfflinePlannerChatModel.prototype.bindTools;
vi.spyOn(OfflinePlannerChatModel.prototype, 'bindTools').mockImplementation(function (
  this: OfflinePlannerChatModel,
  tools: BindToolsInput[],
) {
  bound.push(tools.map((tool) => (tool as { name: string }).name));
  return bindTools.call(this, tools);
});

const agent = await createLangChainAgent({ model: 'offline' });
afterAll(() => agent.dispose());

describe.each(demoRequests.filter((request) => ['restaurant', 'trip'].includes(request.id)))(
  'the LangChain example on "$text"',
  ({ text, expectedTools }) => {
    it('searches, loads, calls the right tools and sends far fewer tokens than the whole catalog', async () => {
      const boundBefore = bound.length;
      const trace = await agent.ask(text);

      const steps = trace.steps;
      expect(trace.model).toMatch(/offline planner/);
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
      expect(bound.slice(boundBefore)).toEqual(steps.map((step) => step.sent));

      const { tokens } = trace;
      expect(tokens.modelCalls).toBe(steps.length);
      expect(tokens.wholeCatalogPerCall).toBeGreaterThan(10_000);
      expect(tokens.withToolSearch).toBeGreaterThan(0);
      expect(tokens.withToolSearch).toBeLessThan(tokens.wholeCatalog);
      expect(tokens.withToolSearch).toBeLessThan(tokens.wholeCatalogPerCall);
    });
  },
);
