import { describe, expect, it } from 'vitest';
import { createFakeClock } from './clock';
import { createToolSearchEngine } from './engine';
import { ToolSearchError } from './errors';
import {
  isLazyTool,
  type LazyTool,
  lazyTool,
  lazyToolEntry,
  type ResolvedTool,
  type ResolveToolArgs,
} from './lazy-tools';
import type { CatalogEntry, ToolSearchEvent } from './types';

/** The adapter's tool type of these tests: what `toTool` makes of a resolved tool. */
interface TestTool {
  readonly kind: 'stand-in' | 'resolved';
  readonly schema?: unknown;
  readonly run?: (input: unknown) => Promise<unknown>;
  readonly caller?: string;
}

type Context = { user: string };

/** A lazy tool whose resolver answers per caller: `revoked` users and `down` make it fail. */
function lazyCrm(state: { revoked: Set<string>; down: boolean; calls: ResolveToolArgs<Context>[] }) {
  return lazyTool<Context>({
    name: 'crmLookup',
    description: 'Look up a customer in the CRM.',
    tags: ['crm'],
    metadata: { server: 'crm', annotations: { readOnlyHint: true } },
    resolve: async (args) => {
      state.calls.push(args);
      if (state.down) throw new Error('connect ECONNREFUSED 127.0.0.1:9');
      const user = args.requestContext?.user ?? 'anonymous';
      if (state.revoked.has(user)) throw new Error(`401 Unauthorized for ${user}`);
      return {
        inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
        execute: async (input) => ({ user, input }),
      } satisfies ResolvedTool;
    },
  });
}

function toEntry(lazy: LazyTool<Context>): CatalogEntry<TestTool> {
  return lazyToolEntry<TestTool, Context>(lazy, {
    standIn: { kind: 'stand-in' },
    toTool: (resolved) => ({
      kind: 'resolved',
      schema: resolved.inputSchema,
      run: (input) => resolved.execute(input, {}),
    }),
  });
}

function setup(
  options: {
    resolveTimeoutMs?: number;
    filter?: Parameters<typeof createToolSearchEngine<TestTool, Context>>[0]['filter'];
  } = {},
) {
  const state = { revoked: new Set<string>(), down: false, calls: [] as ResolveToolArgs<Context>[] };
  const events: ToolSearchEvent[] = [];
  const clock = createFakeClock();
  const engine = createToolSearchEngine<TestTool, Context>({
    catalog: [
      toEntry(lazyCrm(state)),
      { descriptor: { name: 'plainTool', description: 'A plain tool.' }, tool: { kind: 'resolved' } },
    ],
    clock,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { state, events, clock, engine };
}

describe('lazily resolved tools', () => {
  it('searches without resolving, resolves on load, and shows the resolved tool for the request', async () => {
    const { state, engine, events } = setup();
    const request = engine.startRequest({ threadId: 't', requestContext: { user: 'ann' } });
    await request.prepareStep();
    const found = await request.searchTools({ query: 'customer crm' });
    expect(found.results.map((result) => result.name)).toContain('crmLookup');
    expect(state.calls).toHaveLength(0); // search read no schema
    const loaded = await request.loadTool({ toolName: 'crmLookup' });
    expect(loaded.success).toBe(true);
    expect(state.calls).toHaveLength(1);
    expect(state.calls[0]).toMatchObject({
      toolName: 'crmLookup',
      threadId: 't',
      requestContext: { user: 'ann' },
    });
    expect(state.calls[0]!.signal).toBeInstanceOf(AbortSignal);
    const plan = await request.prepareStep();
    expect(plan.visible).toContain('crmLookup');
    const tool = plan.loaded.find((entry) => entry.descriptor.name === 'crmLookup')!;
    expect(tool.tool.kind).toBe('resolved');
    expect(tool.tool.schema).toEqual({ type: 'object', properties: { id: { type: 'string' } } });
    expect(await request.resolve('crmLookup')!.tool.run!({ id: '1' })).toEqual({
      user: 'ann',
      input: { id: '1' },
    });
    // Resolved once for the request: the load and the steps share it.
    expect(state.calls).toHaveLength(1);
    expect(events.some((event) => event.type === 'resolve-error')).toBe(false);
  });

  it('never shares a resolution between requests: each caller gets its own', async () => {
    const { state, engine } = setup();
    const first = engine.startRequest({ threadId: 't', requestContext: { user: 'ann' } });
    await first.loadTool({ toolName: 'crmLookup' });
    await first.prepareStep();
    const second = engine.startRequest({ threadId: 't', requestContext: { user: 'bob' } });
    await second.prepareStep();
    expect(state.calls.map((call) => call.requestContext?.user)).toEqual(['ann', 'bob']);
    expect(await second.resolve('crmLookup')!.tool.run!({})).toMatchObject({ user: 'bob' });
    expect(await first.resolve('crmLookup')!.tool.run!({})).toMatchObject({ user: 'ann' });
  });

  it('does not load a tool whose resolve fails, and tells the model why', async () => {
    const { state, engine, events } = setup();
    state.revoked.add('ann');
    const request = engine.startRequest({ threadId: 't', requestContext: { user: 'ann' } });
    const answer = await request.loadTool({ toolName: 'crmLookup' });
    expect(answer.success).toBe(false);
    expect(answer.unavailable).toEqual(['crmLookup']);
    expect(answer.message).toContain('401 Unauthorized for ann');
    expect(await engine.getLoadedToolNames('t')).toEqual([]);
    const error = events.find((event) => event.type === 'resolve-error');
    expect(error).toMatchObject({ toolName: 'crmLookup', phase: 'load' });
    expect(ToolSearchError.isInstance((error as { error: unknown }).error)).toBe(true);
    expect((error as { error: ToolSearchError }).error.code).toBe('RESOLVE_FAILED');

    const many = await request.loadTool({ toolNames: ['crmLookup', 'plainTool'] });
    expect(many).toMatchObject({ success: false, loaded: ['plainTool'], unavailable: ['crmLookup'] });
    expect(many.message).toContain('Not available right now');
  });

  it('withholds a loaded tool from the next request once its resolve fails (access revoked)', async () => {
    const { state, engine, events } = setup();
    const first = engine.startRequest({ threadId: 't', requestContext: { user: 'ann' } });
    await first.loadTool({ toolName: 'crmLookup' });
    expect((await first.prepareStep()).visible).toContain('crmLookup');
    state.revoked.add('ann');
    const second = engine.startRequest({ threadId: 't', requestContext: { user: 'ann' } });
    const plan = await second.prepareStep();
    expect(plan.visible).not.toContain('crmLookup');
    expect(second.resolve('crmLookup')).toBeUndefined();
    expect((await second.guard('crmLookup')).allowed).toBe(false);
    expect(events.filter((event) => event.type === 'resolve-error')).toMatchObject([{ phase: 'active' }]);
    // Withheld, not forgotten: access restored, it is back.
    state.revoked.clear();
    const third = engine.startRequest({ threadId: 't', requestContext: { user: 'ann' } });
    expect((await third.prepareStep()).visible).toContain('crmLookup');
  });

  it('bounds a resolve by resolveTimeoutMs and aborts its signal', async () => {
    let seen: AbortSignal | undefined;
    const clock = createFakeClock();
    const hanging = lazyTool<Context>({
      name: 'slowTool',
      resolve: ({ signal }) => {
        seen = signal;
        return new Promise<ResolvedTool>(() => {});
      },
    });
    const engine = createToolSearchEngine<TestTool, Context>({
      catalog: [toEntry(hanging)],
      clock,
      resolveTimeoutMs: 500,
    });
    const request = engine.startRequest({ threadId: 't' });
    const answer = request.loadTool({ toolName: 'slowTool' });
    await clock.advanceAsync(500);
    const settled = await answer;
    expect(settled.success).toBe(false);
    expect(settled.message).toContain('not resolved within 500 ms');
    expect(seen?.aborted).toBe(true);
  });

  it('gives the filter the entry metadata, and resolves nothing the filter refuses', async () => {
    const { state, engine } = setup({
      filter: ({ metadata }) =>
        (metadata?.annotations as { readOnlyHint?: boolean } | undefined)?.readOnlyHint !== true,
    });
    const request = engine.startRequest({ threadId: 't' });
    const answer = await request.loadTool({ toolName: 'crmLookup' });
    expect(answer.success).toBe(false);
    expect(answer.unavailable).toBeUndefined();
    expect(state.calls).toHaveLength(0);
  });

  it('marks lazy tools so adapters can tell them from framework tools', () => {
    const state = { revoked: new Set<string>(), down: false, calls: [] };
    expect(isLazyTool(lazyCrm(state))).toBe(true);
    expect(isLazyTool({ name: 'x', resolve: () => ({}) })).toBe(false);
    expect(() =>
      lazyTool({ name: '', resolve: async () => ({ inputSchema: {}, execute: async () => 1 }) }),
    ).toThrow(ToolSearchError);
  });
});
