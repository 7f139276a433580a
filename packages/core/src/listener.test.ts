import { afterEach, describe, expect, it } from 'vitest';
import { entry } from './__fixtures__/engine-fixtures';
import { createToolSearchEngine } from './engine';
import { safeListener } from './listener';

const unhandled: unknown[] = [];
const record = (reason: unknown) => unhandled.push(reason);

afterEach(() => {
  process.off('unhandledRejection', record);
  unhandled.length = 0;
});

/** Lets pending rejections reach Node's unhandled-rejection check. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('safeListener', () => {
  it('keeps a listener that throws, or an async one that rejects, from failing anything', async () => {
    process.on('unhandledRejection', record);
    const calls: string[] = [];
    safeListener((value: string) => {
      calls.push(value);
      throw new Error('sync');
    }, 'onEvent')('a');
    safeListener(async (value: string) => {
      calls.push(value);
      throw new Error('metrics down');
    }, 'onEvent')('b');
    // A thenable that is not a Promise, rejecting.
    safeListener((value: string) => {
      calls.push(value);
      return {
        // biome-ignore lint/suspicious/noThenProperty: a thenable that is not a Promise is the case tested
        then: (_: unknown, reject: (reason: unknown) => void) => reject(new Error('thenable')),
      };
    }, 'onEvent')('c');
    await settle();
    expect(calls).toEqual(['a', 'b', 'c']);
    expect(unhandled).toEqual([]);
  });

  it('an engine whose async onEvent rejects on every event runs a search and a load with no unhandled rejection', async () => {
    process.on('unhandledRejection', record);
    const seen: string[] = [];
    const engine = createToolSearchEngine({
      catalog: [entry('get_weather', { description: 'Current weather for a city.' })],
      onEvent: async (event) => {
        seen.push(event.type);
        throw new Error('metrics down');
      },
    });
    const request = engine.startRequest({ threadId: 't' });
    const found = await request.searchTools({ query: 'weather' });
    expect(found.results.map((result) => result.name)).toEqual(['get_weather']);
    expect((await request.loadTool({ toolName: 'get_weather' })).success).toBe(true);
    await settle();
    expect(seen.length).toBeGreaterThan(0);
    expect(unhandled).toEqual([]);
  });
});
