import { createMemoryStore, type LoadStateStore } from '@tool-search/core';
import {
  createFakeClock,
  everyForwardedEngineOption,
  invalidOptionsMessage,
} from '@tool-search/core/testing';
import { describe, expect, it } from 'vitest';
import { call, createAgent, run, say } from './__fixtures__/harness';
import { threadContext } from './__fixtures__/scenarios';
import { sampleTools } from './__fixtures__/tools';
import { ToolSearchProcessor } from './tool-search-processor';

describe('ToolSearchProcessor: unknown option names', () => {
  it('refuses one, naming the closest option (nested ones by their path)', () => {
    const tools = sampleTools();
    const make = (options: object) => () => new ToolSearchProcessor({ tools, ...options } as never);
    expect(invalidOptionsMessage(make({ topk: 3 }))).toBe(
      'unknown option `topk` of ToolSearchProcessor; did you mean `search.topK`?',
    );
    expect(invalidOptionsMessage(make({ search: { topk: 3 } }))).toBe(
      'unknown option `search.topk` of ToolSearchProcessor; did you mean `search.topK`?',
    );
    expect(invalidOptionsMessage(make({ injectcatalog: true }))).toMatch(/did you mean `injectCatalog`\?$/);
    expect(invalidOptionsMessage(make({ includeResolved: true }))).toMatch(
      /^unknown option `includeResolved` of ToolSearchProcessor; /,
    );
    // The engine's own name for the catalog is not the processor's.
    expect(invalidOptionsMessage(() => new ToolSearchProcessor({ catalog: tools } as never))).toMatch(
      /^unknown option `catalog` of ToolSearchProcessor; its options are tools, includeResolvedTools, injectCatalog, search, /,
    );
    expect(invalidOptionsMessage(make(JSON.parse('{"__proto__": {"filter": null}}') as object))).toMatch(
      /^unknown option `__proto__` of ToolSearchProcessor; /,
    );
  });

  it('takes every option of its type, and a processor so made runs in a real Agent', async () => {
    const log: { tool: string; input: unknown }[] = [];
    const store: LoadStateStore = createMemoryStore({ ttl: 0 });
    const processor = new ToolSearchProcessor<LoadStateStore>({
      tools: sampleTools(log),
      includeResolvedTools: false,
      injectCatalog: false,
      // The scripted model has no provider with deferred loading: the default mode, as asked.
      native: 'auto',
      ...everyForwardedEngineOption(),
      storage: store,
      clock: createFakeClock(),
      [Symbol('brand')]: true,
    } as never);
    const { agent } = createAgent({
      processors: [processor],
      script: [call('load_tool', { toolName: 'getWeather' }), call('getWeather', { city: 'Oslo' }), say()],
    });
    await run(agent, 'generate', 'weather?', { requestContext: threadContext('every-option') });
    expect(log).toEqual([{ tool: 'getWeather', input: { city: 'Oslo' } }]);
    processor.dispose();
  });
});
