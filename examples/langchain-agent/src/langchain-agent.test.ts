import type { BindToolsInput } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import { toolSearchInstructions } from '@tool-search/core';
import { countPromptTokens, type PromptTokens } from '@tool-search/example-catalog';
import { expectDemoTrace, testedDemoRequests } from '@tool-search/example-catalog/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLangChainAgent } from './langchain-agent';
import { OfflinePlannerChatModel } from './offline-model';
import { toOpenAIChatMessages } from './prompt-capture';

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

// The messages each model call received, counted as @langchain/openai sends them.
const received: PromptTokens[] = [];
const generate = OfflinePlannerChatModel.prototype._generate;
vi.spyOn(OfflinePlannerChatModel.prototype, '_generate').mockImplementation(function (
  this: OfflinePlannerChatModel,
  messages: BaseMessage[],
  ...rest: unknown[]
) {
  received.push(
    countPromptTokens(toOpenAIChatMessages(messages), { instructions: toolSearchInstructions() }),
  );
  return generate.call(this, messages, ...(rest as []));
});

const agent = await createLangChainAgent({ model: 'offline' });
afterAll(() => agent.dispose());

describe.each(testedDemoRequests)('the LangChain example on "$text"', ({ text, expectedTools }) => {
  it('searches, loads, calls the right tools and sends far fewer tokens than the whole catalog', async () => {
    const boundBefore = bound.length;
    const receivedBefore = received.length;
    const trace = await agent.ask(text);

    expect(trace.model).toMatch(/offline planner/);
    expectDemoTrace(trace, { text, expectedTools }, bound.slice(boundBefore), received.slice(receivedBefore));
  });
});
