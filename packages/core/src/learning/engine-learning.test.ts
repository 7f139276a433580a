import { describe, expect, it } from 'vitest';
import { harness } from '../__fixtures__/engine-fixtures';
import { createFakeClock } from '../clock';
import type { EvidenceStore } from './evidence';
import { createLearning } from './learning';

const PARAPHRASE = 'should I pack an umbrella for my trip';

describe('the engine with learning', () => {
  it('records a search, a load and a successful call as evidence, and ranks with it in the next request', async () => {
    const clock = createFakeClock();
    const learning = createLearning({ clock });
    const { engine, eventsOf } = harness({ learning, clock });
    const names = async (threadId: string, query: string) =>
      (await engine.startRequest({ threadId }).searchTools({ query })).results.map((result) => result.name);
    const before = await names('a', PARAPHRASE);

    const request = engine.startRequest({ threadId: 'user-1' });
    const found = await request.searchTools({ query: 'umbrella weather for my trip' });
    expect(found.results[0]?.name).toBe('getWeather');
    await request.loadTool({ toolName: 'getWeather' });
    await request.prepareStep();
    expect((await request.guard('getWeather')).allowed).toBe(true);
    expect(request.toolCallSucceeded('getWeather')).toBe(true);
    expect(request.toolCallSucceeded('getWeather')).toBe(false); // once per request and tool

    expect(eventsOf('evidence')).toEqual([
      {
        type: 'evidence',
        threadId: 'user-1',
        time: clock.now(),
        toolName: 'getWeather',
        query: 'umbrella weather for my trip',
        source: 'call',
        recorded: true,
      },
    ]);
    const after = await names('b', PARAPHRASE);
    expect(after[0]).toBe('getWeather');
    expect(before[0]).not.toBe('getWeather');
  });

  it('records nothing for a call of a tool no search of the request found', async () => {
    const learning = createLearning();
    const { engine, eventsOf } = harness({ learning });
    const request = engine.startRequest({ threadId: 'user-1' });
    await request.searchTools({ query: 'send an email' });
    await request.loadTool({ toolName: 'getWeather' });
    await request.prepareStep();
    expect(request.toolCallSucceeded('getWeather')).toBe(false);
    expect(request.toolCallSucceeded('no_such_tool')).toBe(false);
    expect(request.toolCallSucceeded(42 as never)).toBe(false);
    expect(eventsOf('evidence')).toEqual([]);
    expect(learning.stats().useCount).toBe(0);
  });

  it('without learning, toolCallSucceeded does nothing', async () => {
    const { engine } = harness();
    const request = engine.startRequest({ threadId: 'user-1' });
    await request.searchTools({ query: 'weather' });
    expect(request.toolCallSucceeded('getWeather')).toBe(false);
  });

  it('only ranks: a forbidden tool with evidence is still neither listed nor loaded', async () => {
    const learning = createLearning();
    const { engine } = harness({
      learning,
      filter: ({ toolName }) => toolName !== 'send_email',
    });
    for (let index = 0; index < 50; index++) {
      learning.recordUse({ query: `umbrella ${index}`, toolName: 'send_email', threadId: `t${index}` });
    }
    const request = engine.startRequest({ threadId: 'x' });
    const found = await request.searchTools({ query: 'umbrella' });
    expect(found.results.map((result) => result.name)).not.toContain('send_email');
    const loaded = await request.loadTool({ toolName: 'send_email' });
    expect(loaded.success).toBe(false);
    await request.prepareStep();
    expect((await request.guard('send_email')).allowed).toBe(false);
  });

  it('reports the evidence store failing as store-error events, and search goes on', async () => {
    const broken: EvidenceStore = {
      add: () => Promise.reject(new Error('down')),
      list: () => Promise.reject(new Error('down')),
    };
    const learning = createLearning({ store: broken });
    const { engine, eventsOf } = harness({ learning });
    await learning.ready;
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    await learning.flush();
    const found = await engine.startRequest({ threadId: 'x' }).searchTools({ query: 'umbrella' });
    expect(found.results[0]?.name).toBe('getWeather');
    expect(eventsOf('store-error').map((event) => event.operation)).toEqual([
      'evidence.list',
      'evidence.add',
    ]);
    expect(eventsOf('evidence')).toHaveLength(1);
  });

  it('stops reporting the learning’s events once disposed', async () => {
    const learning = createLearning();
    const { engine, eventsOf } = harness({ learning });
    await engine.dispose();
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    expect(eventsOf('evidence')).toEqual([]);
  });

  it('refuses a learning option that createLearning did not make', () => {
    expect(() => harness({ learning: { recordUse: () => ({ recorded: true }) } as never })).toThrow(
      /createLearning/,
    );
  });
});
