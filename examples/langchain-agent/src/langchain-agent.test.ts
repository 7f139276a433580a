import type { BindToolsInput } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import { toolSearchInstructions } from '@tool-search/core';
import { countPromptTokens, type PromptTokens } from '@tool-search/example-catalog';
import { expectDemoTrace, testedDemoRequests } from '@tool-search/example-catalog/testing';
import { AIMessage, fakeModel } from 'langchain';
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

/** A model that loads the forecast tool, then calls it with a city its schema refuses, then answers. */
const modelWithBadInput = () =>
  fakeModel()
    .respondWithTools([{ name: 'load_tool', args: { toolName: 'get_weather_forecast' } }])
    .respondWithTools([{ name: 'get_weather_forecast', args: { city: 42 } }])
    .respond(new AIMessage('Sorry.'));

it('shows a call whose input the LangChain tool refused before the tool ran, with what the model was told', async () => {
  const scripted = await createLangChainAgent({ model: modelWithBadInput() });
  try {
    const trace = await scripted.ask('weather in Oslo');
    expect(trace.toolsCalled).toEqual(['get_weather_forecast']);
    const call = trace.steps[1]!.calls[0]!;
    expect(call).toMatchObject({ toolName: 'get_weather_forecast', input: { city: 42 } });
    expect(call.error).toMatch(/Error invoking tool 'get_weather_forecast'/);
    expect(trace.tokens.modelCallsWithoutSearch).toBe(2);
  } finally {
    await scripted.dispose();
  }
});
