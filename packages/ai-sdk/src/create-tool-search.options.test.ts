import { everyForwardedEngineOption, invalidOptionsMessage } from '@tool-search/core/testing';
import { generateText, isStepCount } from 'ai';
import { describe, expect, it } from 'vitest';
import { createCatalog } from './__fixtures__/catalog';
import { scriptedModel } from './__fixtures__/scripted-model';
import { createToolSearch } from './create-tool-search';

describe('unknown option names', () => {
  it('createToolSearch refuses one, naming the closest option (nested ones by their path)', () => {
    const { tools, getTime } = createCatalog();
    const make = (options: object) => () => createToolSearch({ tools, ...options } as never);
    expect(invalidOptionsMessage(make({ topk: 3 }))).toBe(
      'unknown option `topk` of createToolSearch; did you mean `search.topK`?',
    );
    expect(invalidOptionsMessage(make({ topK: 3 }))).toBe(
      'unknown option `topK` of createToolSearch; did you mean `search.topK`?',
    );
    expect(invalidOptionsMessage(make({ search: { topk: 3 } }))).toBe(
      'unknown option `search.topk` of createToolSearch; did you mean `search.topK`?',
    );
    expect(invalidOptionsMessage(make({ alwayson: { getTime } }))).toMatch(/did you mean `alwaysOn`\?$/);
    // The engine's name for the catalog is not this adapter's, nor a per-call option.
    expect(invalidOptionsMessage(make({ catalog: [] }))).toMatch(
      /^unknown option `catalog` of createToolSearch; its options are /,
    );
    expect(invalidOptionsMessage(make({ threadId: 'u1' }))).toMatch(
      /^unknown option `threadId` of createToolSearch; /,
    );
  });

  it('forCall refuses one, naming the closest option', () => {
    const toolSearch = createToolSearch({ tools: createCatalog().tools });
    expect(invalidOptionsMessage(() => toolSearch.forCall({ threadID: 'u1' } as never))).toBe(
      'unknown option `threadID` of forCall; did you mean `threadId`?',
    );
    expect(invalidOptionsMessage(() => toolSearch.forCall({ runtimeContext: {} } as never))).toBe(
      'unknown option `runtimeContext` of forCall; its options are threadId, requestContext, requestTools, prepareStep, repairToolCall, abortSignal, model, allowSystemInMessages',
    );
    expect(invalidOptionsMessage(() => toolSearch.forCall({ prepareSteps: () => ({}) } as never))).toMatch(
      /did you mean `prepareStep`\?$/,
    );
  });

  it('every option of both is taken, and the call runs', async () => {
    const { tools, getTime, ran } = createCatalog();
    const toolSearch = createToolSearch({
      tools,
      alwaysOn: { getTime },
      instructions: true,
      ...everyForwardedEngineOption(),
    });
    const { model } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
      { toolCalls: [{ toolName: 'getWeather', input: { city: 'Oslo' } }] },
      { text: 'done' },
    ]);
    const result = await generateText({
      model,
      ...toolSearch.forCall({
        threadId: 'every-option',
        requestContext: undefined,
        requestTools: undefined,
        prepareStep: undefined,
        repairToolCall: undefined,
        abortSignal: undefined,
      }),
      stopWhen: isStepCount(5),
      prompt: 'weather in Oslo?',
    });
    expect(result.text).toBe('done');
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Oslo' } }]);
  });
});
