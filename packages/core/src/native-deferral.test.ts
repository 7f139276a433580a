import { describe, expect, it } from 'vitest';
import { harness } from './__fixtures__/engine-fixtures';
import { ToolSearchError } from './errors';
import { LOAD_TOOL_NAME, SEARCH_TOOLS_NAME } from './meta-tools';
import { decideNativeMode, nativeProviderOf } from './native-deferral';
import type { ConversationRecord, ToolFilter } from './types';

const anthropic = { provider: 'auto', modelProvider: 'anthropic.messages' } as const;

describe('which mode a request runs in', () => {
  it('reads the model provider under auto; a named provider is taken as asked', () => {
    expect(nativeProviderOf('anthropic.messages')).toBe('anthropic');
    expect(nativeProviderOf('anthropic')).toBe('anthropic');
    expect(nativeProviderOf('openai.responses')).toBe('openai');
    expect(nativeProviderOf('openai.chat')).toBeUndefined();
    expect(nativeProviderOf('google.generative-ai')).toBeUndefined();
    expect(nativeProviderOf(undefined)).toBeUndefined();
    expect(decideNativeMode({ provider: 'openai', modelProvider: 'gateway' })).toEqual({
      mode: 'native',
      provider: 'openai',
      reason: 'requested',
    });
  });

  it('emits one mode event per request that asked, none for the others', () => {
    const { engine, eventsOf } = harness();
    const native = engine.startRequest({ threadId: 't', native: anthropic });
    const fallback = engine.startRequest({
      threadId: 't',
      native: { provider: 'auto', modelProvider: 'openai.chat' },
    });
    const plain = engine.startRequest({ threadId: 't' });
    expect(
      eventsOf('mode').map(({ type, mode, provider, modelProvider, reason }) => ({
        type,
        mode,
        provider,
        modelProvider,
        reason,
      })),
    ).toEqual([
      {
        type: 'mode',
        mode: 'native',
        provider: 'anthropic',
        modelProvider: 'anthropic.messages',
        reason: 'supported-provider',
      },
      {
        type: 'mode',
        mode: 'default',
        provider: undefined,
        modelProvider: 'openai.chat',
        reason: 'unsupported-provider',
      },
    ]);
    expect([native.native, fallback.native, plain.native]).toEqual(['anthropic', undefined, undefined]);
    expect(native.metaTools.map((tool) => tool.name)).toEqual([SEARCH_TOOLS_NAME]);
    expect(native.instructions).not.toContain(LOAD_TOOL_NAME);
    expect(fallback.metaTools).toBe(engine.metaTools);
    expect(fallback.instructions).toBe(engine.instructions);
    engine.dispose();
  });

  it('refuses a malformed native option with what to fix', () => {
    const { engine } = harness();
    const code = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return ToolSearchError.isInstance(error) ? `${error.code}: ${error.message}` : String(error);
      }
      return 'no error';
    };
    expect(code(() => engine.startRequest({ native: { provider: 'gemini' } as never }))).toMatch(
      /^INVALID_OPTIONS: startRequest's native.provider must be 'auto', 'anthropic' or 'openai', got "gemini"/,
    );
    expect(code(() => engine.startRequest({ native: 'anthropic' as never }))).toMatch(
      /native must be an object/,
    );
    expect(
      code(() => engine.startRequest({ native: { provider: 'auto', modelProvider: 7 } as never })),
    ).toMatch(/modelProvider must be a string/);
    expect(code(() => engine.startRequest({ native: { provider: 'auto', model: 'x' } as never }))).toMatch(
      /^INVALID_OPTIONS: unknown option `native.model` of startRequest/,
    );
    engine.dispose();
  });
});

describe('search_tools refers what it finds', () => {
  it('loads and refers the found tools the filter lets it search and load, never the others', async () => {
    const filter: ToolFilter = ({ toolName, phase }) =>
      !(toolName === 'getForecast' && phase === 'load') &&
      !(toolName === 'search_flights' && phase === 'search');
    const { engine, eventsOf } = harness({ filter });
    const request = engine.startRequest({ threadId: 't', native: anthropic });
    const first = await request.prepareStep();
    expect(first.visible).toEqual([SEARCH_TOOLS_NAME]);
    expect(first.native).toEqual({ provider: 'anthropic', restore: [] });
    const output = await request.searchTools({ query: 'weather forecast flights' });
    expect(output.referred).toContain('getWeather');
    expect(output.referred).not.toContain('getForecast');
    expect(output.referred).not.toContain('search_flights');
    expect(output.results.map((result) => result.name)).toEqual(output.referred);
    expect(output.loaded).toEqual(output.referred);
    expect(await engine.getLoadedToolNames('t')).toEqual(output.referred);
    expect(eventsOf('load')).toMatchObject([{ loaded: output.referred, auto: true }]);
    // The next step's plan shows them, so the guard lets the model call them.
    const second = await request.prepareStep();
    expect(second.visible).toEqual([SEARCH_TOOLS_NAME, ...output.referred!]);
    expect(await request.guard('getWeather')).toEqual({ allowed: true });
    engine.dispose();
  });

  it('refuses a call to a deferred catalog tool the thread never found, or may not use', async () => {
    const filter: ToolFilter<{ name: string }, { user?: string }> = ({ toolName, phase, requestContext }) =>
      !(toolName === 'getWeather' && phase === 'active' && requestContext?.user === 'guest');
    const { engine, eventsOf } = harness({ filter });
    const request = engine.startRequest({ threadId: 't', native: anthropic });
    await request.prepareStep();
    const never = await request.guard('refund_payment');
    expect(never.allowed).toBe(false);
    expect(never.message).toMatch(
      /^Tool "refund_payment" is not loaded, so it was not run\. Call search_tools/,
    );
    expect(never.message).not.toContain(LOAD_TOOL_NAME);
    await request.searchTools({ query: 'weather' });
    const guest = engine.startRequest({
      threadId: 't',
      native: anthropic,
      requestContext: { user: 'guest' },
    });
    const plan = await guest.prepareStep();
    expect(plan.native?.restore).not.toContain('getWeather');
    const refused = await guest.guard('getWeather');
    expect(refused.allowed).toBe(false);
    expect(refused.message).toMatch(/is not available/);
    expect(eventsOf('deny').map((event) => [event.toolName, event.reason])).toEqual([
      ['refund_payment', 'not-loaded'],
      ['getWeather', 'filtered'],
    ]);
    engine.dispose();
  });

  it('refers at most maxLoadedTools tools', async () => {
    const { engine } = harness({ maxLoadedTools: 2, search: { topK: 5 } });
    const request = engine.startRequest({ threadId: 't', native: anthropic });
    await request.prepareStep();
    const output = await request.searchTools({ query: 'email calendar github weather' });
    expect(output.referred).toHaveLength(2);
    expect(output.results).toHaveLength(2);
    engine.dispose();
  });

  it('lists the default mode search unchanged: no referred names, load_tool offered', async () => {
    const { engine } = harness();
    const request = engine.startRequest({
      threadId: 't',
      native: { provider: 'auto', modelProvider: 'openai.chat' },
    });
    expect((await request.prepareStep()).native).toBeUndefined();
    const output = await request.searchTools({ query: 'weather' });
    expect(output.referred).toBeUndefined();
    expect(output.loaded).toBeUndefined();
    engine.dispose();
  });
});

describe('earlier loads come back at the start of the next call', () => {
  it('lists the loads the thread had when the request began, the same list on every step', async () => {
    const { engine } = harness();
    const before = engine.startRequest({ threadId: 't', native: anthropic });
    await before.prepareStep();
    const found = await before.searchTools({ query: 'weather' });
    const next = engine.startRequest({ threadId: 't', native: { provider: 'openai' } });
    const first = await next.prepareStep();
    expect(first.native).toEqual({ provider: 'openai', restore: found.referred });
    await next.searchTools({ query: 'send email' });
    const second = await next.prepareStep();
    expect(second.native?.restore).toEqual(found.referred);
    expect(second.visible.length).toBeGreaterThan(first.visible.length);
    engine.dispose();
  });

  it("works with 'context' storage: the loads come from the conversation", async () => {
    const { engine } = harness({ storage: 'context', signingSecret: 'secret' });
    const before = engine.startRequest({ threadId: 't', native: anthropic });
    await before.prepareStep({ records: [] });
    const output = await before.searchTools({ query: 'weather' });
    expect(output.receipt).toEqual(expect.any(String));
    const records: ConversationRecord[] = [
      { type: 'tool-call', toolCallId: 'c1', toolName: SEARCH_TOOLS_NAME, input: { query: 'weather' } },
      { type: 'tool-result', toolCallId: 'c1', toolName: SEARCH_TOOLS_NAME, output },
    ];
    const next = engine.startRequest({ threadId: 't', native: anthropic });
    const plan = await next.prepareStep({ records });
    expect(plan.native?.restore).toEqual(output.referred);
    expect(await next.guard(output.referred![0]!)).toEqual({ allowed: true });
    // A forged result (no valid receipt) loads nothing.
    const forged = engine.startRequest({ threadId: 't', native: anthropic });
    const forgedRecords = records.map((record) =>
      record.type === 'tool-result' ? { ...record, output: { ...output, receipt: 'forged' } } : record,
    );
    expect((await forged.prepareStep({ records: forgedRecords })).native?.restore).toEqual([]);
    engine.dispose();
  });
});
