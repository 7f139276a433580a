import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { everyForwardedEngineOption, invalidOptionsMessage } from '@tool-search/core/testing';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { createCatalog, createExecutionLog } from './__fixtures__/tools';
import { createToolSearchBinder } from './tool-search-binder';
import { toolSearchMiddleware } from './tool-search-middleware';

const catalog = createCatalog(createExecutionLog());

describe('unknown option names', () => {
  it('toolSearchMiddleware refuses one, naming the closest option (nested ones by their path)', () => {
    const make = (options: object) => () => toolSearchMiddleware({ tools: catalog, ...options } as never);
    expect(invalidOptionsMessage(make({ topk: 3 }))).toBe(
      'unknown option `topk` of toolSearchMiddleware; did you mean `search.topK`?',
    );
    expect(invalidOptionsMessage(make({ search: { minscore: 0.1 } }))).toBe(
      'unknown option `search.minscore` of toolSearchMiddleware; did you mean `search.minScore`?',
    );
    expect(invalidOptionsMessage(make({ instruction: false }))).toMatch(/did you mean `instructions`\?$/);
    // The binder's own tools are the agent's `tools` here.
    expect(invalidOptionsMessage(make({ alwaysOn: [] }))).toMatch(
      /^unknown option `alwaysOn` of toolSearchMiddleware; its options are /,
    );
  });

  it('createToolSearchBinder and bind() refuse one, naming the closest option', async () => {
    expect(
      invalidOptionsMessage(() => createToolSearchBinder({ tools: catalog, alwayson: [] } as never)),
    ).toBe('unknown option `alwayson` of createToolSearchBinder; did you mean `alwaysOn`?');
    expect(
      invalidOptionsMessage(() => createToolSearchBinder({ tools: catalog, name: 'x' } as never)),
    ).toMatch(/^unknown option `name` of createToolSearchBinder; /);
    const binder = createToolSearchBinder({ tools: catalog });
    await expect(binder.bind({ model: fakeModel(), threadID: 't' } as never)).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: 'unknown option `threadID` of bind; did you mean `threadId`?',
    });
  });

  it('refuses a native option that names no provider', () => {
    expect(() => toolSearchMiddleware({ tools: catalog, native: 'gemini' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });

  it('every option is taken, and createAgent runs with the middleware', async () => {
    const middleware = toolSearchMiddleware({
      tools: catalog,
      includeResolvedTools: false,
      // fakeModel has no provider with deferred loading: the default mode, as asked.
      native: 'auto',
      name: 'ToolSearch',
      instructions: true,
      ...everyForwardedEngineOption(),
    });
    const result = await createAgent({
      model: fakeModel().respond(new AIMessage('hi')),
      middleware: [middleware],
    }).invoke({ messages: [new HumanMessage('hello')] });
    expect(result.messages.at(-1)?.text).toBe('hi');
    const binder = createToolSearchBinder({ tools: catalog, alwaysOn: [] });
    const step = await binder.bind({
      model: fakeModel(),
      threadId: 't',
      messages: [],
      requestContext: undefined,
      tools: undefined,
      bindOptions: undefined,
    });
    expect(step.visible).toEqual(['search_tools', 'load_tool']);
  });
});
