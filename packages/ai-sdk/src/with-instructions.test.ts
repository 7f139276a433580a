import { ToolSearchError } from '@tool-search/core';
import { generateText, isStepCount, streamText, ToolLoopAgent } from 'ai';
import { describe, expect, it } from 'vitest';
import { createCatalog } from './__fixtures__/catalog';
import { type SeenCall, scriptedModel } from './__fixtures__/scripted-model';
import { createToolSearch } from './create-tool-search';

/** search → load → call → answer: four model calls. */
const searchLoadCall = [
  { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather' } }] },
  { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
  { toolCalls: [{ toolName: 'getWeather', input: { city: 'Rome' } }] },
  { text: 'sunny' },
];

/** The system messages a model call was sent, in order. */
const systemOf = (call: SeenCall) => call.prompt.filter((message) => message.role === 'system');

describe("forCall() adds tool search's instructions to the call's own", () => {
  it('generateText: after the call’s instructions, once, the same on every step and every call', async () => {
    const toolSearch = createToolSearch({ tools: createCatalog().tools });
    const expected = [{ role: 'system', content: `Answer in French.\n\n${toolSearch.instructions}` }];
    for (const threadId of ['one', 'two']) {
      const { model, seen } = scriptedModel(searchLoadCall);
      await generateText({
        model,
        ...toolSearch.forCall({ threadId }),
        instructions: 'Answer in French.',
        stopWhen: isStepCount(6),
        prompt: 'Weather in Rome?',
      });
      expect(seen).toHaveLength(4);
      for (const call of seen) expect(systemOf(call)).toEqual(expected);
    }
  });

  it('without instructions of the call, they are the whole system prompt; written in by hand, they are not doubled', async () => {
    const toolSearch = createToolSearch({ tools: createCatalog().tools });
    const bare = scriptedModel(searchLoadCall);
    await generateText({ model: bare.model, ...toolSearch.forCall(), stopWhen: isStepCount(6), prompt: 'x' });
    const byHand = scriptedModel(searchLoadCall);
    await generateText({
      model: byHand.model,
      ...toolSearch.forCall(),
      instructions: toolSearch.instructions,
      stopWhen: isStepCount(6),
      prompt: 'x',
    });
    for (const call of [...bare.seen, ...byHand.seen]) {
      expect(systemOf(call)).toEqual([{ role: 'system', content: toolSearch.instructions }]);
    }
  });

  it('streamText: system messages (the older `system` option) keep their provider options, and ours follow', async () => {
    const toolSearch = createToolSearch({ tools: createCatalog().tools });
    const cached = {
      role: 'system' as const,
      content: 'You are a travel agent.',
      providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
    };
    const { model, seen } = scriptedModel(searchLoadCall);
    const result = streamText({
      model,
      ...toolSearch.forCall({ threadId: 's' }),
      system: [cached],
      stopWhen: isStepCount(6),
      prompt: 'Weather in Rome?',
    });
    expect(await result.text).toBe('sunny');
    expect(seen).toHaveLength(4);
    for (const call of seen) {
      expect(systemOf(call)).toEqual([cached, { role: 'system', content: toolSearch.instructions }]);
    }
  });

  it('a prepareStep given to forCall may replace the instructions: ours are added to its own', async () => {
    const toolSearch = createToolSearch({ tools: createCatalog().tools });
    const { model, seen } = scriptedModel(searchLoadCall);
    await generateText({
      model,
      ...toolSearch.forCall({
        prepareStep: ({ stepNumber }) => (stepNumber === 2 ? { system: 'Be brief.' } : undefined),
      }),
      instructions: 'Answer in French.',
      stopWhen: isStepCount(6),
      prompt: 'Weather in Rome?',
    });
    expect(seen.map((call) => systemOf(call).map((message) => message.content))).toEqual([
      [`Answer in French.\n\n${toolSearch.instructions}`],
      [`Answer in French.\n\n${toolSearch.instructions}`],
      [`Be brief.\n\n${toolSearch.instructions}`],
      [`Be brief.\n\n${toolSearch.instructions}`],
    ]);
  });

  it("ToolLoopAgent: the agent's instructions stay, and ours follow them", async () => {
    const toolSearch = createToolSearch({ tools: createCatalog().tools });
    const { model, seen } = scriptedModel(searchLoadCall);
    const agent = new ToolLoopAgent({
      model,
      instructions: 'You are a weather bot.',
      tools: toolSearch.tools,
      prepareCall: ({ prepareStep, repairToolCall, ...settings }) => ({
        ...settings,
        ...toolSearch.forCall({ threadId: 'agent', prepareStep, repairToolCall }),
      }),
      stopWhen: isStepCount(6),
    });
    expect((await agent.generate({ prompt: 'Weather in Rome?' })).text).toBe('sunny');
    for (const call of seen) {
      expect(systemOf(call)).toEqual([
        { role: 'system', content: `You are a weather bot.\n\n${toolSearch.instructions}` },
      ]);
    }
  });

  it('instructions: false leaves the call’s instructions as they are; anything but a boolean is refused', async () => {
    const toolSearch = createToolSearch({ tools: createCatalog().tools, instructions: false });
    const { model, seen } = scriptedModel(searchLoadCall);
    await generateText({
      model,
      ...toolSearch.forCall(),
      instructions: 'Mine only.',
      stopWhen: isStepCount(6),
      prompt: 'x',
    });
    for (const call of seen) expect(systemOf(call)).toEqual([{ role: 'system', content: 'Mine only.' }]);

    const refused = (() => {
      try {
        createToolSearch({ tools: {}, instructions: 'Use the tools.' as unknown as boolean });
      } catch (error) {
        return error;
      }
    })();
    expect(ToolSearchError.isInstance(refused) && refused.code).toBe('INVALID_OPTIONS');
  });
});
