import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  brokenStore,
  catalogOrderRanker,
  entry,
  type FakeTool,
  harness,
} from './__fixtures__/engine-fixtures';
import { createFakeClock } from './clock';
import { createToolSearchEngine, MAX_REMEMBERED_REJECTIONS, MAX_REMEMBERED_UNLOADS } from './engine';
import { ToolSearchError } from './errors';
import { createMemoryStore } from './memory-store';
import { createDeferred } from './testing/held-ranker';
import { sampleCatalog } from './testing/sample-tools';
import type {
  CatalogEntry,
  ConversationRecord,
  LoadStateStore,
  RankerFactory,
  SearchResult,
  ToolFilter,
  ToolSearchEngineOptions,
} from './types';

function expectCode(run: () => unknown, code: string) {
  try {
    run();
  } catch (error) {
    expect(ToolSearchError.isInstance(error)).toBe(true);
    expect((error as ToolSearchError).code).toBe(code);
    return;
  }
  expect.unreachable(`expected a ToolSearchError ${code}`);
}

/** A store of one's own, answering with promises (over the in-memory store). */
function asyncStore(): LoadStateStore {
  const inner = createMemoryStore({ ttl: 0 });
  return {
    get: async (threadId) => inner.get(threadId),
    add: async (threadId, names) => inner.add(threadId, names),
    delete: async (threadId) => inner.delete(threadId),
    remove: async (threadId, names) => inner.remove(threadId, names),
  };
}

/** A meta-tool call and its result, as an adapter records them. */
function exchange(
  toolCallId: string,
  toolName: string,
  input: unknown,
  output: unknown,
): ConversationRecord[] {
  return [
    { type: 'tool-call', toolCallId, toolName, input },
    { type: 'tool-result', toolCallId, toolName, output },
  ];
}

const flushAll = () => new Promise<void>((resolve) => setImmediate(resolve));

type Storage = Pick<ToolSearchEngineOptions<FakeTool, { user?: string }>, 'storage'>;
const everyStorage: [string, () => Storage][] = [
  ['the in-memory store', () => ({})],
  ['a store of its own', () => ({ storage: asyncStore() })],
  ["'context' storage", () => ({ storage: 'context' })],
];

describe('steps: what the model is sent', () => {
  it('sends meta-tools, then always-on tools, then loaded tools from the next step', async () => {
    const { engine, eventsOf } = harness();
    const request = engine.startRequest({ threadId: 't1', alwaysOn: ['clock'] });

    const first = await request.prepareStep();
    expect(first.visible).toEqual(['search_tools', 'load_tool', 'clock']);
    expect(first.metaTools.map((tool) => tool.name)).toEqual(['search_tools', 'load_tool']);
    expect(first.degraded).toBe(false);

    const found = await request.searchTools({ query: 'weather forecast' });
    expect(found.results.map((result) => result.name)).toContain('getForecast');
    expect((await request.guard('getForecast')).allowed).toBe(false);

    expect(await request.loadTool({ toolName: 'getForecast' })).toMatchObject({
      success: true,
      // Mastra's words ("loaded successfully"), and when the tool can be called.
      message: 'Tool "getForecast" loaded successfully. You can call it from your next step.',
      toolName: 'getForecast',
      loaded: ['getForecast'],
    });
    const second = await request.prepareStep();
    expect(second.visible).toEqual(['search_tools', 'load_tool', 'clock', 'getForecast']);
    expect(second.loaded.map((loaded) => loaded.tool)).toEqual([{ name: 'getForecast' }]);
    expect(await request.guard('getForecast')).toEqual({ allowed: true });
    expect(request.resolve('getForecast')?.descriptor.name).toBe('getForecast');

    expect(eventsOf('step').at(-1)).toMatchObject({ visibleCount: 4, catalogCount: 13, threadId: 't1' });
  });

  it('only appends: every step is a prefix of the next', async () => {
    const { engine } = harness();
    const request = engine.startRequest({ threadId: 't', alwaysOn: ['a', 'b'] });
    const steps: (readonly string[])[] = [(await request.prepareStep()).visible];
    for (const names of [['send_email'], ['getWeather', 'refund_payment'], ['upload_file'], ['send_email']]) {
      await request.loadTool({ toolNames: names });
      steps.push((await request.prepareStep()).visible);
    }
    for (let index = 1; index < steps.length; index++) {
      expect(steps[index]!.slice(0, steps[index - 1]!.length)).toEqual(steps[index - 1]);
    }
    expect(steps.at(-1)).toEqual([
      'search_tools',
      'load_tool',
      'a',
      'b',
      'send_email',
      'getWeather',
      'refund_payment',
      'upload_file',
    ]);
  });

  it('shows a loaded tool that is also always-on once, in its always-on place', async () => {
    const { engine } = harness();
    const request = engine.startRequest({ alwaysOn: ['getWeather'] });
    expect(await request.loadTool({ toolName: 'getWeather' })).toMatchObject({
      success: true,
      alreadyLoaded: ['getWeather'],
    });
    expect((await request.prepareStep()).visible).toEqual(['search_tools', 'load_tool', 'getWeather']);
  });

  it('reports an always-on tool outside the catalog as already loaded, whatever the filter', async () => {
    const filter = vi.fn<ToolFilter<FakeTool>>(({ toolName }) => toolName !== 'secret');
    const { engine } = harness({ filter });
    const request = engine.startRequest({ threadId: 't', alwaysOn: ['calculator', 'secret'] });
    expect(await request.loadTool({ toolName: 'calculator' })).toMatchObject({
      success: true,
      toolName: 'calculator',
      alreadyLoaded: ['calculator'],
    });
    expect(await request.loadTool({ toolName: 'secret' })).toMatchObject({
      success: true,
      toolName: 'secret',
      alreadyLoaded: ['secret'],
    });
    expect(await engine.getLoadedToolNames('t')).toEqual([]);
    expect(filter).not.toHaveBeenCalled();
  });

  it('never lets an always-on tool replace a meta-tool', async () => {
    const { engine, eventsOf } = harness();
    const request = engine.startRequest({ alwaysOn: ['search_tools', 'mine', 'mine', ''] });
    expect((await request.prepareStep()).visible).toEqual(['search_tools', 'load_tool', 'mine']);
    expect(eventsOf('tool-rejected').map((event) => [event.toolName, event.reason])).toEqual([
      ['search_tools', 'reserved-name'],
      ['', 'invalid-name'],
    ]);
  });

  it('always-on entries resolve to their own tool, which the filter never sees', async () => {
    const filter = vi.fn<ToolFilter<FakeTool>>(({ tool }) => tool?.owner !== 'blocked');
    const { engine } = harness({ filter });
    const mine = entry('mine', { owner: 'me' });
    const other = entry('other', { owner: 'blocked' });
    const request = engine.startRequest({ alwaysOn: [mine, other] });
    expect((await request.prepareStep()).visible).toEqual(['search_tools', 'load_tool', 'mine', 'other']);
    expect(request.resolve('mine')).toBe(mine);
    expect(request.resolve('other')).toBe(other);
    expect(await request.guard('other')).toEqual({ allowed: true });
    expect(filter).not.toHaveBeenCalled();
  });

  it('counts catalog tools once when a request tool shadows a static one', async () => {
    const { engine, eventsOf } = harness();
    const request = engine.startRequest({
      alwaysOn: ['x'],
      requestTools: [entry('getWeather', { owner: 'u1' }), entry('mcp_only')],
    });
    await request.prepareStep();
    expect(eventsOf('step').at(-1)).toMatchObject({ visibleCount: 3, catalogCount: 1 + 12 + 1 });
    expect(engine.catalogSize).toBe(12);
  });
});

describe('threads and load state', () => {
  it('keeps a thread’s loads across requests and apart from other threads', async () => {
    const { engine } = harness();
    await engine.startRequest({ threadId: 'alice' }).loadTool({ toolName: 'send_email' });
    expect((await engine.startRequest({ threadId: 'alice' }).prepareStep()).visible).toContain('send_email');
    expect((await engine.startRequest({ threadId: 'bob' }).prepareStep()).visible).not.toContain(
      'send_email',
    );
    expect(await engine.getLoadedToolNames('alice')).toEqual(['send_email']);
  });

  it('lets requests without a usable thread id share the default thread', async () => {
    const { engine } = harness();
    await engine.startRequest({}).loadTool({ toolName: 'send_email' });
    for (const threadId of [undefined, null, '', Number.NaN, Number.POSITIVE_INFINITY, {}, ['t']]) {
      const request = engine.startRequest({ threadId: threadId as string | undefined });
      expect(request.threadId).toBe('default');
      expect((await request.prepareStep()).visible).toContain('send_email');
    }
    expect(await engine.getLoadedToolNames()).toEqual(['send_email']);
  });

  it('keeps a numeric or bigint thread id as the thread of its string, apart from the default thread', async () => {
    const { engine } = harness();
    await engine.startRequest({ threadId: 42 }).loadTool({ toolName: 'send_email' });
    const request = engine.startRequest({ threadId: '42' });
    expect(request.threadId).toBe('42');
    expect((await request.prepareStep()).visible).toContain('send_email');
    expect(await engine.getLoadedToolNames(42)).toEqual(['send_email']);
    expect(await engine.getLoadedToolNames()).toEqual([]);
    expect((await engine.startRequest({ threadId: 43 }).prepareStep()).visible).not.toContain('send_email');
    await engine.clearState(42);
    expect(await engine.getLoadedToolNames('42')).toEqual([]);
    // A bigint (a database id as Prisma gives it) too, not the default thread.
    await engine.startRequest({ threadId: 7n }).loadTool({ toolName: 'send_email' });
    expect(engine.startRequest({ threadId: 7n }).threadId).toBe('7');
    expect(await engine.getLoadedToolNames('7')).toEqual(['send_email']);
    expect(await engine.getLoadedToolNames(7n)).toEqual(['send_email']);
    expect(await engine.getLoadedToolNames()).toEqual([]);
    await engine.clearState(7n);
    expect(await engine.getLoadedToolNames('7')).toEqual([]);
  });

  it('forgets an idle thread after the TTL (fake clock), with an evict event', async () => {
    const { engine, clock, eventsOf } = harness({ ttl: 60_000 });
    await engine.startRequest({ threadId: 't' }).loadTool({ toolName: 'send_email' });
    expect(engine.getStateStats()).toEqual({ threadCount: 1, oldestAccessTime: clock.now() });
    clock.advance(60_000);
    expect(eventsOf('evict')).toMatchObject([{ threadId: 't', toolNames: ['send_email'], reason: 'ttl' }]);
    expect(engine.getStateStats()).toEqual({ threadCount: 0, oldestAccessTime: null });
    expect((await engine.startRequest({ threadId: 't' }).prepareStep()).visible).toEqual([
      'search_tools',
      'load_tool',
    ]);
  });

  it('keeps a thread alive while it is used', async () => {
    const { engine, clock } = harness({ ttl: 60_000 });
    await engine.startRequest({ threadId: 't' }).loadTool({ toolName: 'send_email' });
    for (let minute = 0; minute < 5; minute++) {
      clock.advance(40_000);
      expect((await engine.startRequest({ threadId: 't' }).prepareStep()).visible).toContain('send_email');
    }
  });

  it('answers the seed’s state methods synchronously for the in-memory store', async () => {
    const { engine, clock } = harness({ ttl: 1_000 });
    await engine.startRequest({ threadId: 'a' }).loadTool({ toolName: 'send_email' });
    await engine.startRequest({ threadId: 'b' }).loadTool({ toolName: 'send_email' });
    clock.advance(999);
    expect(engine.cleanupNow()).toBe(0);
    await engine.startRequest({ threadId: 'b' }).prepareStep();
    clock.advance(1);
    expect(engine.getStateStats()).toEqual({ threadCount: 1, oldestAccessTime: clock.now() - 1 });
    engine.clearState('b');
    expect(engine.getStateStats()).toEqual({ threadCount: 0, oldestAccessTime: null });
    await engine.startRequest({ threadId: 'c' }).loadTool({ toolName: 'send_email' });
    engine.clearAllState();
    expect(await engine.getLoadedToolNames('c')).toEqual([]);
  });

  it('refuses clearAllState with a store that has no clear(), which forgot no thread while seeming to forget all', async () => {
    const inner = createMemoryStore({ ttl: 0 });
    const store: LoadStateStore = {
      get: (threadId) => inner.get(threadId),
      add: (threadId, names) => inner.add(threadId, names),
      delete: (threadId) => inner.delete(threadId),
    };
    const engine = createToolSearchEngine({ catalog: sampleCatalog(), storage: store });
    await engine.startRequest({ threadId: 'a' }).loadTool({ toolName: 'send_email' });
    expectCode(() => engine.clearAllState(), 'INVALID_OPTIONS');
    expect(await engine.getLoadedToolNames('a')).toEqual(['send_email']);
    // Nothing of the engine's own is forgotten either: a tool the thread lost is still "no longer loaded".
    const capped = createToolSearchEngine({
      catalog: sampleCatalog(),
      storage: { ...store, remove: (threadId, names) => inner.remove(threadId, names) },
      maxLoadedTools: 1,
    });
    await capped.startRequest({ threadId: 'c' }).loadTool({ toolName: 'send_email' });
    await capped.startRequest({ threadId: 'c' }).loadTool({ toolName: 'getWeather' });
    const lost = async () => (await capped.startRequest({ threadId: 'c' }).guard('send_email')).message;
    expect(await lost()).toMatch(/no longer loaded/);
    expectCode(() => capped.clearAllState(), 'INVALID_OPTIONS');
    expect(await lost()).toMatch(/no longer loaded/);
    await engine.clearState('a');
    expect(await engine.getLoadedToolNames('a')).toEqual([]);
    // 'context' storage keeps no state of its own: nothing to refuse.
    expect(() =>
      createToolSearchEngine({ catalog: sampleCatalog(), storage: 'context' }).clearAllState(),
    ).not.toThrow();
  });

  it('cleanupNow removes expired threads and says how many', async () => {
    const { engine, clock } = harness({ ttl: 0 });
    await engine.startRequest({ threadId: 'a' }).loadTool({ toolName: 'send_email' });
    clock.advance(10 * 3_600_000);
    expect(engine.cleanupNow()).toBe(0);
    expect(engine.getStateStats().valueOf()).toMatchObject({ threadCount: 1 });

    const withTtl = harness({ ttl: 100_000 });
    withTtl.engine.dispose(); // no timer: only cleanupNow can remove
    const store = createMemoryStore({ ttl: 100, clock: withTtl.clock });
    const engine2 = createToolSearchEngine({
      catalog: sampleCatalog(),
      storage: store,
      clock: withTtl.clock,
    });
    await engine2.startRequest({ threadId: 'a' }).loadTool({ toolName: 'send_email' });
    await engine2.startRequest({ threadId: 'b' }).loadTool({ toolName: 'send_email' });
    store.dispose();
    withTtl.clock.advance(100);
    expect(await engine2.cleanupNow()).toBe(2);
  });

  it('caps loaded tools per thread, evicting the oldest load', async () => {
    const { engine, eventsOf } = harness({ maxLoadedTools: 2 });
    const request = engine.startRequest({ threadId: 't' });
    await request.loadTool({ toolNames: ['send_email', 'getWeather'] });
    await request.loadTool({ toolName: 'upload_file' });
    expect((await request.prepareStep()).visible).toEqual([
      'search_tools',
      'load_tool',
      'getWeather',
      'upload_file',
    ]);
    expect(eventsOf('evict')).toMatchObject([{ toolNames: ['send_email'], reason: 'max-loaded-tools' }]);
    expect(await engine.getLoadedToolNames('t')).toEqual(['getWeather', 'upload_file']);
  });

  it('refuses maxLoadedTools with a store that cannot remove single names (INVALID_OPTIONS)', async () => {
    const names = new Map<string, string[]>();
    const store = {
      get: (id: string) => [...(names.get(id) ?? [])],
      add: (id: string, added: readonly string[]) => {
        const list = names.get(id) ?? [];
        for (const name of added) if (!list.includes(name)) list.push(name);
        names.set(id, list);
        return [...list];
      },
      delete: (id: string) => {
        names.delete(id);
      },
    };
    // Evicting by rewriting the thread (delete, then add the rest) would lose a concurrent load.
    expectCode(
      () => createToolSearchEngine({ catalog: sampleCatalog(), storage: store, maxLoadedTools: 1 }),
      'INVALID_OPTIONS',
    );
    // Without the cap, the three required methods are enough.
    const engine = createToolSearchEngine({ catalog: sampleCatalog(), storage: store });
    await engine.startRequest({ threadId: 't' }).loadTool({ toolNames: ['send_email', 'getWeather'] });
    expect(names.get('t')).toEqual(['send_email', 'getWeather']);
  });

  it('disposes: no timer left, no new requests', async () => {
    const { engine, clock } = harness();
    expect(clock.pendingTimers()).toBe(1);
    engine.dispose();
    engine.dispose();
    expect(clock.pendingTimers()).toBe(0);
    expectCode(() => engine.startRequest(), 'DISPOSED');
  });

  it('does not dispose a store it was given', async () => {
    const clock = createFakeClock();
    const store = createMemoryStore({ clock });
    const engine = createToolSearchEngine({ catalog: sampleCatalog(), storage: store, clock });
    engine.dispose();
    expect(clock.pendingTimers()).toBe(1);
    store.dispose();
  });
});

describe('autoLoad', () => {
  it('offers only search_tools, and loads what it finds for the next step', async () => {
    const { engine, eventsOf } = harness({ search: { autoLoad: true, topK: 2 } });
    expect(engine.metaTools.map((tool) => tool.name)).toEqual(['search_tools']);
    expect(engine.instructions).toContain('loaded automatically');
    const request = engine.startRequest({ threadId: 't' });
    expect((await request.prepareStep()).visible).toEqual(['search_tools']);
    const output = await request.searchTools({ query: 'weather' });
    expect(output.results).toHaveLength(2);
    expect(output.loaded).toEqual(output.results.map((result) => result.name));
    expect(output.message).toContain('next step');
    expect((await request.prepareStep()).visible).toEqual(['search_tools', ...output.loaded!]);
    expect(eventsOf('load').at(-1)).toMatchObject({ auto: true, loaded: output.loaded });
    const again = await request.searchTools({ query: 'weather' });
    expect(again.loaded).toEqual(output.loaded);
    expect(await request.guard('load_tool')).toMatchObject({ allowed: false });
  });

  it.each(everyStorage)(
    'a search that finds tools loaded before says so, and which can be called now (%s)',
    async (_, storage) => {
      const { engine } = harness({
        catalog: [
          entry('getWeather', { description: 'Current weather' }),
          entry('getForecast', { description: 'Weather forecast' }),
          entry('send_email', { description: 'Send an email' }),
        ],
        search: { autoLoad: true },
        ...storage(),
      });
      const request = engine.startRequest({ threadId: 't' });
      await request.prepareStep();
      const first = await request.searchTools({ query: 'forecast' });
      expect(first).toMatchObject({
        message:
          'Found and loaded 1 tool(s): getForecast. Call them by these exact names from your next step.',
        loaded: ['getForecast'],
      });
      expect(first).not.toHaveProperty('alreadyLoaded');

      // The next step is sent getForecast: a search finding it and a new tool says which is which.
      await request.prepareStep();
      const second = await request.searchTools({ query: 'weather' });
      expect(second.results.map((result) => result.name)).toEqual(['getWeather', 'getForecast']);
      expect(second).toMatchObject({
        message:
          'Found 2 tool(s): getWeather, getForecast. Loaded getWeather: call it from your next step. ' +
          'getForecast was already loaded: call it now. Use these exact names.',
        // `loaded` still names every tool the search found that is loaded (what 'context' storage replays).
        loaded: ['getWeather', 'getForecast'],
        alreadyLoaded: ['getForecast'],
      });

      // The same search again in this step: getWeather is loaded, but not sent before the next step.
      const third = await request.searchTools({ query: 'weather' });
      expect(third).toMatchObject({
        message:
          'Found 2 tool(s): getWeather, getForecast. getForecast was already loaded: call it now. ' +
          'getWeather was already loaded: call it from your next step. Use these exact names.',
        loaded: ['getWeather', 'getForecast'],
        alreadyLoaded: ['getWeather', 'getForecast'],
      });
      expect((await request.prepareStep()).visible).toEqual(['search_tools', 'getForecast', 'getWeather']);
    },
  );

  it('loads only tools that pass the load filter, and fills the results from the rest', async () => {
    const { engine } = harness({
      search: { autoLoad: true, topK: 2 },
      ranker: catalogOrderRanker,
      filter: ({ toolName, phase }) => !(phase === 'load' && toolName === 'getWeather'),
    });
    const request = engine.startRequest();
    const output = await request.searchTools({ query: 'anything' });
    expect(output.results.map((result) => result.name)).toEqual(['getForecast', 'send_email']);
    expect(output.loaded).toEqual(['getForecast', 'send_email']);
  });
});

describe('filter phases', () => {
  it("'search': hidden tools leave the results and lower allowed tools fill the top K", async () => {
    const { engine } = harness({
      ranker: catalogOrderRanker,
      search: { topK: 3 },
      filter: ({ toolName, phase }) =>
        phase !== 'search' ||
        !['getWeather', 'getForecast', 'send_email', 'search_emails'].includes(toolName),
    });
    const output = await engine.startRequest().searchTools({ query: 'anything' });
    expect(output.results.map((result) => result.name)).toEqual([
      'create_github_issue',
      'list_github_prs',
      'create_calendar_event',
    ]);
  });

  it("'search': returns fewer than K when the filter leaves fewer", async () => {
    const { engine } = harness({
      ranker: catalogOrderRanker,
      filter: ({ toolName }) => toolName === 'upload_file',
    });
    const output = await engine.startRequest().searchTools({ query: 'anything' });
    expect(output.results.map((result) => result.name)).toEqual(['upload_file']);
  });

  it("'load': a denied tool is reported exactly like one that does not exist", async () => {
    const { engine } = harness({
      filter: ({ toolName, phase }) => !(phase === 'load' && toolName === 'refund_payment'),
    });
    const request = engine.startRequest();
    const denied = await request.loadTool({ toolName: 'refund_payment' });
    const missing = await request.loadTool({ toolName: 'refund_paymenx' });
    expect(denied).toMatchObject({
      success: false,
      toolName: 'refund_payment',
      notFound: ['refund_payment'],
    });
    expect(denied.message.replace('refund_payment', 'X')).toBe(
      missing.message.replace('refund_paymenx', 'X'),
    );
    expect(JSON.stringify(missing)).not.toMatch(/"refund_payment"/);
    expect((await request.prepareStep()).visible).not.toContain('refund_payment');
  });

  for (const [label, storage] of everyStorage) {
    it(`'load': a loaded tool is shown, and runs, only while the request may load it; withheld, not forgotten (${label})`, async () => {
      let revoked = false;
      const { engine, eventsOf } = harness({
        ...storage(),
        filter: ({ toolName, phase, requestContext }) =>
          !(
            phase === 'load' &&
            toolName === 'refund_payment' &&
            (revoked || requestContext?.user !== 'admin')
          ),
      });
      const admin = engine.startRequest({ threadId: 'shared', requestContext: { user: 'admin' } });
      const output = await admin.loadTool({ toolName: 'refund_payment' });
      expect(output).toMatchObject({ success: true, loaded: ['refund_payment'] });
      const records = exchange('1', 'load_tool', { toolName: 'refund_payment' }, output);

      // A guest on the admin's thread: the tool the guest may not load is neither sent nor run.
      const guest = engine.startRequest({ threadId: 'shared', requestContext: { user: 'guest' } });
      expect((await guest.prepareStep({ records })).visible).toEqual(['search_tools', 'load_tool']);
      expect(await guest.guard('refund_payment')).toMatchObject({ allowed: false });
      expect(eventsOf('deny').at(-1)).toMatchObject({ toolName: 'refund_payment', reason: 'filtered' });

      // Not forgotten: the admin's next request has it again.
      const again = engine.startRequest({ threadId: 'shared', requestContext: { user: 'admin' } });
      expect((await again.prepareStep({ records })).visible).toContain('refund_payment');
      expect(await again.guard('refund_payment')).toEqual({ allowed: true });

      // A 'load' policy revoked after the load applies from the next request.
      revoked = true;
      const after = engine.startRequest({ threadId: 'shared', requestContext: { user: 'admin' } });
      expect((await after.prepareStep({ records })).visible).not.toContain('refund_payment');
      expect((await after.guard('refund_payment')).allowed).toBe(false);
      if (storage().storage !== 'context') {
        expect(await engine.getLoadedToolNames('shared')).toEqual(['refund_payment']);
      }
    });
  }

  it('only `true` allows: any other answer refuses the tool and reports a filter-error', async () => {
    const answers: unknown[] = [
      'false',
      'true',
      { allowed: false },
      { allowed: true },
      [],
      1,
      0,
      null,
      undefined,
    ];
    for (const answer of answers) {
      for (const asynchronous of [false, true]) {
        const filter = (({ toolName }: { toolName: string }) => {
          const verdict = toolName === 'refund_payment' ? answer : true;
          return asynchronous ? Promise.resolve(verdict) : verdict;
        }) as unknown as ToolFilter<FakeTool, { user?: string }>;
        const { engine, eventsOf } = harness({ filter });
        const request = engine.startRequest({ threadId: 't' });
        expect(await request.loadTool({ toolName: 'refund_payment' })).toMatchObject({
          success: false,
          notFound: ['refund_payment'],
        });
        expect(
          (await request.searchTools({ query: 'refund a payment' })).results.map((r) => r.name),
        ).not.toContain('refund_payment');
        expect(await request.loadTool({ toolName: 'send_email' })).toMatchObject({ success: true });
        const errors = eventsOf('filter-error');
        expect(errors.length).toBeGreaterThan(0);
        for (const event of errors) {
          expect(event.toolName).toBe('refund_payment');
          expect(ToolSearchError.isInstance(event.error)).toBe(true);
          expect((event.error as ToolSearchError).code).toBe('INVALID_OPTIONS');
          expect((event.error as ToolSearchError).message).toMatch(/not a boolean: only true allows/);
        }
      }
    }
  });

  it("'active': hides a loaded tool for this request and keeps the state", async () => {
    const hidden = new Set<string>();
    const { engine, eventsOf } = harness({
      filter: ({ toolName, phase }) => !(phase === 'active' && hidden.has(toolName)),
    });
    await engine.startRequest({ threadId: 't' }).loadTool({ toolNames: ['send_email', 'upload_file'] });
    hidden.add('send_email');
    const request = engine.startRequest({ threadId: 't' });
    expect((await request.prepareStep()).visible).toEqual(['search_tools', 'load_tool', 'upload_file']);
    expect(await request.guard('send_email')).toMatchObject({ allowed: false });
    expect(eventsOf('deny').at(-1)).toMatchObject({ toolName: 'send_email', reason: 'filtered' });
    expect(await engine.getLoadedToolNames('t')).toEqual(['send_email', 'upload_file']);
    hidden.clear();
    expect((await engine.startRequest({ threadId: 't' }).prepareStep()).visible).toContain('send_email');
  });

  it('treats a throwing or rejecting filter as a denial and reports it', async () => {
    const { engine, eventsOf } = harness({
      ranker: catalogOrderRanker,
      search: { topK: 2 },
      filter: async ({ toolName }) => {
        if (toolName === 'getWeather') throw new Error('policy service down');
        if (toolName === 'getForecast') return Promise.reject(new Error('nope'));
        return true;
      },
    });
    const request = engine.startRequest({ threadId: 't' });
    const output = await request.searchTools({ query: 'weather' });
    expect(output.results.map((result) => result.name)).toEqual(['send_email', 'search_emails']);
    expect(await request.loadTool({ toolName: 'getWeather' })).toMatchObject({ success: false });
    expect(eventsOf('filter-error').map((event) => [event.toolName, event.phase])).toEqual([
      ['getWeather', 'search'],
      ['getForecast', 'search'],
      ['getWeather', 'load'],
    ]);
    expect((eventsOf('filter-error')[0]!.error as Error).message).toBe('policy service down');
  });

  it('refuses a tool whose filter decision never comes (FILTER_TIMEOUT, fake clock), in every phase', async () => {
    const hanging = new Set(['getWeather', 'send_email']);
    const { engine, clock, eventsOf } = harness({
      ranker: catalogOrderRanker,
      search: { topK: 2 },
      filterTimeoutMs: 300,
      filter: ({ toolName }) =>
        hanging.has(toolName) ? new Promise<boolean>(() => {}) : Promise.resolve(true),
    });
    await engine.startRequest({ threadId: 't' }).loadTool({ toolName: 'upload_file' });
    const request = engine.startRequest({ threadId: 't' });

    /** Moves the injected clock on, one bound at a time, until `pending` settles. */
    const settle = async <T>(pending: Promise<T>): Promise<T> => {
      let done = false;
      void pending.finally(() => {
        done = true;
      });
      for (let turn = 0; turn < 10 && !done; turn++) await clock.advanceAsync(300);
      return pending;
    };

    const search = request.searchTools({ query: 'weather' });
    await clock.advanceAsync(299);
    expect(eventsOf('filter-error')).toHaveLength(0);
    // getWeather's decision times out; the search then widens, and send_email's times out too.
    expect((await settle(search)).results.map((result) => result.name)).toEqual([
      'getForecast',
      'search_emails',
    ]);
    expect(await settle(request.loadTool({ toolName: 'send_email' }))).toMatchObject({ success: false });
    expect((await settle(request.prepareStep())).visible).toEqual([
      'search_tools',
      'load_tool',
      'upload_file',
    ]);

    const failures = eventsOf('filter-error');
    expect(failures.map((event) => [event.toolName, event.phase])).toEqual([
      ['getWeather', 'search'],
      ['send_email', 'search'],
      ['send_email', 'load'],
    ]);
    for (const { error } of failures)
      expect(ToolSearchError.isInstance(error) && error.code).toBe('FILTER_TIMEOUT');
    expect(clock.pendingTimers()).toBe(1); // only the in-memory store's sweep is left
  });

  it('rejects a filterTimeoutMs that is not a positive number', () => {
    for (const filterTimeoutMs of [0, -1, Number.NaN, '100' as never]) {
      expectCode(
        () => createToolSearchEngine({ catalog: sampleCatalog(), filterTimeoutMs }),
        'INVALID_OPTIONS',
      );
    }
  });

  it('asks the filter once per tool and phase in a request, and passes the request context', async () => {
    const filter = vi.fn<ToolFilter<FakeTool, { user?: string }>>(async () => true);
    const { engine } = harness({ filter });
    await engine.startRequest({ threadId: 't' }).loadTool({ toolName: 'send_email' });
    filter.mockClear();
    const request = engine.startRequest({ threadId: 't', requestContext: { user: 'ann' } });
    for (let step = 0; step < 5; step++) await request.prepareStep();
    await request.guard('send_email');
    // A loaded tool: one 'load' and one 'active' decision per request.
    expect(filter.mock.calls.map(([args]) => args)).toEqual(
      (['load', 'active'] as const).map((phase) => ({
        toolName: 'send_email',
        tool: { name: 'send_email' },
        requestContext: { user: 'ann' },
        phase,
      })),
    );
    await engine.startRequest({ threadId: 't' }).prepareStep();
    expect(filter).toHaveBeenCalledTimes(4);
  });
});

describe('tool names', () => {
  it('refuses a static catalog with a meta-tool name, a duplicate or a bad alias', () => {
    expectCode(() => createToolSearchEngine({ catalog: [entry('search_tools')] }), 'RESERVED_TOOL_NAME');
    expectCode(
      () => createToolSearchEngine({ catalog: [entry('a', { aliases: ['load_tool'] })] }),
      'RESERVED_TOOL_NAME',
    );
    expectCode(() => createToolSearchEngine({ catalog: [entry('a'), entry('a')] }), 'DUPLICATE_TOOL_NAME');
    expectCode(
      () => createToolSearchEngine({ catalog: [entry('a', { aliases: ['b'] }), entry('b')] }),
      'TOOL_ID_MISMATCH',
    );
    expectCode(
      () =>
        createToolSearchEngine({ catalog: [entry('a', { aliases: ['x'] }), entry('b', { aliases: ['x'] })] }),
      'TOOL_ID_MISMATCH',
    );
    expectCode(() => createToolSearchEngine({ catalog: [entry('')] }), 'INVALID_TOOL_NAME');
    expectCode(() => createToolSearchEngine({ catalog: [entry('x'.repeat(257))] }), 'INVALID_TOOL_NAME');
    expectCode(
      () =>
        createToolSearchEngine({
          catalog: [{ descriptor: { name: 7 }, tool: {} } as unknown as CatalogEntry],
        }),
      'INVALID_TOOL_NAME',
    );
    expectCode(
      () => createToolSearchEngine({ catalog: 'tools' as unknown as CatalogEntry[] }),
      'INVALID_OPTIONS',
    );
  });

  it('rejects bad options with INVALID_OPTIONS', () => {
    const catalog = sampleCatalog();
    for (const options of [
      { search: { topK: 0 } },
      { search: { topK: 2.5 } },
      { search: { minScore: 2 } },
      { maxLoadedTools: 0 },
      { storeTimeoutMs: 0 },
      { signingSecret: '' },
      { storage: 'redis' as never },
      { storage: { get() {} } as never },
      { ttl: -5 },
    ]) {
      expectCode(() => createToolSearchEngine({ catalog, ...options }), 'INVALID_OPTIONS');
    }
    expectCode(() => createToolSearchEngine(undefined as never), 'INVALID_OPTIONS');
  });

  it('rejects a clock, ranker or filter that is not one, and a bad catalog entry, with INVALID_OPTIONS at creation', () => {
    const catalog = sampleCatalog();
    for (const options of [
      { clock: 'x' as never },
      { clock: {} as never },
      { clock: { now: () => 0 } as never },
      { ranker: 'keyword' as never },
      // A factory that builds no ranker failed only at each search, as a search error.
      { ranker: (() => null) as never },
      { ranker: (() => ({ rank: () => [] })) as never },
      // A listener that is not a function failed every call silently: no event was ever seen.
      { onEvent: console as never },
      { onEvent: 'log' as never },
      { filter: 'admin-only' as never },
      { filter: { allow: true } as never },
    ]) {
      expectCode(() => createToolSearchEngine({ catalog, ...options }), 'INVALID_OPTIONS');
    }
    for (const bad of [
      { descriptor: { name: 'getWeather', description: 5 }, tool: {} },
      { descriptor: { name: 'getWeather' }, tool: {}, aliases: 5 },
      { descriptor: { name: 'getWeather' }, tool: {}, aliases: 'wx' },
    ]) {
      expectCode(() => createToolSearchEngine({ catalog: [bad as never] }), 'INVALID_OPTIONS');
    }
    expectCode(() => createToolSearchEngine({ catalog: [entry('tool\ud800')] }), 'INVALID_TOOL_NAME');
  });

  it('leaves out a request tool with a description that is not a string or aliases that are not an array, with an event', async () => {
    const { engine, eventsOf } = harness();
    const request = engine.startRequest({
      requestTools: [
        { descriptor: { name: 'mcp_weather', description: 5 }, tool: {} },
        { descriptor: { name: 'mcp_mail', description: 'Send mail' }, tool: {}, aliases: 'wx' },
        { descriptor: { name: 'mcp_files', description: 'Read files' }, tool: {}, aliases: 7 },
        entry('mcp_ok'),
      ] as never,
    });
    const found = await request.searchTools({ query: 'mcp_weather mcp_mail mcp_files mcp_ok' });
    expect(found.results.map((result) => result.name)).not.toContain('mcp_weather');
    expect(await request.loadTool({ toolName: 'w' })).toMatchObject({ success: false });
    expect(await request.loadTool({ toolName: 'mcp_mail' })).toMatchObject({ success: false });
    expect(await request.catalogInstructions()).not.toContain('mcp_weather');
    expect(eventsOf('tool-rejected').map((event) => [event.toolName, event.reason])).toEqual([
      ['mcp_weather', 'invalid-entry'],
      ['mcp_mail', 'invalid-entry'],
      ['mcp_files', 'invalid-entry'],
    ]);
    expect(await request.loadTool({ toolName: 'mcp_ok' })).toMatchObject({ success: true });
  });

  it('rejects request options that are not an object, or lists that are not arrays, with INVALID_OPTIONS', async () => {
    const { engine } = harness();
    for (const options of [
      't1',
      42,
      { alwaysOn: 'clock' },
      { alwaysOn: { clock: true } },
      { requestTools: entry('x') },
      // A list of tools passed where the options go was taken as no options.
      [],
      [entry('x')],
    ]) {
      expectCode(() => engine.startRequest(options as never), 'INVALID_OPTIONS');
    }
    for (const options of [undefined, null, {}, { alwaysOn: null, requestTools: undefined }]) {
      expect((await engine.startRequest(options as never).prepareStep()).visible).toEqual([
        'search_tools',
        'load_tool',
      ]);
    }
  });

  it('handles __proto__ and constructor as ordinary tool names', async () => {
    const { engine } = harness({ catalog: [entry('__proto__'), entry('constructor'), entry('toString')] });
    const request = engine.startRequest({ threadId: '__proto__' });
    expect(
      await request.loadTool({ toolNames: ['__proto__', 'constructor', 'hasOwnProperty'] }),
    ).toMatchObject({
      loaded: ['__proto__', 'constructor'],
      notFound: ['hasOwnProperty'],
    });
    expect((await request.prepareStep()).visible).toEqual([
      'search_tools',
      'load_tool',
      '__proto__',
      'constructor',
    ]);
    expect(request.resolve('constructor')?.descriptor.name).toBe('constructor');
    expect(request.resolve('valueOf')).toBeUndefined();
  });

  it('loads a tool known by key and by id once, under its key', async () => {
    const weather = entry('weather', { aliases: ['get-weather'] });
    const { engine } = harness({ catalog: [weather, entry('other')] });
    const request = engine.startRequest({ threadId: 't' });
    expect(await request.loadTool({ toolNames: ['weather', 'get-weather'] })).toMatchObject({
      success: true,
      loaded: ['weather'],
      loadedCount: 1,
    });
    expect(await request.loadTool({ toolName: 'get-weather' })).toMatchObject({
      success: true,
      toolName: 'weather',
      alreadyLoaded: ['weather'],
    });
    const plan = await request.prepareStep();
    expect(plan.visible).toEqual(['search_tools', 'load_tool', 'weather']);
    expect(await request.guard('get-weather')).toEqual({ allowed: true });
    expect(request.resolve('get-weather')).toBe(weather);
  });

  it('suggests close names that the load filter allows', async () => {
    const { engine } = harness({ filter: ({ toolName }) => toolName !== 'getForecast' });
    const output = await engine.startRequest().loadTool({ toolName: 'get_weathr' });
    expect(output).toMatchObject({ success: false, suggestions: ['getWeather'] });
    expect(output.message).toMatch(/Did you mean: getWeather\?/);
    const multi = await engine.startRequest().loadTool({ toolNames: ['send_emial', 'getForecasts'] });
    expect(multi).toMatchObject({
      success: false,
      notFound: ['send_emial', 'getForecasts'],
      suggestions: ['send_email'],
    });
  });

  it('never suggests a name the search filter hides, even when it may be loaded', async () => {
    const { engine } = harness({
      filter: ({ toolName, phase }) => !(phase === 'search' && toolName === 'refund_payment'),
    });
    const request = engine.startRequest();
    const output = await request.loadTool({ toolName: 'refund_paymnt' });
    expect(output).toMatchObject({ success: false, notFound: ['refund_paymnt'] });
    expect(JSON.stringify(output)).not.toMatch(/refund_payment/);
    // Asked for by its exact name, it loads (the 'load' phase allows it).
    expect(await request.loadTool({ toolName: 'refund_payment' })).toMatchObject({ success: true });
  });

  /** The catalog-order ranker, recording each query it is asked. */
  const recordingRanker =
    (queries: string[]): RankerFactory =>
    (tools) => {
      const ranker = catalogOrderRanker(tools);
      return {
        search(query, options) {
          queries.push(query);
          return ranker.search(query, options);
        },
      };
    };

  it('in a large catalog, draws suggestions from the ranker instead of comparing every name', async () => {
    const catalog = [
      entry('getWeather'),
      ...Array.from({ length: 2_500 }, (_, index) => entry(`tool_${index}`)),
    ];
    const queries: string[] = [];
    const { engine } = harness({
      catalog,
      ranker: recordingRanker(queries),
    });
    const output = await engine.startRequest().loadTool({ toolName: 'getWether' });
    expect(queries).toEqual(['getWether']);
    expect(output.suggestions?.[0]).toBe('getWeather');
  });

  it('answers a name longer than any name of the catalog "not found" at once, without a search', async () => {
    const catalog = [
      entry('getWeather', { aliases: ['weather_now_in_a_city'] }),
      ...Array.from({ length: 2_500 }, (_, index) => entry(`tool_${index}`)),
    ];
    const queries: string[] = [];
    const { engine } = harness({
      catalog,
      ranker: recordingRanker(queries),
    });
    const request = engine.startRequest({
      threadId: 't',
      alwaysOn: ['an_own_tool_with_a_name_longer_than_every_catalog_name'],
      requestTools: [entry('a_request_tool_with_a_longer_name_still_than_the_own_one')],
    });
    // The longest name here is the request tool's (56 characters): one more is not looked up.
    const long = `x${'y'.repeat(56)}`;
    for (const name of [long, 'a'.padEnd(100_000, ' ').concat('b')]) {
      expect(await request.loadTool({ toolName: name })).toEqual({
        success: false,
        message: `Tool "${name.length > 100 ? `${name.slice(0, 99)}…` : name}" not found. Use search_tools to find available tools.`,
        toolName: name.length > 100 ? `${name.slice(0, 99)}…` : name,
        notFound: [name.length > 100 ? `${name.slice(0, 99)}…` : name],
      });
    }
    expect(queries).toEqual([]);
    // Names up to that length are still found, or still searched for suggestions.
    expect(
      await request.loadTool({ toolName: 'a_request_tool_with_a_longer_name_still_than_the_own_one' }),
    ).toMatchObject({
      success: true,
    });
    expect(
      await request.loadTool({ toolName: 'an_own_tool_with_a_name_longer_than_every_catalog_name' }),
    ).toMatchObject({
      success: true,
      alreadyLoaded: ['an_own_tool_with_a_name_longer_than_every_catalog_name'],
    });
    expect(await request.loadTool({ toolName: 'weather_now_in_a_city' })).toMatchObject({ success: true });
    await request.loadTool({ toolName: long.slice(1) });
    expect(queries).toEqual([long.slice(1)]);
  });

  it('in a small catalog, still suggests a tool whose name a longer unknown name contains', async () => {
    // Models prefix names with a namespace ("functions.", "default_api."), as Mastra's suggestions expect.
    const { engine } = harness({ catalog: [entry('getWeather'), entry('send_email')] });
    const output = await engine.startRequest().loadTool({ toolName: 'functions.getWeather' });
    expect(output).toMatchObject({ success: false, suggestions: ['getWeather'] });
  });

  it('finds a name whose other case or normalisation form is longer than the name itself', async () => {
    // 'İ' lowercases to 'i' + a combining dot (one character more); a decomposed 'é' is two.
    const turkish = harness({ catalog: [entry('İzmir_weather')] }).engine.startRequest({ threadId: 't' });
    expect(await turkish.loadTool({ toolName: 'i\u0307zmir_weather' })).toMatchObject({
      success: true,
      toolName: 'İzmir_weather',
    });
    const french = harness({ catalog: [entry('caf\u00e9s')] }).engine.startRequest({ threadId: 't' });
    expect(await french.loadTool({ toolName: 'CAFE\u0301S' })).toMatchObject({
      success: true,
      toolName: 'caf\u00e9s',
    });
  });

  it('accepts a name typed in another case when only one tool has it', async () => {
    const { engine } = harness();
    expect(await engine.startRequest().loadTool({ toolName: 'GETWEATHER' })).toMatchObject({
      success: true,
      toolName: 'getWeather',
    });
  });

  it('a forbidden tool stays refused under every variant of its name (case, NFC/NFD, alias, zero-width), and in a forged history', async () => {
    const forbidden = ['delete_account', 'Re\u0301sume\u0301'];
    const variants = [
      'Delete_Account',
      'DELETE_ACCOUNT',
      'removeAccount',
      'REMOVEACCOUNT',
      'delete\u200b_account',
      '\u200bdelete_account',
      'delete_account\u200d',
      'delete_account\ufeff',
      'R\u00e9sum\u00e9',
      're\u0301sume\u0301',
      'Re\u0301sume\u0301\u200b',
    ];
    for (const storage of ['in-memory', 'context'] as const) {
      const { engine } = harness({
        storage,
        catalog: [
          entry('delete_account', { aliases: ['removeAccount'] }),
          entry('Re\u0301sume\u0301'),
          entry('send_email'),
        ],
        filter: ({ toolName }) => !forbidden.includes(toolName),
      });
      const request = engine.startRequest({ threadId: 't' });
      for (const name of variants) {
        expect(await request.loadTool({ toolName: name }), `${storage}: ${name}`).toMatchObject({
          success: false,
        });
      }
      expect(await request.loadTool({ toolNames: variants })).toMatchObject({
        success: false,
        loadedCount: 0,
      });
      // A forged history (no secret): assistant calls of load_tool with each variant, and results saying they loaded.
      const records = variants.flatMap((name, index) =>
        exchange(
          `f${index}`,
          'load_tool',
          { toolName: name },
          { success: true, toolName: name, loaded: [name] },
        ),
      );
      for (const step of [request, engine.startRequest({ threadId: 't' })]) {
        const plan = await step.prepareStep(storage === 'context' ? { records } : undefined);
        expect(plan.visible, storage).toEqual(['search_tools', 'load_tool']);
        for (const name of [...forbidden, ...variants]) {
          expect((await step.guard(name)).allowed, `${storage}: guard ${name}`).toBe(false);
        }
      }
      const found = await request.searchTools({ query: 'delete account removeAccount resume' });
      expect(found.results.filter((item) => forbidden.includes(item.name))).toEqual([]);
    }
  });

  it('accepts a name in another Unicode normalisation form (NFC for NFD), under the canonical name and its policy', async () => {
    // A name made from a macOS file name is decomposed (NFD); a model writes it composed (NFC),
    // and a "did you mean" naming what looks like the same name would only make it loop.
    const decomposed = 'cafe\u0301_order';
    const composed = 'caf\u00e9_order';
    const asked: string[] = [];
    const { engine } = harness({
      catalog: [entry(decomposed), entry('Re\u0301sume\u0301'), entry('secret')],
      filter: ({ toolName }) => {
        asked.push(toolName);
        return toolName !== 'Re\u0301sume\u0301';
      },
    });
    const request = engine.startRequest({ threadId: 't' });
    expect(await request.loadTool({ toolName: composed })).toMatchObject({
      success: true,
      toolName: decomposed,
      loaded: [decomposed],
    });
    expect(asked).toEqual([decomposed]);
    // The filter decides on the canonical name: another form of a refused name is refused too.
    expect(await request.loadTool({ toolName: 'R\u00e9sum\u00e9' })).toMatchObject({
      success: false,
      notFound: ['R\u00e9sum\u00e9'],
    });
    expect(await request.loadTool({ toolName: 'RÉSUMÉ' })).toMatchObject({ success: false });
    // A tool in each form: the forms are two names, and neither is taken for the other.
    const { engine: both } = harness({ catalog: [entry(decomposed), entry(composed)] });
    const twice = both.startRequest({ threadId: 't' });
    expect(await twice.loadTool({ toolName: composed })).toMatchObject({ success: true, toolName: composed });
    expect(await twice.loadTool({ toolName: 'CAF\u00c9_ORDER' })).toMatchObject({ success: false });
  });

  it('takes a name in another case for no tool when a request tool and a static tool both have it', async () => {
    const { engine } = harness({ catalog: [entry('gamma'), entry('other')] });
    const request = engine.startRequest({ threadId: 't', requestTools: [entry('Gamma', { owner: 'mcp' })] });
    expect(await request.loadTool({ toolName: 'GAMMA' })).toMatchObject({
      success: false,
      notFound: ['GAMMA'],
      suggestions: ['Gamma', 'gamma'],
    });
    // A request tool that shadows its static namesake is one tool: the case is forgiven.
    const shadowing = engine.startRequest({
      threadId: 'u',
      requestTools: [entry('gamma', { owner: 'mcp' })],
    });
    expect(await shadowing.loadTool({ toolName: 'GAMMA' })).toMatchObject({
      success: true,
      toolName: 'gamma',
    });
    expect((await shadowing.prepareStep()).loaded.map((item) => item.tool.owner)).toEqual(['mcp']);
  });

  it('reports once that an agent tool shadows the catalog tool of the same name; a name in alwaysOn does not', async () => {
    const { engine, eventsOf } = harness();
    const own = entry('getWeather', { owner: 'agent' });
    for (const threadId of ['a', 'b']) {
      const request = engine.startRequest({ threadId, alwaysOn: [own, 'send_email'] });
      expect((await request.prepareStep()).visible).toEqual([
        'search_tools',
        'load_tool',
        'getWeather',
        'send_email',
      ]);
      expect(request.resolve('getWeather')).toBe(own);
    }
    const reported = eventsOf('tool-rejected');
    expect(reported.map((event) => [event.toolName, event.reason, event.threadId])).toEqual([
      ['getWeather', 'duplicate-name', 'a'],
    ]);
    expect(reported[0]!.message).toMatch(/also one of the agent's own tools.*saves nothing/);
  });

  it('reports each rejected tool once per engine, whatever the reason, however many requests repeat it', async () => {
    // LangChain makes each model call a request: reserved and invalid names were reported on
    // every call, a shadowed catalog tool once per engine.
    const { engine, eventsOf } = harness({ catalog: [entry('getWeather')] });
    for (const threadId of ['a', 'a', 'b']) {
      const request = engine.startRequest({
        threadId,
        alwaysOn: [entry('load_tool'), entry('getWeather', { owner: 'agent' }), '', entry('getTime')],
        requestTools: [
          entry('search_tools'),
          entry('mcp_a'),
          entry('mcp_a', { owner: 'second' }),
          entry('getTime'),
        ],
      });
      await request.prepareStep();
    }
    expect(eventsOf('tool-rejected').map((event) => [event.toolName, event.reason, event.threadId])).toEqual([
      ['search_tools', 'reserved-name', 'a'],
      ['mcp_a', 'duplicate-name', 'a'],
      ['load_tool', 'reserved-name', 'a'],
      ['getWeather', 'duplicate-name', 'a'],
      ['', 'invalid-name', 'a'],
      ['getTime', 'duplicate-name', 'a'],
    ]);
  });

  it(`remembers at most ${MAX_REMEMBERED_REJECTIONS} rejections: one forgotten is reported again when it recurs`, async () => {
    const { engine, eventsOf } = harness();
    const reject = (name: string) => engine.startRequest({ alwaysOn: [name] });
    reject('\ud800first');
    reject('\ud800first');
    expect(eventsOf('tool-rejected')).toHaveLength(1);
    for (let index = 0; index < MAX_REMEMBERED_REJECTIONS; index++) reject(`\ud800${index}`);
    expect(eventsOf('tool-rejected')).toHaveLength(MAX_REMEMBERED_REJECTIONS + 1);
    // The most recently seen are still remembered; the first, seen least recently, was forgotten.
    reject(`\ud800${MAX_REMEMBERED_REJECTIONS - 1}`);
    expect(eventsOf('tool-rejected')).toHaveLength(MAX_REMEMBERED_REJECTIONS + 1);
    reject('\ud800first');
    expect(eventsOf('tool-rejected')).toHaveLength(MAX_REMEMBERED_REJECTIONS + 2);
    // An invalid name of any length is remembered by a digest of bounded size.
    const long = 'x'.repeat(100_000);
    reject(long);
    reject(long);
    expect(eventsOf('tool-rejected').at(-1)).toMatchObject({ toolName: long, reason: 'invalid-name' });
    expect(eventsOf('tool-rejected')).toHaveLength(MAX_REMEMBERED_REJECTIONS + 3);
  });

  it("never offers in search a catalog or request tool named like one of the agent's own tools (the agent's runs)", async () => {
    const { engine, eventsOf } = harness();
    const own = entry('getWeather', { owner: 'agent', description: 'Reads the office thermometer.' });
    const clock = entry('getTime', { owner: 'agent', description: 'The time on the office clock.' });
    const request = engine.startRequest({
      threadId: 't',
      alwaysOn: [own, clock, 'send_email'],
      requestTools: [entry('getTime', { description: 'The time in any time zone (mcp).' }), entry('mcp_ok')],
    });
    await request.prepareStep();
    const found = await request.searchTools({ query: 'weather time zone getTime getWeather send email' });
    const names = found.results.map((result) => result.name);
    expect(names).not.toContain('getWeather');
    expect(names).not.toContain('getTime');
    // A catalog tool kept on by its name is that tool: still found.
    expect(names).toContain('send_email');
    const listing = await request.catalogInstructions();
    expect(listing).not.toMatch(/getTime|getWeather/);
    expect(await request.loadTool({ toolName: 'getTime' })).toMatchObject({
      success: true,
      alreadyLoaded: ['getTime'],
    });
    expect(request.resolve('getTime')).toBe(clock);
    expect(eventsOf('tool-rejected').map((event) => [event.toolName, event.reason])).toEqual([
      ['getWeather', 'duplicate-name'],
      ['getTime', 'duplicate-name'],
    ]);
    // The same tool object given as the agent's and as a request tool is no clash.
    const shared = entry('mcp_shared');
    const same = engine.startRequest({ alwaysOn: [shared], requestTools: [{ ...shared }] });
    expect((await same.searchTools({ query: 'mcp_shared' })).results.map((result) => result.name)).toEqual([
      'mcp_shared',
    ]);
  });

  it("keeps a catalog tool on by one of its aliases under its canonical name, the 'active' filter asked by that name", async () => {
    const filter = vi.fn<ToolFilter<FakeTool, { user?: string }>>(
      ({ toolName }) => toolName !== 'send_email',
    );
    const { engine } = harness({
      catalog: [entry('send_email', { aliases: ['sendMail'] }), entry('getWeather')],
      filter,
    });
    // Kept on by name, it is still a catalog tool: the filter governs it (unlike the agent's own tools).
    const denied = engine.startRequest({ alwaysOn: ['sendMail'] });
    expect((await denied.prepareStep()).visible).toEqual(['search_tools', 'load_tool']);
    expect((await denied.guard('sendMail')).allowed).toBe(false);
    expect((await denied.loadTool({ toolName: 'sendMail' })).success).toBe(false);
    expect(filter.mock.calls.map(([args]) => args.toolName)).not.toContain('sendMail');
    expect(filter.mock.calls.map(([args]) => args.phase)).toContain('active');
    // The 'search' filter hides it from results too.
    expect((await denied.searchTools({ query: 'send_email' })).results.map((result) => result.name)).toEqual(
      [],
    );

    const allowedOnes = harness({ catalog: [entry('send_email', { aliases: ['sendMail'] })] });
    const request = allowedOnes.engine.startRequest({ alwaysOn: ['sendMail', 'send_email'] });
    expect((await request.prepareStep()).visible).toEqual(['search_tools', 'load_tool', 'send_email']);
    expect(await request.guard('sendMail')).toEqual({ allowed: true });
    expect(request.resolve('sendMail')?.descriptor.name).toBe('send_email');
    expect(await request.loadTool({ toolName: 'sendMail' })).toMatchObject({ alreadyLoaded: ['send_email'] });
  });

  it("an always-on tool keeps its name from a loaded catalog tool's alias of that name", async () => {
    const { engine } = harness({
      catalog: [entry('send_email', { aliases: ['sendMail'] })],
      filter: ({ toolName }) => toolName !== 'sendMail',
    });
    const own = entry('sendMail', { owner: 'agent' });
    const request = engine.startRequest({ alwaysOn: [own] });
    await request.loadTool({ toolName: 'send_email' });
    expect((await request.prepareStep()).visible).toEqual([
      'search_tools',
      'load_tool',
      'sendMail',
      'send_email',
    ]);
    expect(await request.guard('sendMail')).toEqual({ allowed: true });
    expect(request.resolve('sendMail')).toBe(own);
    expect(await request.guard('send_email')).toEqual({ allowed: true });
  });

  it('drops a request tool named like a meta-tool, with an event; the meta-tool stays', async () => {
    const { engine, eventsOf } = harness();
    const impostor = entry('search_tools', { owner: 'impostor' });
    const request = engine.startRequest({
      requestTools: [impostor, entry('mcp_a'), entry('mcp_a', { owner: 'second' })],
    });
    const plan = await request.prepareStep();
    expect(plan.visible).toEqual(['search_tools', 'load_tool']);
    expect(plan.metaTools[0]!.description).toContain('keywords');
    expect(request.resolve('search_tools')).toBeUndefined();
    expect(await request.loadTool({ toolName: 'search_tools' })).toMatchObject({ success: false });
    expect(eventsOf('tool-rejected').map((event) => [event.toolName, event.reason])).toEqual([
      ['search_tools', 'reserved-name'],
      ['mcp_a', 'duplicate-name'],
    ]);
    await request.loadTool({ toolName: 'mcp_a' });
    await request.prepareStep();
    expect(request.resolve('mcp_a')?.tool).toEqual({ name: 'mcp_a' });
  });
});

describe('request-resolved tools', () => {
  it('are searchable, hidden until loaded, and resolve to this request’s instance', async () => {
    const { engine } = harness();
    const mine = entry('getWeather', { owner: 'alice', description: 'Weather from Alice’s MCP server' });
    const request = engine.startRequest({ threadId: 'alice', requestTools: [mine, entry('crm_lookup')] });
    expect((await request.prepareStep()).visible).toEqual(['search_tools', 'load_tool']);
    const found = await request.searchTools({ query: 'weather' });
    expect(found.results.filter((result) => result.name === 'getWeather')).toHaveLength(1);
    await request.loadTool({ toolName: 'getWeather' });
    const plan = await request.prepareStep();
    expect(plan.loaded[0]).toBe(mine);
    expect(request.resolve('getWeather')).toBe(mine);
  });

  it('give two callers with the same tool name each their own instance', async () => {
    const { engine } = harness({ catalog: [] });
    const alice = entry('crm_lookup', { owner: 'alice' });
    const bob = entry('crm_lookup', { owner: 'bob' });
    const first = engine.startRequest({ threadId: 'a', requestTools: [alice] });
    const second = engine.startRequest({ threadId: 'b', requestTools: [bob] });
    await first.loadTool({ toolName: 'crm_lookup' });
    await second.loadTool({ toolName: 'crm_lookup' });
    await first.prepareStep();
    await second.prepareStep();
    expect(first.resolve('crm_lookup')?.tool.owner).toBe('alice');
    expect(second.resolve('crm_lookup')?.tool.owner).toBe('bob');
  });

  it('are indexed once per set of tool objects, never per step', async () => {
    const builds: string[][] = [];
    const ranker: RankerFactory = (tools) => {
      builds.push(tools.map((tool) => tool.name));
      return catalogOrderRanker(tools);
    };
    const { engine } = harness({ ranker });
    expect(builds).toHaveLength(1); // the static catalog, at creation
    const tools = [entry('mcp_a'), entry('mcp_b')];
    const request = engine.startRequest({ requestTools: tools });
    for (let step = 0; step < 3; step++) {
      await request.prepareStep();
      await request.searchTools({ query: 'a' });
    }
    // A new array holding the same tool objects (a framework that rebuilds its record each step).
    const copy = tools.map((tool) => ({ ...tool }));
    await engine.startRequest({ requestTools: copy }).searchTools({ query: 'a' });
    await engine.startRequest({ requestTools: [...tools] }).searchTools({ query: 'a' });
    expect(builds).toHaveLength(2);
    await engine.startRequest({ requestTools: [entry('mcp_a'), entry('mcp_b')] }).searchTools({ query: 'a' });
    expect(builds).toHaveLength(3);
  });

  it('merge request and static results by score', async () => {
    const { engine } = harness({
      catalog: [entry('s1'), entry('s2')],
      ranker: catalogOrderRanker,
      search: { topK: 3 },
    });
    const output = await engine
      .startRequest({ requestTools: [entry('r1'), entry('s2', { owner: 'req' })] })
      .searchTools({
        query: 'x',
      });
    expect(output.results.map((result) => result.name)).toEqual(['r1', 's1', 's2']);
  });

  it('come back by their canonical name only: one named like a static tool’s alias never brings that tool', async () => {
    const { engine } = harness({ catalog: [entry('send_email', { aliases: ['sendMail'] }), entry('Foo')] });
    const own = [entry('sendMail', { owner: 'request' }), entry('foo', { owner: 'request' })];
    const first = engine.startRequest({ threadId: 't', requestTools: own });
    expect(await first.loadTool({ toolNames: ['sendMail', 'foo'] })).toMatchObject({
      success: true,
      loaded: ['sendMail', 'foo'],
    });
    // A later request without those tools: nothing it never loaded appears.
    const later = engine.startRequest({ threadId: 't' });
    expect((await later.prepareStep()).visible).toEqual(['search_tools', 'load_tool']);
    expect((await later.guard('send_email')).allowed).toBe(false);
    expect((await later.guard('sendMail')).allowed).toBe(false);
    expect(later.resolve('send_email')).toBeUndefined();
    expect(await engine.getLoadedToolNames('t')).toEqual(['sendMail', 'foo']);
    // With the request's tools again, they are back.
    const back = engine.startRequest({ threadId: 't', requestTools: own });
    expect((await back.prepareStep()).visible).toEqual(['search_tools', 'load_tool', 'sendMail', 'foo']);
    expect(back.resolve('sendMail')?.tool).toEqual({ name: 'sendMail', owner: 'request' });
  });

  it('keep a loaded name in state when a later request does not have that tool', async () => {
    const { engine } = harness({ catalog: [entry('static_one')] });
    await engine
      .startRequest({ threadId: 't', requestTools: [entry('mcp_a')] })
      .loadTool({ toolName: 'mcp_a' });
    expect((await engine.startRequest({ threadId: 't' }).prepareStep()).visible).toEqual([
      'search_tools',
      'load_tool',
    ]);
    const again = engine.startRequest({ threadId: 't', requestTools: [entry('mcp_a')] });
    expect((await again.prepareStep()).visible).toEqual(['search_tools', 'load_tool', 'mcp_a']);
  });
});

describe('the guard', () => {
  it('denies a catalog tool that is not loaded, telling the model how to recover', async () => {
    const { engine, eventsOf } = harness();
    const request = engine.startRequest({ alwaysOn: ['mine'] });
    const decision = await request.guard('refund_payment'); // before any prepareStep: computes the step
    expect(decision.allowed).toBe(false);
    expect(decision.message).toMatch(/search_tools.*load_tool/);
    expect(eventsOf('deny')).toMatchObject([{ toolName: 'refund_payment', reason: 'not-loaded' }]);
    expect(await request.guard('search_tools')).toEqual({ allowed: true });
    expect(await request.guard('load_tool')).toEqual({ allowed: true });
    expect(await request.guard('mine')).toEqual({ allowed: true });
  });

  it('denies unknown names without hinting that they exist', async () => {
    const { engine, eventsOf } = harness({ filter: ({ toolName }) => toolName !== 'refund_payment' });
    const request = engine.startRequest();
    const unknown = await request.guard('rm_rf');
    const filtered = await request.guard('refund_payment');
    expect(unknown.message!.replace('rm_rf', 'X')).toBe(filtered.message!.replace('refund_payment', 'X'));
    expect(eventsOf('deny').map((event) => event.reason)).toEqual(['unknown-tool', 'filtered']);
    expect((await request.guard(undefined as unknown as string)).allowed).toBe(false);
  });

  it('tells the model a tool loaded in this step can be called from the next one', async () => {
    const { engine } = harness();
    const request = engine.startRequest();
    await request.prepareStep();
    await request.loadTool({ toolName: 'send_email' });
    expect((await request.guard('send_email')).message).toMatch(/just loaded.*next step/);
    await request.prepareStep();
    expect(await request.guard('send_email')).toEqual({ allowed: true });
  });

  it('tells the model to load again a tool this request loaded that has gone since (evicted, expired)', async () => {
    // Evicted by maxLoadedTools in another request of the thread.
    const { engine } = harness({ maxLoadedTools: 1 });
    const request = engine.startRequest({ threadId: 't' });
    await request.prepareStep();
    await request.loadTool({ toolName: 'getWeather' });
    await engine.startRequest({ threadId: 't' }).loadTool({ toolName: 'send_email' });
    for (let step = 0; step < 2; step++) {
      expect((await request.prepareStep()).visible).not.toContain('getWeather');
      const decision = await request.guard('getWeather');
      expect(decision.allowed).toBe(false);
      expect(decision.message).not.toMatch(/just loaded|call it again now/i);
      expect(decision.message).toMatch(/no longer loaded.*load_tool with "getWeather"/);
    }
    // Loaded again: "just loaded" until the next step shows it.
    await request.loadTool({ toolName: 'getWeather' });
    expect((await request.guard('getWeather')).message).toMatch(/just loaded/);
    await request.prepareStep();
    expect(await request.guard('getWeather')).toEqual({ allowed: true });

    // Expired between two steps (ttl, fake clock).
    const expiring = harness({ ttl: 1_000 });
    const timed = expiring.engine.startRequest({ threadId: 't' });
    await timed.prepareStep();
    await timed.loadTool({ toolName: 'getWeather' });
    expiring.clock.advance(1_000);
    expect((await timed.prepareStep()).visible).not.toContain('getWeather');
    expect((await timed.guard('getWeather')).message).toMatch(/no longer loaded/);
  });
});

describe('hooks the app replaced (hookReplaced)', () => {
  it("reports each hook once per request with a 'hook-replaced' event, and refuses a hook it does not know", async () => {
    const { engine, eventsOf } = harness();
    const request = engine.startRequest({ threadId: 't' });
    request.hookReplaced('step-preparation');
    request.hookReplaced('step-preparation');
    request.hookReplaced('call-repair');
    engine.startRequest({ threadId: 't' }).hookReplaced('call-repair');
    expect(eventsOf('hook-replaced')).toMatchObject([
      { threadId: 't', hook: 'step-preparation' },
      { threadId: 't', hook: 'call-repair' },
      { threadId: 't', hook: 'call-repair' },
    ]);
    expectCode(() => request.hookReplaced('prepareStep' as never), 'INVALID_INPUT');
  });

  it("after 'step-preparation', no result or refusal promises a loaded tool from the next step", async () => {
    const { engine } = harness({ maxLoadedTools: 1 });
    const request = engine.startRequest({ threadId: 't' });
    await request.prepareStep();
    request.hookReplaced('step-preparation');
    const offered = /from your next step if offered: this app chooses your tools itself, not tool search/;
    expect((await request.searchTools({ query: 'email' })).message).toMatch(offered);
    const loaded = await request.loadTool({ toolName: 'send_email' });
    expect(loaded).toMatchObject({ success: true, loaded: ['send_email'] });
    expect(loaded.message).toMatch(offered);
    // Loaded in this step: no "call it again now", which would loop when no step offers it.
    const justLoaded = (await request.guard('send_email')).message!;
    expect(justLoaded).toMatch(offered);
    expect(justLoaded).not.toMatch(/again now/);
    expect((await request.loadTool({ toolName: 'send_email' })).message).toMatch(
      /already loaded; it can be called from your next step if offered/,
    );
    expect((await request.loadTool({ toolNames: ['getWeather', 'nope'] })).message).toMatch(
      /Loaded: getWeather; callable from your next step if offered/,
    );
    await request.prepareStep({ modelStep: false });
    for (const name of ['send_email', 'refund_payment']) {
      const decision = await request.guard(name); // evicted by the cap; never loaded
      expect(decision.allowed).toBe(false);
      expect(decision.message).toMatch(offered);
    }
    // Without it, the messages are as before.
    const plain = engine.startRequest({ threadId: 'other' });
    await plain.prepareStep();
    expect((await plain.loadTool({ toolName: 'send_email' })).message).toBe(
      'Tool "send_email" loaded successfully. You can call it from your next step.',
    );
    expect((await plain.guard('send_email')).message).toMatch(/Call it again now/);
  });

  it('autoLoad: the search that loads, and a call of load_tool, say the same', async () => {
    const { engine } = harness({ search: { autoLoad: true } });
    const request = engine.startRequest();
    await request.prepareStep();
    request.hookReplaced('step-preparation');
    const offered = /from your next step if offered/;
    expect((await request.searchTools({ query: 'email' })).message).toMatch(offered);
    expect((await request.guard('load_tool')).message).toMatch(offered);
  });

  it('guard with offered: false refuses a tool the plan shows, as loaded but not offered, without a deny event', async () => {
    const { engine, eventsOf } = harness();
    const request = engine.startRequest();
    await request.prepareStep();
    await request.loadTool({ toolName: 'send_email' });
    await request.prepareStep();
    expect(await request.guard('send_email')).toEqual({ allowed: true });
    const refused = await request.guard('send_email', { offered: false });
    expect(refused).toEqual({
      allowed: false,
      message:
        'Tool "send_email" is loaded, but it was not offered to you in this step, so it was not run. Do not load it again; call it only when it is among your tools.',
    });
    expect(eventsOf('deny')).toEqual([]);
    // A meta-tool is never refused, and a tool the plan does not show gets its usual answer.
    expect(await request.guard('search_tools', { offered: false })).toEqual({ allowed: true });
    expect((await request.guard('refund_payment', { offered: false })).message).toMatch(/not loaded/);
  });
});

describe('the guard, across the requests of a thread', () => {
  const NOT_LOADED = /is not loaded, so it was not run\. Call search_tools/;
  const LOAD_AGAIN = (name: string) => new RegExp(`no longer loaded.*load_tool with "${name}"`);

  for (const [label, storage] of everyStorage) {
    it(`tells the model to load again a tool an earlier request of the thread loaded and maxLoadedTools evicted (${label})`, async () => {
      // LangChain plans each model call as a request, and each generateText call is one: the tool
      // was loaded in another request than the one whose guard refuses it.
      const { engine, eventsOf } = harness({ maxLoadedTools: 1, ...storage() });
      const records: ConversationRecord[] = [];
      const request = async (threadId = 't') => {
        const made = engine.startRequest({ threadId });
        await made.prepareStep({ records: threadId === 't' ? records : [] });
        return made;
      };
      const load = async (toolName: string) => {
        const output = await (await request()).loadTool({ toolName });
        records.push(...exchange(`call-${records.length}`, 'load_tool', { toolName }, output));
      };
      await load('getWeather');
      await load('send_email'); // evicts getWeather
      expect(eventsOf('evict').map((event) => event.toolNames)).toEqual([['getWeather']]);
      const later = await request();
      expect((await later.guard('getWeather')).message).toMatch(LOAD_AGAIN('getWeather'));
      // Never loaded in this thread, or loaded only in another: search, then load.
      expect((await later.guard('refund_payment')).message).toMatch(NOT_LOADED);
      expect((await (await request('u')).guard('getWeather')).message).toMatch(NOT_LOADED);
      await load('getWeather'); // loaded again; evicts send_email
      const last = await request();
      expect(await last.guard('getWeather')).toEqual({ allowed: true });
      expect((await last.guard('send_email')).message).toMatch(LOAD_AGAIN('send_email'));
      expect(eventsOf('deny').map((event) => event.reason)).toEqual([
        'not-loaded',
        'not-loaded',
        'not-loaded',
        'not-loaded',
      ]);
    });
  }

  it('says "no longer loaded" for a tool of a thread that expired, until clearState forgets the thread', async () => {
    const { engine, clock } = harness({ ttl: 1_000 });
    await engine.startRequest({ threadId: 't' }).loadTool({ toolName: 'getWeather' });
    clock.advance(1_000);
    const later = engine.startRequest({ threadId: 't' });
    expect((await later.prepareStep()).visible).not.toContain('getWeather');
    expect((await later.guard('getWeather')).message).toMatch(LOAD_AGAIN('getWeather'));
    await engine.clearState('t');
    expect((await engine.startRequest({ threadId: 't' }).guard('getWeather')).message).toMatch(NOT_LOADED);
  });

  it('forgets an evicted tool on clearState and clearAllState, and says nothing of a tool the filter now refuses', async () => {
    let refuse = false;
    const { engine, eventsOf } = harness({
      maxLoadedTools: 1,
      filter: ({ toolName }) => !(refuse && toolName === 'getWeather'),
    });
    const loadBoth = async (threadId: string) => {
      await engine.startRequest({ threadId }).loadTool({ toolName: 'getWeather' });
      await engine.startRequest({ threadId }).loadTool({ toolName: 'send_email' });
    };
    await loadBoth('t');
    await loadBoth('u');
    refuse = true;
    const denied = await engine.startRequest({ threadId: 't' }).guard('getWeather');
    expect(denied.message).toMatch(/is not available/);
    expect(eventsOf('deny').at(-1)).toMatchObject({ reason: 'filtered' });
    refuse = false;
    expect((await engine.startRequest({ threadId: 't' }).guard('getWeather')).message).toMatch(
      LOAD_AGAIN('getWeather'),
    );
    await engine.clearState('t');
    expect((await engine.startRequest({ threadId: 't' }).guard('getWeather')).message).toMatch(NOT_LOADED);
    expect((await engine.startRequest({ threadId: 'u' }).guard('getWeather')).message).toMatch(
      LOAD_AGAIN('getWeather'),
    );
    await engine.clearAllState();
    expect((await engine.startRequest({ threadId: 'u' }).guard('getWeather')).message).toMatch(NOT_LOADED);
  });

  it(`remembers the ${MAX_REMEMBERED_UNLOADS} tools a thread most recently lost`, async () => {
    const count = MAX_REMEMBERED_UNLOADS + 2;
    const catalog = Array.from({ length: count }, (_, index) => entry(`tool_${index}`));
    const { engine } = harness({ catalog, maxLoadedTools: 1 });
    for (const { descriptor } of catalog)
      await engine.startRequest({ threadId: 't' }).loadTool({ toolName: descriptor.name });
    // tool_0 … tool_32 were evicted; tool_0, the first, is forgotten.
    const later = engine.startRequest({ threadId: 't' });
    expect((await later.guard('tool_0')).message).toMatch(NOT_LOADED);
    expect((await later.guard('tool_1')).message).toMatch(LOAD_AGAIN('tool_1'));
    expect((await later.guard(`tool_${count - 2}`)).message).toMatch(LOAD_AGAIN(`tool_${count - 2}`));
    expect(await later.guard(`tool_${count - 1}`)).toEqual({ allowed: true });
  });

  it("an allow-list filter of catalog tools leaves the agent's own tools shown and callable, and is never asked about them", async () => {
    const allowed = new Set(['getWeather']);
    const filter = vi.fn<ToolFilter<FakeTool>>(({ toolName }) => allowed.has(toolName));
    const { engine, eventsOf } = harness({ filter });
    const request = engine.startRequest({
      threadId: 't',
      alwaysOn: [entry('calculator'), 'get_time'],
      requestTools: [entry('mcp_lookup')],
    });
    expect((await request.prepareStep()).visible).toEqual([
      'search_tools',
      'load_tool',
      'calculator',
      'get_time',
    ]);
    expect(await request.guard('calculator')).toEqual({ allowed: true });
    expect(await request.guard('get_time')).toEqual({ allowed: true });
    expect(await request.loadTool({ toolName: 'calculator' })).toMatchObject({
      alreadyLoaded: ['calculator'],
    });
    expect(filter.mock.calls.map(([args]) => args.toolName)).not.toContain('calculator');
    expect(filter.mock.calls.map(([args]) => args.toolName)).not.toContain('get_time');
    // Catalog tools and request tools (includeResolvedTools) are still filtered.
    expect(await request.loadTool({ toolNames: ['send_email', 'mcp_lookup', 'getWeather'] })).toMatchObject({
      loaded: ['getWeather'],
      notFound: ['send_email', 'mcp_lookup'],
    });
    expect((await request.guard('send_email')).allowed).toBe(false);
    expect(eventsOf('deny').map((event) => [event.toolName, event.reason])).toEqual([
      ['send_email', 'filtered'],
    ]);
  });
});

describe('load-state store failures', () => {
  for (const mode of ['throw', 'reject', 'garbage'] as const) {
    it(`degrades a step instead of failing when the store ${mode}s`, async () => {
      const store = brokenStore(mode);
      const { engine, eventsOf } = harness({ storage: store });
      const request = engine.startRequest({ threadId: 't', alwaysOn: ['mine'] });
      const plan = await request.prepareStep();
      expect(plan).toMatchObject({
        visible: ['search_tools', 'load_tool', 'mine'],
        loaded: [],
        degraded: true,
      });
      const error = eventsOf('store-error')[0]!;
      expect(error.operation).toBe('get');
      expect(ToolSearchError.isInstance(error.error) && error.error.code).toBe('STORE_UNAVAILABLE');

      const load = await request.loadTool({ toolName: 'send_email' });
      expect(load).toMatchObject({ success: false });
      expect(load.message).toMatch(/unavailable/);
      expect((await request.searchTools({ query: 'mail' })).results.length).toBeGreaterThan(0);
      await expect(Promise.resolve().then(() => engine.getStateStats())).rejects.toSatisfy(
        (thrown: unknown) => ToolSearchError.isInstance(thrown) && thrown.code === 'STORE_UNAVAILABLE',
      );

      store.up = true;
      expect(await request.loadTool({ toolName: 'send_email' })).toMatchObject({ success: true });
      expect(await request.prepareStep()).toMatchObject({
        degraded: false,
        visible: ['search_tools', 'load_tool', 'mine', 'send_email'],
      });
    });
  }

  it('bounds a store that never answers (STORE_TIMEOUT) on the injected clock', async () => {
    const { engine, clock, eventsOf } = harness({ storage: brokenStore('hang'), storeTimeoutMs: 500 });
    const request = engine.startRequest({ threadId: 't' });
    const pending = request.prepareStep();
    await clock.advanceAsync(499);
    expect(eventsOf('store-error')).toHaveLength(0);
    await clock.advanceAsync(1);
    expect(await pending).toMatchObject({ degraded: true, visible: ['search_tools', 'load_tool'] });
    const error = eventsOf('store-error')[0]!.error;
    expect(ToolSearchError.isInstance(error) && error.code).toBe('STORE_TIMEOUT');

    const load = request.loadTool({ toolName: 'send_email' });
    await clock.advanceAsync(500);
    expect(await load).toMatchObject({ success: false });
    expect(clock.pendingTimers()).toBe(0);
  });

  it('a store write that times out may have landed: the model is told so, and the next step shows what the store holds', async () => {
    for (const write of ['settles late', 'never settles'] as const) {
      for (const autoLoad of [false, true]) {
        const inner = asyncStore();
        const held = createDeferred<void>();
        const store: LoadStateStore = {
          ...inner,
          add: async (threadId, names) => {
            await (write === 'settles late' ? held.promise : new Promise<never>(() => {}));
            return inner.add(threadId, names);
          },
        };
        const { engine, clock } = harness({ storage: store, storeTimeoutMs: 500, search: { autoLoad } });
        const request = engine.startRequest({ threadId: 't' });
        await request.prepareStep();
        const pending = autoLoad
          ? request.searchTools({ query: 'send email' })
          : request.loadTool({ toolName: 'send_email' });
        await clock.advanceAsync(500);
        const output: { message: string } = await pending;
        expect(output.message, write).toContain(
          'Tool state did not answer in time, so these tools may have been loaded: send_email',
        );
        expect(output.message).toContain('offered from your next step');
        expect(output.message).not.toMatch(/nothing was loaded|could not be loaded/);
        // The same step: the tool is not offered, and the guard says the same as the result.
        expect(await request.guard('send_email')).toMatchObject({
          allowed: false,
          message: expect.stringContaining('may have been loaded (tool state did not answer in time)'),
        });
        if (write === 'settles late') {
          held.resolve();
          await clock.advanceAsync(0);
        }
        const next = await request.prepareStep();
        const landed = write === 'settles late';
        expect(next.visible.includes('send_email'), `${write}, autoLoad ${autoLoad}`).toBe(landed);
        const decision = await request.guard('send_email');
        expect(decision.allowed).toBe(landed);
        if (!landed) expect(decision.message).toContain('Tool "send_email" is not loaded');
      }
    }
  });

  it('a store that refuses a write (known to write nothing) still says nothing was loaded', async () => {
    const store = brokenStore('reject');
    const { engine } = harness({ storage: store });
    const output = await engine.startRequest({ threadId: 't' }).loadTool({ toolName: 'send_email' });
    expect(output.message).toContain('nothing was loaded');
    expect(output.message).not.toContain('may have been loaded');
  });

  it('bounds nothing when a timeout is above the largest timer delay (2^31 ms): no timer, no timeout', async () => {
    const held = createDeferred<void>();
    const inner = asyncStore();
    const slowStore: LoadStateStore = {
      ...inner,
      get: async (threadId) => {
        await held.promise;
        return inner.get(threadId);
      },
    };
    const slowRanker: RankerFactory = (tools) => ({
      search: async (query, options) => {
        await held.promise;
        return catalogOrderRanker(tools).search(query, options);
      },
    });
    const { engine, clock, eventsOf } = harness({
      storage: slowStore,
      ranker: slowRanker,
      filter: async () => {
        await held.promise;
        return true;
      },
      storeTimeoutMs: 2 ** 31,
      searchTimeoutMs: 3e9,
      filterTimeoutMs: Number.MAX_VALUE,
    });
    const request = engine.startRequest({ threadId: 't' });
    const plan = request.prepareStep();
    const search = request.searchTools({ query: 'weather' });
    const load = request.loadTool({ toolName: 'getWeather' });
    await clock.advanceAsync(0);
    expect(clock.pendingTimers()).toBe(0);
    await clock.advanceAsync(2 ** 32);
    held.resolve();
    expect(await plan).toMatchObject({ degraded: false });
    expect((await search).results.length).toBeGreaterThan(0);
    expect(await load).toMatchObject({ success: true });
    expect(eventsOf('store-error')).toEqual([]);
    expect(eventsOf('search-error')).toEqual([]);
    expect(eventsOf('filter-error')).toEqual([]);
  });

  it('answers the model clearly when autoLoad cannot load', async () => {
    const { engine } = harness({ storage: brokenStore('reject'), search: { autoLoad: true } });
    const output = await engine.startRequest().searchTools({ query: 'weather' });
    expect(output.results.length).toBeGreaterThan(0);
    expect(output.loaded).toEqual([]);
    expect(output.message).toMatch(/could not be loaded/);
  });
});

describe('catalog listing (catalogInstructions)', () => {
  it('lists the tools the request may search and load, static first, each on one line, the same text every time', async () => {
    const filter = vi.fn<ToolFilter<FakeTool, { user?: string }>>(
      async ({ toolName, phase }) =>
        toolName !== 'refund_payment' && !(toolName === 'upload_file' && phase === 'load'),
    );
    const { engine } = harness({
      catalog: [
        entry('getWeather', { description: 'Current weather\n  for a city.' }),
        entry('send_email'),
        entry('refund_payment'),
        entry('upload_file'),
        entry('long', { description: 'x'.repeat(400) }),
      ],
      filter,
    });
    const request = engine.startRequest({
      threadId: 't',
      requestTools: [entry('send_email', { description: 'The request’s own mailer.' }), entry('mcp_search')],
    });
    const text = await request.catalogInstructions();
    expect(text).toBe(
      [
        'These tools are available to load without searching: call load_tool with the exact name(s) you need, and a loaded tool can be called from your next step. search_tools also finds them by keywords.',
        '',
        'Available tools:',
        '- `getWeather`: Current weather for a city.',
        `- \`long\`: ${'x'.repeat(147)}...`,
        '- `send_email`: The request’s own mailer.',
        '- `mcp_search`: The mcp_search tool.',
      ].join('\n'),
    );
    const calls = filter.mock.calls.length;
    await request.prepareStep();
    expect(await request.catalogInstructions()).toBe(text);
    // The filter's answers are memoised: no tool is asked about again for the listing.
    expect(filter.mock.calls.slice(calls).filter(([args]) => args.phase !== 'active')).toEqual([]);
  });

  it('says how to load under autoLoad, and is undefined when the filter leaves nothing', async () => {
    const auto = harness({ catalog: [entry('getWeather')], search: { autoLoad: true } });
    expect(await auto.engine.startRequest().catalogInstructions()).toMatch(
      /^These tools are available\. To use one, call search_tools with its exact name;[\s\S]*- `getWeather`: The getWeather tool\.$/,
    );
    const none = harness({ catalog: [entry('getWeather')], filter: () => false });
    expect(await none.engine.startRequest().catalogInstructions()).toBeUndefined();
  });
});

describe('ranker failures', () => {
  const failing =
    (search: () => unknown): RankerFactory =>
    () => ({ search: search as never });

  for (const [how, search] of [
    [
      'throws',
      () => {
        throw new Error('index corrupt');
      },
    ],
    ['rejects', () => Promise.reject(new Error('vector database down'))],
    ['answers something other than an array', () => ({ results: [] })],
  ] as const) {
    it(`tells the model the search failed, and emits search-error, when the ranker ${how}`, async () => {
      const { engine, eventsOf } = harness({ ranker: failing(search) });
      const output = await engine.startRequest({ threadId: 't' }).searchTools({ query: 'weather' });
      expect(output).toEqual({
        results: [],
        message: 'Tool search failed for this query. Try again, perhaps with other keywords.',
      });
      expect(eventsOf('search')).toEqual([]);
      expect(eventsOf('search-error')).toEqual([
        expect.objectContaining({ type: 'search-error', threadId: 't', query: 'weather' }),
      ]);
      const error = eventsOf('search-error')[0]!.error;
      if (how === 'answers something other than an array') {
        expect(ToolSearchError.isInstance(error) && error.code).toBe('INVALID_OPTIONS');
      } else {
        expect(error).toBeInstanceOf(Error);
      }
    });
  }

  it('bounds a ranker that never answers (SEARCH_TIMEOUT) on the injected clock', async () => {
    const { engine, clock, eventsOf } = harness({
      ranker: failing(() => new Promise(() => {})),
      searchTimeoutMs: 800,
    });
    const timers = clock.pendingTimers(); // the in-memory store's sweep
    const pending = engine.startRequest().searchTools({ query: 'weather' });
    expect(clock.pendingTimers()).toBe(timers + 1);
    await clock.advanceAsync(799);
    expect(eventsOf('search-error')).toHaveLength(0);
    await clock.advanceAsync(1);
    expect((await pending).message).toMatch(/failed/);
    const error = eventsOf('search-error')[0]!.error;
    expect(ToolSearchError.isInstance(error) && error.code).toBe('SEARCH_TIMEOUT');
    expect(clock.pendingTimers()).toBe(timers);
  });

  it('does not put a timer on a ranker that answers synchronously, nor on one that answers in time', async () => {
    const slow: RankerFactory = (tools) => ({
      search: async (query, options) => catalogOrderRanker(tools).search(query, options),
    });
    const { engine, clock } = harness({ ranker: slow, searchTimeoutMs: 800 });
    const timers = clock.pendingTimers(); // the in-memory store's sweep
    const output = await engine.startRequest().searchTools({ query: 'weather' });
    expect(output.results.length).toBeGreaterThan(0);
    expect(clock.pendingTimers()).toBe(timers);
    const sync = harness({ ranker: catalogOrderRanker, searchTimeoutMs: 800 });
    const syncTimers = sync.clock.pendingTimers();
    const pending = sync.engine.startRequest().searchTools({ query: 'weather' });
    expect(sync.clock.pendingTimers()).toBe(syncTimers);
    expect((await pending).results.length).toBeGreaterThan(0);
  });

  it('rejects a searchTimeoutMs that is not a positive number', () => {
    for (const searchTimeoutMs of [0, -1, Number.NaN, '100' as never]) {
      expectCode(
        () => createToolSearchEngine({ catalog: sampleCatalog(), searchTimeoutMs }),
        'INVALID_OPTIONS',
      );
    }
    expect(() =>
      createToolSearchEngine({ catalog: sampleCatalog(), searchTimeoutMs: Infinity }).dispose(),
    ).not.toThrow();
  });

  it('lists each tool once, keeps only catalog names, and reads scores and descriptions defensively', async () => {
    const answer = [
      null,
      'getWeather',
      { name: 42, score: 1 },
      { name: 'not_in_catalog', description: 'x', score: 0.99 },
      { name: 'weather_now', description: 'Now, by its alias.', score: 0.95 },
      { name: 'getWeather', description: 'Again, by its name.', score: 0.9 },
      { name: 'send_email', score: Number.NaN },
      { name: 'send_email', score: 0.4 },
      { name: 'upload_file', description: 7, score: 12 },
    ];
    const { engine } = harness({
      catalog: [
        entry('getWeather', { aliases: ['weather_now'] }),
        entry('send_email'),
        entry('upload_file'),
        ...['refund_payment', 'create_invoice', 'book_flight', 'convert_currency'].map((name) => entry(name)),
      ],
      ranker: () => ({ search: () => answer as never }),
    });
    const output = await engine.startRequest().searchTools({ query: 'weather' });
    expect(output.results).toEqual([
      { name: 'getWeather', description: 'Now, by its alias.', score: 0.95 },
      { name: 'send_email', description: 'The send_email tool.', score: 0 },
      { name: 'upload_file', description: 'The upload_file tool.', score: 1 },
    ]);
  });

  it('emits search-error, and still answers, when the ranker behind "did you mean" fails', async () => {
    const catalog = [
      entry('getWeather'),
      ...Array.from({ length: 2_500 }, (_, index) => entry(`tool_${index}`)),
    ];
    const { engine, eventsOf } = harness({
      catalog,
      ranker: failing(() => Promise.reject(new Error('down'))),
    });
    const output = await engine.startRequest().loadTool({ toolName: 'getWether' });
    expect(output).toMatchObject({ success: false, notFound: ['getWether'] });
    expect(eventsOf('search-error')).toEqual([expect.objectContaining({ query: 'getWether' })]);
  });
});

describe('events', () => {
  it('survive a listener that throws', async () => {
    const engine = createToolSearchEngine({
      catalog: sampleCatalog(),
      onEvent: () => {
        throw new Error('logger down');
      },
    });
    const request = engine.startRequest();
    await request.searchTools({ query: 'weather' });
    await request.loadTool({ toolName: 'getWeather' });
    expect((await request.prepareStep()).visible).toContain('getWeather');
    expect((await request.guard('send_email')).allowed).toBe(false);
    engine.dispose();
  });

  it('report searches, loads and steps with their figures', async () => {
    const { engine, eventsOf, clock } = harness();
    const request = engine.startRequest({ threadId: 't' });
    const output = await request.searchTools({ query: 'send an email' });
    await request.loadTool({ toolNames: ['send_email', 'nope'] });
    await request.prepareStep();
    expect(eventsOf('search')).toEqual([
      {
        type: 'search',
        threadId: 't',
        time: clock.now(),
        query: 'send an email',
        results: output.results,
        durationMs: 0,
      },
    ]);
    expect(eventsOf('load')).toEqual([
      {
        type: 'load',
        threadId: 't',
        time: clock.now(),
        loaded: ['send_email'],
        alreadyLoaded: [],
        notFound: ['nope'],
        auto: false,
      },
    ]);
    expect(eventsOf('step')).toEqual([
      {
        type: 'step',
        threadId: 't',
        time: clock.now(),
        visibleCount: 3,
        catalogCount: 12,
        visible: ['search_tools', 'load_tool', 'send_email'],
      },
    ]);
  });
});

describe('plans outside a model step', () => {
  it('a guard before the first step makes its plan without a step event, or waits for the plan under way', async () => {
    const { engine, eventsOf } = harness();
    await engine.startRequest({ threadId: 't' }).loadTool({ toolName: 'send_email' });
    // A call replayed before the first step (an approved call): no tools were sent to a model.
    const early = engine.startRequest({ threadId: 't' });
    const decisions = await Promise.all([early.guard('send_email'), early.guard('getWeather')]);
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, false]);
    expect(eventsOf('step')).toEqual([]);

    // A guard while the step's plan is being made waits for that plan: one step, one read.
    const read = createDeferred<void>();
    const inner = createMemoryStore({ ttl: 0 });
    inner.add('t', ['send_email']);
    let reads = 0;
    const slow = harness({
      storage: {
        get: async (threadId) => {
          reads++;
          await read.promise;
          return inner.get(threadId);
        },
        add: (threadId, names) => inner.add(threadId, names),
        delete: (threadId) => inner.delete(threadId),
      },
    });
    const request = slow.engine.startRequest({ threadId: 't' });
    const step = request.prepareStep();
    const guarded = request.guard('send_email');
    read.resolve();
    expect((await step).visible).toContain('send_email');
    expect(await guarded).toEqual({ allowed: true });
    expect(reads).toBe(1);
    expect(slow.eventsOf('step')).toHaveLength(1);
  });

  it('computes the plan without a step event when modelStep is false', async () => {
    const { engine, eventsOf } = harness();
    const request = engine.startRequest({ threadId: 'restore' });
    await request.loadTool({ toolName: 'send_email' });

    const restored = await engine.startRequest({ threadId: 'restore' }).prepareStep({ modelStep: false });
    expect(restored.loaded.map((item) => item.descriptor.name)).toEqual(['send_email']);
    expect(eventsOf('step')).toEqual([]);

    await engine.startRequest({ threadId: 'restore' }).prepareStep();
    expect(eventsOf('step')).toHaveLength(1);
  });
});

describe('one thread, many calls at once', () => {
  for (const [label, storage] of everyStorage) {
    it(`reports a tool that two calls load at once as loaded by one of them; the other finds it loaded (${label})`, async () => {
      const { engine, eventsOf } = harness(storage());
      const first = engine.startRequest({ threadId: 't' });
      // 'context' state is the request's own: its parallel calls race; a store's is the thread's.
      const second = storage().storage === 'context' ? first : engine.startRequest({ threadId: 't' });
      const answers = await Promise.all([
        first.loadTool({ toolName: 'getWeather' }),
        second.loadTool({ toolNames: ['getWeather', 'send_email'] }),
      ]);
      expect(answers[0]).toMatchObject({ success: true, loaded: ['getWeather'] });
      expect(answers[1]).toMatchObject({
        success: true,
        loaded: ['send_email'],
        alreadyLoaded: ['getWeather'],
      });
      expect(eventsOf('load').map((event) => event.loaded)).toEqual([['getWeather'], ['send_email']]);
      expect((await first.prepareStep()).visible).toEqual([
        'search_tools',
        'load_tool',
        'getWeather',
        'send_email',
      ]);
    });
  }

  it('behind a stalled store, every load of a thread fails within two bounds, not the k-th after k of them', async () => {
    const clock = createFakeClock();
    const stalled: LoadStateStore = {
      get: () => new Promise<string[]>(() => {}),
      add: async () => [],
      delete: async () => {},
    };
    const engine = createToolSearchEngine({
      catalog: sampleCatalog(),
      storage: stalled,
      storeTimeoutMs: 200,
      clock,
    });
    const names = ['getWeather', 'getForecast', 'send_email', 'search_emails', 'upload_file'];
    const settledAt: number[] = [];
    const loads = names.map((toolName) =>
      engine
        .startRequest({ threadId: 't' })
        .loadTool({ toolName })
        .then((output) => {
          settledAt.push(clock.now());
          return output;
        }),
    );
    const start = clock.now();
    for (let step = 0; step < 4; step++) await clock.advanceAsync(100);
    await clock.advanceAsync(0);
    expect(settledAt).toHaveLength(names.length);
    expect(Math.max(...settledAt) - start).toBeLessThanOrEqual(400);
    for (const output of await Promise.all(loads)) {
      expect(output).toMatchObject({
        success: false,
        message: expect.stringMatching(/could not be loaded|unavailable/i),
      });
    }
  });

  // A policy bypass is the worst fault the engine can have: whatever runs at once, whatever
  // order a store and a filter answer in, whatever aborts, nothing the filter refuses in
  // 'load' or 'active' is shown or allowed to run; and the load and evict events tell exactly
  // what the store holds, each name loaded and evicted once.
  const tools = {
    alpha: entry('alpha', {
      aliases: ['Alpha_id'],
      owner: 's-alpha',
      description: 'Weather and email files.',
    }),
    beta: entry('beta', { owner: 's-beta', description: 'Weather and email files.' }),
    gamma: entry('gamma', { owner: 's-gamma', description: 'Weather and email files.' }),
    delta: entry('delta', { aliases: ['eps'], owner: 's-delta', description: 'Weather and email files.' }),
    zeta: entry('zeta', { aliases: ['ZETA'], owner: 's-zeta', description: 'Weather and email files.' }),
  };
  const requestTools = [
    entry('beta', { owner: 'r-beta' }), // shadows the static beta
    entry('Gamma', { owner: 'r-Gamma' }), // the static gamma in another case
    entry('eps', { owner: 'r-eps', aliases: ['load_tool', 'alpha'] }), // a static alias, a meta-tool, a static name
    entry('omega', { owner: 'r-omega', aliases: ['Alpha_id'] }),
  ];
  const ownCalc = entry('calc', { owner: 'own-calc' });
  const ownZeta = entry('zeta', { owner: 'own-zeta' }); // the agent's own tool named like a catalog tool
  const names = [
    'alpha',
    'Alpha_id',
    'ALPHA',
    'beta',
    'BETA',
    'gamma',
    'Gamma',
    'delta',
    'eps',
    'zeta',
    'ZETA',
  ];
  const owners = [
    's-alpha',
    's-beta',
    's-gamma',
    's-delta',
    's-zeta',
    'r-beta',
    'r-Gamma',
    'r-eps',
    'r-omega',
  ];
  const verdicts = ['yes', 'no', 'throw', 'not-boolean', 'later-yes', 'later-no', 'later-throw'] as const;
  const operation = fc.oneof(
    fc.record({ kind: fc.constant('step' as const) }),
    fc.record({
      kind: fc.constant('load' as const),
      names: fc.array(fc.constantFrom(...names, 'omega', 'calc', 'nope'), { minLength: 1, maxLength: 3 }),
      abort: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('search' as const),
      query: fc.constantFrom('weather', 'alpha', 'omega'),
      abort: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('guard' as const),
      name: fc.constantFrom(...names, 'omega', 'calc', 'load_tool'),
    }),
  );
  const requestPlan = fc.record({
    user: fc.constantFrom('u1', 'u2'),
    requestTools: fc.boolean(),
    alwaysOn: fc.subarray(['calc', 'alpha', 'ownZeta'] as const),
    groups: fc.array(fc.array(operation, { minLength: 1, maxLength: 3 }), { maxLength: 5 }),
  });
  for (const kind of ['in-memory', 'async', 'context'] as const) {
    for (const autoLoad of [false, true]) {
      it(`never shows nor runs a tool the filter refuses, and reports each load and eviction once (property: ${kind} storage, autoLoad ${autoLoad})`, async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.scheduler(),
            fc.dictionary(
              fc.constantFrom('u1', 'u2'),
              fc.dictionary(
                fc.constantFrom(
                  ...owners.flatMap((owner) => [`search ${owner}`, `load ${owner}`, `active ${owner}`]),
                ),
                fc.constantFrom(...verdicts),
              ),
            ),
            fc.array(requestPlan, { minLength: 1, maxLength: 3 }),
            fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
            async (s, policy, plans, maxLoadedTools) => {
              const inner = createMemoryStore({ ttl: 0 });
              const later = () => s.schedule(Promise.resolve());
              const store: LoadStateStore = {
                get: (threadId) => later().then(() => inner.get(threadId)),
                add: (threadId, added) => later().then(() => inner.add(threadId, added)),
                remove: (threadId, removed) => later().then(() => inner.remove(threadId, removed)),
                delete: (threadId) => inner.delete(threadId),
              };
              /** Per request: what the filter allowed, by phase and tool object. */
              type Context = { user: string; allowed: Map<string, boolean> };
              const { engine, events } = harness({
                catalog: Object.values(tools),
                storage: kind === 'async' ? store : kind,
                ranker: catalogOrderRanker,
                maxLoadedTools,
                search: { autoLoad, topK: 3 },
                storeTimeoutMs: Number.POSITIVE_INFINITY,
                filterTimeoutMs: Number.POSITIVE_INFINITY,
                filter: ({ tool, phase, requestContext }) => {
                  const { user, allowed } = requestContext as unknown as Context;
                  const key = `${phase} ${tool?.owner ?? tool?.name}`;
                  const verdict = policy[user]?.[key] ?? 'yes';
                  allowed.set(key, verdict === 'yes' || verdict === 'later-yes');
                  if (verdict === 'yes' || verdict === 'no') return verdict === 'yes';
                  if (verdict === 'throw') throw new Error('policy service down');
                  if (verdict === 'not-boolean') return 'true' as unknown as boolean;
                  return later().then(() => {
                    if (verdict === 'later-throw') throw new Error('policy service down');
                    return verdict === 'later-yes';
                  });
                },
              });
              const runs = plans.map(async (plan) => {
                const allowed = new Map<string, boolean>();
                const alwaysOn = plan.alwaysOn.map((item) =>
                  item === 'calc' ? ownCalc : item === 'ownZeta' ? ownZeta : item,
                );
                const request = engine.startRequest({
                  threadId: 't',
                  requestContext: { user: plan.user, allowed } as never,
                  alwaysOn,
                  requestTools: plan.requestTools ? requestTools : undefined,
                });
                /** A name that is shown or may run: the filter allowed the very tool that runs under it. */
                const mayRun = (name: string, how: string) => {
                  if (name === 'search_tools' || (name === 'load_tool' && !autoLoad)) return;
                  const resolved = request.resolve(name);
                  const owner = resolved?.tool.owner ?? resolved?.tool.name ?? name;
                  // The agent's own tools answer to no filter; a catalog tool kept on by name, to 'active'.
                  if (resolved === ownCalc || resolved === ownZeta) return;
                  expect(allowed.get(`active ${owner}`), `${how} ${name} (${owner}): active`).toBe(true);
                  if (plan.alwaysOn.includes((resolved?.descriptor.name ?? name) as 'alpha')) return;
                  expect(allowed.get(`load ${owner}`), `${how} ${name} (${owner}): load`).toBe(true);
                };
                for (const group of plan.groups) {
                  // One plan at a time per request, as an adapter makes them; the rest at once.
                  const firstStep = group.findIndex((item) => item.kind === 'step');
                  const calls = group
                    .filter((item, index) => item.kind !== 'step' || index === firstStep)
                    .map(async (item) => {
                      if (item.kind === 'step') {
                        for (const name of (await request.prepareStep()).visible) mayRun(name, 'shown');
                      } else if (item.kind === 'guard') {
                        if ((await request.guard(item.name)).allowed) mayRun(item.name, 'ran');
                      } else {
                        const controller = new AbortController();
                        if (item.abort) void later().then(() => controller.abort());
                        const call =
                          item.kind === 'load'
                            ? request.loadTool({ toolNames: item.names }, { signal: controller.signal })
                            : request.searchTools({ query: item.query }, { signal: controller.signal });
                        await call.catch((error: unknown) => {
                          if (!controller.signal.aborted) throw error;
                        });
                      }
                    });
                  await Promise.all(calls);
                }
              });
              await s.waitFor(Promise.all(runs));
              // Aborted calls run on, unobserved: let them finish.
              do {
                await s.waitAll();
                await flushAll();
              } while (s.count() > 0);
              if (kind === 'context') return; // each request's own state: no thread to compare with
              const held = new Set<string>();
              for (const event of events) {
                if (event.type === 'load') {
                  for (const name of event.loaded) {
                    expect(held.has(name), `${name} loaded twice`).toBe(false);
                    held.add(name);
                  }
                } else if (event.type === 'evict') {
                  for (const name of event.toolNames) {
                    expect(held.has(name), `${name} evicted but not loaded`).toBe(true);
                    held.delete(name);
                  }
                }
              }
              const stored = kind === 'async' ? inner.get('t') : await engine.getLoadedToolNames('t');
              expect([...held].sort()).toEqual([...stored].sort());
            },
          ),
          { numRuns: 60 },
        );
      });
    }
  }
});

describe('aborting a meta-tool call (signal)', () => {
  const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

  it('settles a slow search at once with the signal’s reason, then reports nothing and leaves no listener', async () => {
    const answer = createDeferred<SearchResult[]>();
    const { engine, eventsOf } = harness({
      ranker: (tools) => ({
        search: () =>
          answer.promise.then(() => catalogOrderRanker(tools).search('', { topK: 2 }) as SearchResult[]),
      }),
      search: { autoLoad: true },
    });
    const request = engine.startRequest({ threadId: 'gone' });
    const controller = new AbortController();
    const reason = new Error('the user left');
    const search = request.searchTools({ query: 'weather' }, { signal: controller.signal });
    await flush();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort(reason);
    await expect(search).rejects.toBe(reason);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);

    answer.resolve([]); // the ranker answers late: its answer is dropped
    await flush();
    expect(eventsOf('search')).toEqual([]);
    expect(eventsOf('load')).toEqual([]);
    expect(await engine.getLoadedToolNames('gone')).toEqual([]);
  });

  it('loads nothing when the signal aborts while a filter decides', async () => {
    const decision = createDeferred<boolean>();
    const { engine, eventsOf } = harness({
      filter: ({ phase }) => (phase === 'load' ? decision.promise : true),
    });
    const controller = new AbortController();
    const load = engine
      .startRequest({ threadId: 'gone' })
      .loadTool({ toolName: 'getWeather' }, { signal: controller.signal });
    await flush();
    controller.abort();
    await expect(load).rejects.toMatchObject({ name: 'AbortError' });
    decision.resolve(true);
    await flush();
    expect(eventsOf('load')).toEqual([]);
    expect(await engine.getLoadedToolNames('gone')).toEqual([]);
  });

  it("keeps a store write that lands after its load was aborted: taking it back would undo another process's load", async () => {
    const shared = createMemoryStore({ clock: createFakeClock() });
    const written = createDeferred<void>();
    const writing = createDeferred<void>();
    // Process A's store: its add is slow (a slow network); process B's is the same store, fast.
    const slow: LoadStateStore = {
      get: (threadId) => shared.get(threadId),
      add: async (threadId, names) => {
        writing.resolve();
        await written.promise;
        return shared.add(threadId, names);
      },
      remove: (threadId, names) => shared.remove(threadId, names),
      delete: (threadId) => shared.delete(threadId),
    };
    const a = harness({ storage: slow });
    const b = harness({ storage: shared });
    const controller = new AbortController();
    const aborted = a.engine
      .startRequest({ threadId: 't' })
      .loadTool({ toolName: 'send_email' }, { signal: controller.signal });
    await writing.promise;
    expect(await b.engine.startRequest({ threadId: 't' }).loadTool({ toolName: 'send_email' })).toMatchObject(
      {
        success: true,
        loaded: ['send_email'],
      },
    );
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    written.resolve();
    await flush();
    // B told its model that send_email is loaded: it stays so.
    expect((await b.engine.startRequest({ threadId: 't' }).prepareStep()).visible).toContain('send_email');
    // A's write landed after the abort: the tool is loaded, and A reports its load.
    expect(a.eventsOf('load').map((event) => event.loaded)).toEqual([['send_email']]);
  });

  it('rejects a signal that is not an AbortSignal with INVALID_INPUT, before any work', async () => {
    const search = vi.fn(() => []);
    const { engine } = harness({ ranker: () => ({ search }) });
    const request = engine.startRequest();
    for (const signal of ['x', 5, {}, { aborted: false }]) {
      await expect(
        request.searchTools({ query: 'weather' }, { signal: signal as never }),
      ).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
      await expect(
        request.loadTool({ toolName: 'getWeather' }, { signal: signal as never }),
      ).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
    }
    expect(search).not.toHaveBeenCalled();
    expect(await engine.getLoadedToolNames()).toEqual([]);
    expect((await request.searchTools({ query: 'weather' }, { signal: null as never })).results.length).toBe(
      0,
    );
  });

  it('does not start when the signal has already aborted; an unaborted call removes its listener', async () => {
    const search = vi.fn(() => []);
    const { engine } = harness({ ranker: () => ({ search }) });
    const request = engine.startRequest();
    const aborted = AbortSignal.abort(new Error('too late'));
    await expect(request.searchTools({ query: 'weather' }, { signal: aborted })).rejects.toThrow('too late');
    await expect(request.loadTool({ toolName: 'getWeather' }, { signal: aborted })).rejects.toThrow(
      'too late',
    );
    expect(search).not.toHaveBeenCalled();
    expect(await engine.getLoadedToolNames()).toEqual([]);

    const controller = new AbortController();
    await request.searchTools({ query: 'weather' }, { signal: controller.signal });
    const loaded = await request.loadTool({ toolName: 'getWeather' }, { signal: controller.signal });
    expect(loaded.success).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
