import type { BindToolsInput } from '@langchain/core/language_models/chat_models';
import { expectDemoTrace, testedDemoRequests } from '@tool-search/example-catalog/testing';
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

describe.each(testedDemoRequests)('the LangChain example on "$text"', ({ text, expectedTools }) => {
  it('searches, loads, calls the right tools and sends far fewer tokens than the whole catalog', async () => {
    const boundBefore = bound.length;
    const trace = await agent.ask(text);

    expect(trace.model).toMatch(/offline planner/);
    expectDemoTrace(trace, { text, expectedTools }, bound.slice(boundBefore));
  });
});
