import { describe, expect, it } from 'vitest';
import { harness } from '../__fixtures__/engine-fixtures';
import { createFakeClock } from '../clock';
import type { EvidenceStore } from './evidence';
import { createLearning, type LearningEvent } from './learning';

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
    expect(request.toolCallSucceeded('getWeather')).toBe(false); // once per search and tool

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

  it('counts each request without a thread as its own thread for the caps; a thread keeps its caps', async () => {
    const told: LearningEvent[] = [];
    const learning = createLearning({ maxUsesPerThread: 3, onEvent: (event) => told.push(event) });
    const { engine, eventsOf } = harness({ learning });
    /** One request: a search, a load and a successful call of each tool; what was recorded. */
    const use = async (threadId: string | undefined, toolNames: readonly string[]) => {
      const request = engine.startRequest(threadId === undefined ? {} : { threadId });
      const recorded: boolean[] = [];
      for (const toolName of toolNames) {
        await request.searchTools({ query: `${toolName} please, for my trip` });
        await request.loadTool({ toolName });
      }
      await request.prepareStep();
      for (const toolName of toolNames) {
        expect((await request.guard(toolName)).allowed).toBe(true);
        recorded.push(request.toolCallSucceeded(toolName));
      }
      return recorded;
    };
    // 30 requests without a thread (no threadId, or the shared 'default' one): 30 uses.
    for (let count = 0; count < 30; count++) {
      expect(await use(count % 2 === 0 ? undefined : 'default', ['getWeather'])).toEqual([true]);
    }
    expect(learning.stats().useCount).toBe(30);
    // One conversation stops at its caps: two uses of one tool (maxThreadUsesPerTool)…
    for (let count = 0; count < 5; count++) await use('user-1', ['getWeather']);
    expect(learning.stats().useCount).toBe(32);
    // …and three in all (maxUsesPerThread), as does one request without a thread.
    expect(
      await use('user-2', ['send_email', 'convert_currency', 'search_flights', 'refund_payment']),
    ).toEqual([true, true, true, false]);
    expect(
      await use(undefined, ['send_email', 'convert_currency', 'search_flights', 'refund_payment']),
    ).toEqual([true, true, true, false]);
    const refused = eventsOf('evidence').filter((event) => !event.recorded);
    expect(refused.map((event) => event.reason)).toEqual(Array(5).fill('thread-cap'));
    // A use of a request without a thread: the engine's event has the 'default' thread, the
    // learning's names none, and the store keeps a digest of the request's own key.
    expect(eventsOf('evidence')[0]).toMatchObject({ threadId: 'default', recorded: true });
    expect(told[0]).toMatchObject({ type: 'evidence', recorded: true });
    expect(told[0]).not.toHaveProperty('threadId');
    const { uses } = await learning.exportEvidence();
    expect(new Set(uses.slice(0, 30).map((stored) => stored.thread)).size).toBe(30);
    expect(JSON.stringify(uses)).not.toContain('default');
  });

  it('counts a call in a later request of the thread as a use of the search that found its tool', async () => {
    const learning = createLearning();
    const { engine, eventsOf } = harness({ learning });
    // Request 1 (one model call) searches and loads; request 2 (the next call) runs the tool.
    const first = engine.startRequest({ threadId: 'user-1' });
    await first.searchTools({ query: 'umbrella weather for my trip' });
    await first.loadTool({ toolName: 'getWeather' });
    const call = async (threadId: string | undefined) => {
      const request = engine.startRequest(threadId === undefined ? {} : { threadId });
      await request.prepareStep();
      return request;
    };
    // Another thread, or a request without one, never takes user-1's search.
    expect((await call('user-2')).toolCallSucceeded('getWeather')).toBe(false);
    expect((await call(undefined)).toolCallSucceeded('getWeather')).toBe(false);
    const second = await call('user-1');
    expect((await second.guard('getWeather')).allowed).toBe(true);
    expect(second.toolCallSucceeded('getWeather')).toBe(true);
    // The same search counts once for the tool, in this request or a later one…
    expect(second.toolCallSucceeded('getWeather')).toBe(false);
    expect((await call('user-1')).toolCallSucceeded('getWeather')).toBe(false);
    // …and a new search that finds it again counts again.
    const third = await call('user-1');
    await third.searchTools({ query: 'is it raining in Oslo, weather' });
    expect(third.toolCallSucceeded('getWeather')).toBe(true);
    expect(eventsOf('evidence').map((event) => [event.threadId, event.query])).toEqual([
      ['user-1', 'umbrella weather for my trip'],
      ['user-1', 'is it raining in Oslo, weather'],
    ]);
    // clearState forgets the thread's searches.
    const fourth = await call('user-1');
    await fourth.searchTools({ query: 'weather tomorrow' });
    await engine.clearState('user-1');
    expect((await call('user-1')).toolCallSucceeded('getWeather')).toBe(false);
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

  it('takes a 100 kB, a unicode and a __proto__ query from a search, and refuses meta-tools and unknown names', async () => {
    const learning = createLearning();
    const { engine } = harness({ learning });
    for (const query of [`weather ${'ä '.repeat(50_000)}`, '天气 weather ☔', '__proto__ weather']) {
      const request = engine.startRequest({ threadId: `t-${query.length}` });
      await request.searchTools({ query });
      await request.loadTool({ toolName: 'getWeather' });
      await request.prepareStep();
      expect(request.toolCallSucceeded('getWeather')).toBe(true);
    }
    const exported = await learning.exportEvidence();
    expect(exported.uses.map((use) => use.query.length)).toEqual([1_000, 12, 17]);
    expect(learning.recordUse({ query: 'weather', toolName: 'search_tools' }).reason).toBe('unknown-tool');
    expect(learning.recordUse({ query: 'weather', toolName: '__proto__' }).reason).toBe('unknown-tool');
    const found = await engine.startRequest({ threadId: 'u' }).searchTools({ query: '天气' });
    expect(found.results[0]?.name).toBe('getWeather');
  });

  it('refuses a learning option that createLearning did not make', () => {
    expect(() => harness({ learning: { recordUse: () => ({ recorded: true }) } as never })).toThrow(
      /createLearning/,
    );
  });
});
