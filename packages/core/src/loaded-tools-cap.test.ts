import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogOrderRanker, entry, type FakeTool, harness } from './__fixtures__/engine-fixtures';
import { createToolSearchEngine } from './engine';
import { capLoadedNames, createLoadedToolsReplay, leastRecentlyUsed } from './loaded-tools-cap';
import { createMemoryStore } from './memory-store';
import { createDeferred, type Deferred } from './testing/held-ranker';
import { sampleCatalog } from './testing/sample-tools';
import type {
  ConversationRecord,
  LoadStateStore,
  LoadToolOutput,
  ToolSearchEngineOptions,
  ToolSearchRequest,
} from './types';

type Options = Partial<ToolSearchEngineOptions<FakeTool, { user?: string }>>;

const META = ['search_tools', 'load_tool'];
// a, b, c, d of the scenario: sample catalog names.
const A = 'getWeather';
const B = 'send_email';
const C = 'upload_file';
const D = 'getForecast';
const E = 'convert_currency';

/** A store with only the methods maxLoadedTools needs (get, add, delete, remove), its names readable by the test. */
/** A store's get, add and delete, forwarded to `inner`: for a test store that replaces its remove. */
function forwarding(inner: LoadStateStore): Pick<LoadStateStore, 'get' | 'add' | 'delete'> {
  return {
    get: (threadId) => inner.get(threadId),
    add: (threadId, names) => inner.add(threadId, names),
    delete: (threadId) => inner.delete(threadId),
  };
}

function plainStore(): LoadStateStore & { names: Map<string, string[]> } {
  const names = new Map<string, string[]>();
  return {
    names,
    get: (threadId) => [...(names.get(threadId) ?? [])],
    add: (threadId, added) => {
      const list = names.get(threadId) ?? [];
      for (const name of added) if (!list.includes(name)) list.push(name);
      names.set(threadId, list);
      return [...list];
    },
    delete: (threadId) => {
      names.delete(threadId);
    },
    remove: (threadId, removed) => {
      const list = (names.get(threadId) ?? []).filter((name) => !removed.includes(name));
      if (names.has(threadId)) names.set(threadId, list);
      return [...list];
    },
  };
}

/** Loads a, b, c one step at a time, then calls a in the next step (the guard allows it). */
async function loadThreeThenCallA(request: ToolSearchRequest<FakeTool>) {
  for (const name of [A, B, C]) {
    await request.loadTool({ toolName: name });
    await request.prepareStep();
  }
  expect((await request.prepareStep()).visible).toEqual([...META, A, B, C]);
  expect(await request.guard(A)).toEqual({ allowed: true });
}

describe('maxLoadedTools: the least recently used tool goes first', () => {
  const storages: [string, () => Options][] = [
    ['the in-memory store', () => ({})],
    ['a given store with remove', () => ({ storage: createMemoryStore() })],
    ['a store with only get, add, delete and remove', () => ({ storage: plainStore() })],
    [
      'an async store',
      () => {
        const inner = createMemoryStore();
        return {
          storage: {
            get: async (threadId: string) => inner.get(threadId),
            add: async (threadId: string, names: readonly string[]) => inner.add(threadId, names),
            delete: async (threadId: string) => inner.delete(threadId),
            remove: async (threadId: string, names: readonly string[]) => inner.remove(threadId, names),
          },
        };
      },
    ],
  ];

  for (const [label, storage] of storages) {
    it(`evicts the tool not called, keeping load order (${label})`, async () => {
      const { engine, eventsOf } = harness({ maxLoadedTools: 3, ...storage() });
      const request = engine.startRequest({ threadId: 't' });
      await loadThreeThenCallA(request);

      expect(await request.loadTool({ toolName: D })).toMatchObject({ success: true, loaded: [D] });
      expect(eventsOf('evict')).toEqual([
        expect.objectContaining({ threadId: 't', toolNames: [B], reason: 'max-loaded-tools' }),
      ]);
      expect((await request.prepareStep()).visible).toEqual([...META, A, C, D]);
      expect(await engine.getLoadedToolNames('t')).toEqual([A, C, D]);
      // Reported once: later steps evict nothing more.
      await request.prepareStep();
      await engine.startRequest({ threadId: 't' }).prepareStep();
      expect(eventsOf('evict')).toHaveLength(1);
    });
  }

  it('leaves the store holding the kept names in load order', async () => {
    const store = plainStore();
    const engine = createToolSearchEngine({ catalog: sampleCatalog(), storage: store, maxLoadedTools: 3 });
    const request = engine.startRequest({ threadId: 't' });
    await loadThreeThenCallA(request);
    await request.loadTool({ toolName: D });
    expect(store.names.get('t')).toEqual([A, C, D]);
  });

  it('counts asking load_tool again for a loaded tool as a use', async () => {
    const { engine, eventsOf } = harness({ maxLoadedTools: 3 });
    const request = engine.startRequest({ threadId: 't' });
    await request.loadTool({ toolNames: [A, B, C] });
    await request.prepareStep();
    expect(await request.loadTool({ toolName: A })).toMatchObject({ success: true, alreadyLoaded: [A] });
    await request.loadTool({ toolName: D });
    expect(eventsOf('evict').map((event) => event.toolNames)).toEqual([[B]]);
    expect((await request.prepareStep()).visible).toEqual([...META, A, C, D]);
  });

  it('counts a re-found tool of an autoLoad search as a use', async () => {
    const { engine, eventsOf } = harness({
      maxLoadedTools: 2,
      search: { autoLoad: true, topK: 1 },
      catalog: [entry('alpha'), entry('bravo'), entry('charlie')],
    });
    const request = engine.startRequest({ threadId: 't' });
    for (const query of ['alpha', 'bravo', 'alpha', 'charlie']) await request.searchTools({ query });
    expect(eventsOf('evict').map((event) => event.toolNames)).toEqual([['bravo']]);
    expect((await request.prepareStep()).visible).toEqual(['search_tools', 'alpha', 'charlie']);
  });

  it('counts a call by alias as a use of the canonical tool', async () => {
    const { engine, eventsOf } = harness({
      maxLoadedTools: 2,
      catalog: [entry('alpha', { aliases: ['alpha-id'] }), entry('bravo'), entry('charlie')],
    });
    const request = engine.startRequest({ threadId: 't' });
    await request.loadTool({ toolNames: ['alpha', 'bravo'] });
    await request.prepareStep();
    expect((await request.guard('alpha-id')).allowed).toBe(true);
    await request.loadTool({ toolName: 'charlie' });
    expect(eventsOf('evict').map((event) => event.toolNames)).toEqual([['bravo']]);
  });

  it('does not count a denied call, nor an always-on tool, as a loaded tool', async () => {
    const { engine, eventsOf } = harness({ maxLoadedTools: 2 });
    const request = engine.startRequest({ threadId: 't', alwaysOn: ['clock'] });
    await request.loadTool({ toolNames: [A, B] });
    await request.prepareStep();
    expect((await request.guard('clock')).allowed).toBe(true);
    expect((await request.guard(C)).allowed).toBe(false);
    expect(await request.loadTool({ toolNames: ['clock', C] })).toMatchObject({ alreadyLoaded: ['clock'] });
    expect(eventsOf('evict').map((event) => event.toolNames)).toEqual([[A]]);
    expect((await request.prepareStep()).visible).toEqual([...META, 'clock', B, C]);
  });

  it('keeps recency across requests of a thread, and per thread', async () => {
    const { engine, eventsOf } = harness({ maxLoadedTools: 2 });
    for (const thread of ['t1', 't2'])
      await engine.startRequest({ threadId: thread }).loadTool({ toolNames: [A, B] });
    const second = engine.startRequest({ threadId: 't1' });
    await second.prepareStep();
    expect((await second.guard(A)).allowed).toBe(true);
    await engine.startRequest({ threadId: 't1' }).loadTool({ toolName: C });
    await engine.startRequest({ threadId: 't2' }).loadTool({ toolName: C });
    expect(eventsOf('evict').map((event) => [event.threadId, event.toolNames])).toEqual([
      ['t1', [B]],
      ['t2', [A]],
    ]);
  });

  it('with a shared store, ranks names by when this process saw them, in load order among themselves', async () => {
    const store = createMemoryStore();
    const first = harness({ storage: store, maxLoadedTools: 3 });
    const second = harness({ storage: store, maxLoadedTools: 3 });
    await loadThreeThenCallA(first.engine.startRequest({ threadId: 't' }));
    // The second process has seen no use of a, b or c: the oldest load goes.
    await second.engine.startRequest({ threadId: 't' }).loadTool({ toolName: D });
    expect(second.eventsOf('evict').map((event) => event.toolNames)).toEqual([[A]]);
    expect(store.get('t')).toEqual([B, C, D]);
  });

  it('forgets recency on clearState, and past maxThreads threads (least recently used first)', async () => {
    const store = plainStore();
    const { engine, eventsOf } = harness({ storage: store, maxLoadedTools: 3, maxThreads: 1 });
    await loadThreeThenCallA(engine.startRequest({ threadId: 't' }));
    await engine.clearState('t');
    store.add('t', [A, B, C]); // another process loads them again
    await engine.startRequest({ threadId: 't' }).loadTool({ toolName: D });
    expect(eventsOf('evict').at(-1)?.toolNames).toEqual([A]);

    await engine.clearState('t');
    await loadThreeThenCallA(engine.startRequest({ threadId: 't' }));
    await engine.startRequest({ threadId: 'u' }).loadTool({ toolName: A }); // t's recency is dropped
    await engine.startRequest({ threadId: 't' }).loadTool({ toolName: D });
    expect(eventsOf('evict').at(-1)?.toolNames).toEqual([A]);
  });

  it('does not let a read answered late drop the recency of a tool loaded while it was on its way', async () => {
    const inner = createMemoryStore({ ttl: 0 });
    let hold: Deferred<void> | undefined;
    const store: LoadStateStore = {
      get: async (threadId) => {
        const names = inner.get(threadId); // read when asked...
        if (hold) await hold.promise; // ...answered when the test says
        return names;
      },
      add: async (threadId, names) => inner.add(threadId, names),
      delete: async (threadId) => inner.delete(threadId),
      remove: async (threadId, names) => inner.remove(threadId, names),
    };
    const { engine, eventsOf } = harness({ storage: store, maxLoadedTools: 2 });
    await engine.startRequest({ threadId: 't' }).loadTool({ toolName: A });
    const request = engine.startRequest({ threadId: 't' });
    await request.prepareStep();

    // Another request's step reads [a]; its answer comes late.
    const late = createDeferred<void>();
    hold = late;
    const stale = engine.startRequest({ threadId: 't' }).prepareStep();
    hold = undefined;
    // Meanwhile b is loaded, then a is called: b is now the least recently used.
    await request.loadTool({ toolName: B });
    expect(await request.guard(A)).toEqual({ allowed: true });
    late.resolve();
    expect((await stale).visible).toEqual([...META, A]);

    await engine.startRequest({ threadId: 't' }).loadTool({ toolName: C });
    expect(eventsOf('evict').map((event) => event.toolNames)).toEqual([[B]]);
    expect(inner.get('t')).toEqual([A, C]);
  });

  it('evicts, and reports, each name once when loads of a thread run at once', async () => {
    const inner = createMemoryStore();
    const { engine, events } = harness({
      maxLoadedTools: 2,
      storage: {
        get: async (threadId) => inner.get(threadId),
        add: async (threadId, names) => inner.add(threadId, names),
        delete: async (threadId) => inner.delete(threadId),
        remove: async (threadId, names) => inner.remove(threadId, names),
      },
    });
    await Promise.all(
      [A, B, C, D].map((name) => engine.startRequest({ threadId: 't' }).loadTool({ toolName: name })),
    );
    expect(inner.get('t')).toEqual([C, D]);
    // Each load, then what it evicted: a name's load comes before its eviction.
    expect(
      events
        .filter((event) => event.type === 'load' || event.type === 'evict')
        .map((event) => (event.type === 'load' ? `load ${event.loaded}` : `evict ${event.toolNames}`)),
    ).toEqual([`load ${A}`, `load ${B}`, `load ${C}`, `evict ${A}`, `load ${D}`, `evict ${B}`]);
  });

  it("'context' storage: parallel loads of one step stay under the cap, and their replay agrees", async () => {
    const { engine } = harness({ maxLoadedTools: 2, storage: 'context' });
    const request = engine.startRequest({ threadId: 't' });
    const outputs = await Promise.all([A, B, C, D].map((name) => request.loadTool({ toolName: name })));
    const plan = await request.prepareStep();
    expect(plan.visible).toEqual([...META, C, D]);
    for (const name of [A, B]) expect((await request.guard(name)).allowed).toBe(false);
    // The framework stores the four results in call order: the next request replays them to the same two.
    const records: ConversationRecord[] = [A, B, C, D].flatMap((name, index) => [
      call(`c${index}`, 'load_tool', { toolName: name }),
      result(`c${index}`, 'load_tool', outputs[index]),
    ]);
    const next = engine.startRequest({ threadId: 't' });
    expect((await next.prepareStep({ records })).visible).toEqual([...META, C, D]);
  });

  it('tells the model which tools of a load naming more than the cap went again at once', async () => {
    const { engine, events } = harness({ maxLoadedTools: 2 });
    const request = engine.startRequest({ threadId: 't' });
    const output = await request.loadTool({ toolNames: [A, B, C] });
    expect(output).toMatchObject({ success: true, loaded: [A, B, C] });
    expect(output.message).toContain(`Unloaded again at once, since at most 2 tools stay loaded: ${A}`);
    expect(
      events.filter((event) => event.type === 'load' || event.type === 'evict').map((event) => event.type),
    ).toEqual(['load', 'evict']);
    expect((await request.prepareStep()).visible).toEqual([...META, B, C]);
  });

  it('finds at most maxLoadedTools tools under autoLoad, so none it loads goes again at once', async () => {
    const { engine, eventsOf } = harness({
      maxLoadedTools: 2,
      search: { autoLoad: true, topK: 5 },
      catalog: [entry('alpha'), entry('bravo'), entry('charlie'), entry('delta')],
      ranker: catalogOrderRanker,
    });
    const request = engine.startRequest({ threadId: 't' });
    const output = await request.searchTools({ query: 'anything' });
    expect(output.results.map((item) => item.name)).toEqual(['alpha', 'bravo']);
    expect(output.loaded).toEqual(['alpha', 'bravo']);
    expect(eventsOf('evict')).toEqual([]);
    await request.prepareStep();
    // The best result was loaded and stays: calling it does not send the model back to search.
    expect(await request.guard('alpha')).toEqual({ allowed: true });
  });

  it('a load whose eviction fails is still a load: it says so, reports the failure, and a later load evicts', async () => {
    const inner = createMemoryStore();
    let down = true;
    const { engine, eventsOf } = harness({
      maxLoadedTools: 1,
      storage: {
        ...forwarding(inner),
        remove: (threadId, names) => {
          if (down) throw new Error('connection reset');
          return inner.remove(threadId, names);
        },
      },
    });
    const request = engine.startRequest({ threadId: 't' });
    await request.loadTool({ toolName: A });
    expect(await request.loadTool({ toolName: B })).toMatchObject({ success: true, loaded: [B] });
    expect(eventsOf('store-error').map((event) => event.operation)).toEqual(['remove']);
    expect(eventsOf('evict')).toEqual([]);
    expect(inner.get('t')).toEqual([A, B]);
    expect((await request.prepareStep()).visible).toEqual([...META, B]); // read capped all the same
    down = false;
    await request.loadTool({ toolName: C });
    expect(inner.get('t')).toEqual([C]);
    expect(eventsOf('evict').map((event) => event.toolNames)).toEqual([[A, B]]);
  });

  it('asks the store to remove the names past the cap least recently used first, keeping maxLoadedTools', async () => {
    const inner = createMemoryStore();
    const removes: unknown[][] = [];
    const { engine, eventsOf } = harness({
      maxLoadedTools: 3,
      storage: {
        ...forwarding(inner),
        remove: (threadId, names, options) => {
          removes.push([threadId, [...names], options]);
          return inner.remove(threadId, names, options);
        },
      },
    });
    const request = engine.startRequest({ threadId: 't' });
    await loadThreeThenCallA(request); // a, b, c loaded; a called last
    expect(await request.guard(B)).toEqual({ allowed: true });
    expect(await request.guard(A)).toEqual({ allowed: true }); // now c, then b, are the least recently used
    const output = await request.loadTool({ toolNames: [D, E] });
    expect(removes).toEqual([['t', [C, B], { keep: 3 }]]);
    expect(output).toMatchObject({ success: true, loaded: [D, E] });
    expect(eventsOf('evict').map((event) => event.toolNames)).toEqual([[B, C]]); // in load order
    expect(inner.get('t')).toEqual([A, D, E]);
  });

  it('keeps loaded, and reports nothing for, the names its remove left because another process evicted first', async () => {
    const inner = createMemoryStore();
    const { engine, eventsOf } = harness({
      maxLoadedTools: 2,
      storage: {
        ...forwarding(inner),
        remove: (threadId, names, options) => {
          // Another process, which also added c and ranks b least recently used, evicts first.
          inner.remove(threadId, [B], { keep: 2 });
          return inner.remove(threadId, names, options);
        },
      },
    });
    const request = engine.startRequest({ threadId: 't' });
    await request.loadTool({ toolNames: [A, B] });
    await request.prepareStep();
    const output = await request.loadTool({ toolName: C });
    // This engine asked for a, but the thread was at the cap already: a stays.
    expect(inner.get('t')).toEqual([A, C]);
    expect(output).toMatchObject({ success: true, loaded: [C] });
    expect(output.message).not.toContain('Unloaded');
    expect(eventsOf('evict')).toEqual([]);
    expect((await request.prepareStep()).visible).toEqual([...META, A, C]);
    expect(await request.guard(A)).toEqual({ allowed: true });
    // b went in the other process: here it is simply not loaded (and a is still known as used).
    await request.loadTool({ toolName: D });
    expect(eventsOf('evict').map((event) => event.toolNames)).toEqual([[C]]);
    expect(inner.get('t')).toEqual([A, D]);
  });

  it('works as before with a store whose remove ignores keep: every name asked goes', async () => {
    const store = plainStore(); // remove(threadId, names): no options
    const { engine, eventsOf } = harness({ maxLoadedTools: 2, storage: store });
    const request = engine.startRequest({ threadId: 't' });
    await request.loadTool({ toolNames: [A, B] });
    await request.prepareStep();
    store.names.set('t', [A, C]); // another process: c loaded, b evicted
    // This engine sees [a, c, d] and asks for a (keep 2); the store takes a away regardless.
    await request.loadTool({ toolName: D });
    expect(store.names.get('t')).toEqual([C, D]);
    expect(eventsOf('evict').map((event) => event.toolNames)).toEqual([[A]]);
    expect((await request.prepareStep()).visible).toEqual([...META, C, D]);
    const output = await request.loadTool({ toolNames: [A, B, E] });
    expect(output).toMatchObject({ success: true, loaded: [A, B, E] });
    expect(output.message).toContain(`Unloaded again at once, since at most 2 tools stay loaded: ${A}`);
    expect(store.names.get('t')).toEqual([B, E]);
  });

  it('takes a remove that answers nothing (a store written before keep) as every name asked gone, and other answers as a failed eviction', async () => {
    const run = async (answer: unknown) => {
      const inner = createMemoryStore();
      const { engine, eventsOf } = harness({
        maxLoadedTools: 1,
        storage: {
          ...forwarding(inner),
          remove: (threadId, names) => {
            inner.remove(threadId, names);
            return answer as string[];
          },
        },
      });
      const request = engine.startRequest({ threadId: 't' });
      await request.loadTool({ toolName: A });
      expect(await request.loadTool({ toolName: B })).toMatchObject({ success: true, loaded: [B] });
      expect((await request.prepareStep()).visible).toEqual([...META, B]);
      return { storeErrors: eventsOf('store-error'), evictions: eventsOf('evict') };
    };
    const quiet = await run(undefined);
    expect(quiet.storeErrors).toEqual([]);
    expect(quiet.evictions).toEqual([expect.objectContaining({ toolNames: [A] })]);
    const garbage = await run(42);
    expect(garbage.storeErrors).toEqual([
      expect.objectContaining({
        operation: 'remove',
        error: expect.objectContaining({ code: 'STORE_UNAVAILABLE' }),
      }),
    ]);
    expect(garbage.evictions).toEqual([]);
  });

  it('reads a store holding more than the cap as its most recently used names, in load order', async () => {
    const store = createMemoryStore();
    const { engine } = harness({ storage: store, maxLoadedTools: 2 });
    const request = engine.startRequest({ threadId: 't' });
    await request.loadTool({ toolNames: [A, B] });
    await request.prepareStep();
    await request.guard(A);
    store.add('t', [C]); // another process, without a cap
    expect(await engine.getLoadedToolNames('t')).toEqual([A, C]);
  });
});

// ---------------------------------------------------------------------------
// 'context' storage: recency from the records
// ---------------------------------------------------------------------------

const call = (toolCallId: string, toolName: string, input: unknown): ConversationRecord => ({
  type: 'tool-call',
  toolCallId,
  toolName,
  input,
});
const result = (toolCallId: string, toolName: string, output: unknown): ConversationRecord => ({
  type: 'tool-result',
  toolCallId,
  toolName,
  output,
});

/** A conversation as an adapter would record it, built by running the engine's own handlers. */
async function conversation(options: Options) {
  const records: ConversationRecord[] = [];
  let id = 0;
  const { engine } = harness({ storage: 'context', ...options });
  return {
    records,
    async load(toolName: string) {
      const input = { toolName };
      const output: LoadToolOutput = await engine.startRequest({ threadId: 't' }).loadTool(input);
      const callId = `c${++id}`;
      records.push(call(callId, 'load_tool', input), result(callId, 'load_tool', output));
    },
    use(toolName: string) {
      const callId = `c${++id}`;
      records.push(call(callId, toolName, {}), result(callId, toolName, { ok: true }));
    },
  };
}

describe("maxLoadedTools with 'context' storage: recency from the records", () => {
  it('evicts the tool not called since its load, keeping load order', async () => {
    const history = await conversation({ maxLoadedTools: 3 });
    await history.load(A);
    await history.load(B);
    await history.load(C);
    history.use(A);

    const { engine, eventsOf } = harness({ storage: 'context', maxLoadedTools: 3 });
    const request = engine.startRequest({ threadId: 't' });
    expect((await request.prepareStep({ records: history.records })).visible).toEqual([...META, A, B, C]);
    await request.loadTool({ toolName: D });
    expect(eventsOf('evict')).toEqual([
      expect.objectContaining({ threadId: 't', toolNames: [B], reason: 'max-loaded-tools' }),
    ]);
    // Before the framework stores the load, and after.
    expect((await request.prepareStep({ records: history.records })).visible).toEqual([...META, A, C, D]);
    await history.load(D);
    expect((await request.prepareStep({ records: history.records })).visible).toEqual([...META, A, C, D]);
    expect(await engine.getLoadedToolNames('t', history.records)).toEqual([A, C, D]);
    expect(eventsOf('evict')).toHaveLength(1);
  });

  it('is deterministic: without the call the oldest load goes, whatever the engine saw', async () => {
    const history = await conversation({ maxLoadedTools: 3 });
    for (const name of [A, B, C, D]) await history.load(name);
    const { engine } = harness({ storage: 'context', maxLoadedTools: 3 });
    expect(await engine.getLoadedToolNames('t', history.records)).toEqual([B, C, D]);
    expect(await engine.getLoadedToolNames('t', history.records)).toEqual([B, C, D]);
  });

  it('counts a call only after the load, and never for an evicted tool', async () => {
    const history = await conversation({ maxLoadedTools: 2 });
    history.use(A); // before its load: not a use of a loaded tool
    await history.load(A);
    await history.load(B);
    await history.load(C); // evicts a
    history.use(A); // denied by the guard: a call of an evicted tool does not bring it back
    const { engine } = harness({ storage: 'context', maxLoadedTools: 2 });
    expect(await engine.getLoadedToolNames('t', history.records)).toEqual([B, C]);
  });

  it('counts a load_tool result naming a loaded tool as a use', async () => {
    const history = await conversation({ maxLoadedTools: 3 });
    for (const name of [A, B, C]) await history.load(name);
    const output: LoadToolOutput = { success: true, message: '', toolName: A, alreadyLoaded: [A] };
    history.records.push(call('again', 'load_tool', { toolName: A }), result('again', 'load_tool', output));
    await history.load(D);
    const { engine } = harness({ storage: 'context', maxLoadedTools: 3 });
    expect(await engine.getLoadedToolNames('t', history.records)).toEqual([A, C, D]);
  });

  it('brings an evicted tool back when it is loaded again (at the end)', async () => {
    const history = await conversation({ maxLoadedTools: 2 });
    for (const name of [A, B, C, A]) await history.load(name);
    const { engine } = harness({ storage: 'context', maxLoadedTools: 2 });
    expect(await engine.getLoadedToolNames('t', history.records)).toEqual([C, A]);
  });

  it('within one request, counts allowed calls before the records show them', async () => {
    const { engine, eventsOf } = harness({ storage: 'context', maxLoadedTools: 3 });
    const request = engine.startRequest({ threadId: 't' });
    await loadThreeThenCallA(request);
    await request.loadTool({ toolName: D });
    expect(eventsOf('evict').map((event) => event.toolNames)).toEqual([[B]]);
    expect((await request.prepareStep()).visible).toEqual([...META, A, C, D]);
  });

  it('does not resurrect a tool loaded and evicted in this request once the records show it', async () => {
    const history = await conversation({ maxLoadedTools: 1 });
    const { engine, eventsOf } = harness({ storage: 'context', maxLoadedTools: 1 });
    const request = engine.startRequest({ threadId: 't' });
    await request.prepareStep({ records: history.records });
    await request.loadTool({ toolName: A });
    await history.load(A);
    await request.prepareStep({ records: history.records });
    await request.loadTool({ toolName: B });
    await history.load(B);
    expect(eventsOf('evict').map((event) => event.toolNames)).toEqual([[A]]);
    expect((await request.prepareStep({ records: history.records })).visible).toEqual([...META, B]);
  });
});

describe("maxLoadedTools with 'context' storage: arbitrary conversations (property)", () => {
  it('never throw, stay within the cap, and agree with getLoadedToolNames', async () => {
    const { engine } = harness({ storage: 'context', maxLoadedTools: 2 });
    const catalogNames = new Set(sampleCatalog().map((item) => item.descriptor.name));
    const names = fc.constantFrom(A, B, C, D, '__proto__', 'load_tool', 'nope');
    const step = fc.oneof(
      fc.record({
        load: fc.array(names, { minLength: 1, maxLength: 3 }),
        id: fc.constantFrom('1', '2', '3'),
      }),
      fc.record({ call: names }),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
        const records: ConversationRecord[] = [];
        for (const item of steps) {
          if (typeof item === 'object' && item !== null && 'load' in item && 'id' in item) {
            const { load, id } = item as { load: string[]; id: string };
            const output = { success: true, message: '', loaded: load };
            records.push(call(id, 'load_tool', { toolNames: load }), result(id, 'load_tool', output));
          } else if (typeof item === 'object' && item !== null && 'call' in item) {
            records.push(call('x', String((item as { call: unknown }).call), {}));
          } else {
            records.push(item as ConversationRecord);
          }
        }
        const derived = await engine.getLoadedToolNames('t', records);
        expect(derived.length).toBeLessThanOrEqual(2);
        expect(await engine.getLoadedToolNames('t', records)).toEqual(derived);
        const plan = await engine.startRequest({ threadId: 't' }).prepareStep({ records });
        expect(plan.visible.slice(2)).toEqual(derived.filter((name) => catalogNames.has(name)));
      }),
      { numRuns: 200 },
    );
  });
});

// ---------------------------------------------------------------------------
// The pure parts
// ---------------------------------------------------------------------------

describe('leastRecentlyUsed', () => {
  it('ranks names without a use before used ones, in load order, and answers in load order', () => {
    const uses = new Map([
      ['a', 5],
      ['c', 2],
    ]);
    const lastUse = (name: string) => uses.get(name);
    expect(leastRecentlyUsed(['a', 'b', 'c', 'd'], lastUse, 1)).toEqual(['b']);
    expect(leastRecentlyUsed(['a', 'b', 'c', 'd'], lastUse, 2)).toEqual(['b', 'd']);
    expect(leastRecentlyUsed(['a', 'b', 'c', 'd'], lastUse, 3)).toEqual(['b', 'c', 'd']);
    expect(leastRecentlyUsed(['a', 'b'], lastUse, 0)).toEqual([]);
    expect(capLoadedNames(['a', 'b', 'c', 'd'], lastUse, 2)).toEqual({
      kept: ['a', 'c'],
      evicted: ['b', 'd'],
      evictionOrder: ['b', 'd'],
    });
    // The order to remove them in: the least recently used first.
    expect(capLoadedNames(['a', 'b', 'c', 'd'], lastUse, 1)).toEqual({
      kept: ['a'],
      evicted: ['b', 'c', 'd'],
      evictionOrder: ['b', 'd', 'c'],
    });
    expect(capLoadedNames(['a'], lastUse, undefined)).toEqual({
      kept: ['a'],
      evicted: [],
      evictionOrder: [],
    });
  });

  it('replays any sequence within the cap, a subsequence of first loads, the last used kept (property)', () => {
    const op = fc.oneof(
      fc.record({ load: fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', '__proto__'), { maxLength: 4 }) }),
      fc.record({ use: fc.constantFrom('a', 'b', 'c', 'd', 'e', '__proto__') }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(op, { maxLength: 30 }), (max, ops) => {
        const replay = createLoadedToolsReplay({ maxLoadedTools: max });
        let lastUsed: string | undefined;
        for (const step of ops) {
          const before = [...replay.names()];
          if ('load' in step) {
            const evicted = replay.load(step.load);
            if (step.load.length > 0) lastUsed = step.load.at(-1);
            for (const name of evicted) expect(replay.has(name)).toBe(false);
            // Eviction never reorders: what stays of the old list keeps its order, new names at the end.
            const kept = before.filter((name) => replay.has(name));
            expect(replay.names().slice(0, kept.length)).toEqual(kept);
          } else if (replay.use(step.use)) {
            lastUsed = step.use;
            expect(replay.names()).toEqual(before);
          }
          expect(replay.names().length).toBeLessThanOrEqual(max);
          expect(new Set(replay.names()).size).toBe(replay.names().length);
          if (lastUsed !== undefined) expect(replay.has(lastUsed)).toBe(true);
        }
      }),
    );
  });
});
