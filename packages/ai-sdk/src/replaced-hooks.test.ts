import type { ToolSearchEvent } from '@tool-search/core';
import { generateText, isStepCount, streamText, ToolLoopAgent } from 'ai';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { createCatalog } from './__fixtures__/catalog';
import { scriptedModel, toolResultsIn } from './__fixtures__/scripted-model';
import { composePrepareStep } from './compose-prepare-step';
import { createToolSearch } from './create-tool-search';

const META = ['search_tools', 'load_tool'];

/** Load getWeather, then call it twice (as a model told "call it again now" would), then answer. */
const loadThenCall = [
  { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
  { toolCalls: [{ toolName: 'getWeather', input: { city: 'Rome' } }] },
  { toolCalls: [{ toolName: 'getWeather', input: { city: 'Rome' } }] },
  { text: 'done' },
];

/** What the model was told in a call: each tool result's text (a message, or an error). */
function toldInCall(seen: ReturnType<typeof scriptedModel>['seen']): string[] {
  return toolResultsIn(seen.at(-1)!.prompt).map((result) =>
    typeof result.value === 'string' ? result.value : (result.value as { message: string }).message,
  );
}

function withEvents() {
  const { tools, ran } = createCatalog();
  const events: ToolSearchEvent[] = [];
  const toolSearch = createToolSearch({ tools, onEvent: (event) => events.push(event) });
  const replaced = () => events.filter((event) => event.type === 'hook-replaced');
  return { toolSearch, ran, events, replaced };
}

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  warn.mockRestore();
});

describe('a prepareStep written after ...forCall(), which replaces ours', () => {
  it('generateText: the model is never told a loaded tool is callable, nor to call it again', async () => {
    const { toolSearch, ran, replaced } = withEvents();
    const { model, seen, toolsPerStep } = scriptedModel(loadThenCall);
    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'mine' }),
      prepareStep: () => ({ temperature: 0 }),
      stopWhen: isStepCount(6),
      prompt: 'weather in Rome',
    });

    expect(result.text).toBe('done');
    expect(toolsPerStep()).toEqual([META, META, META, META]);
    expect(ran).toEqual([]);
    const [loaded, ...refusals] = toldInCall(seen);
    expect(loaded).toBe(
      'Tool "getWeather" loaded successfully. You can call it from your next step if offered: this app chooses your tools itself, not tool search, so a loaded tool may never be offered (then do not load it again).',
    );
    expect(refusals).toHaveLength(2);
    for (const refusal of refusals) {
      expect(refusal).toMatch(/Tool "getWeather" is loaded, but it was not offered to you in this step/);
      expect(refusal).not.toMatch(/just loaded|again now/);
    }
    expect(replaced()).toMatchObject([{ hook: 'step-preparation', threadId: 'mine' }]);
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]![0]).toMatch(
      /prepareStep given next to \.\.\.toolSearch\.forCall\(\) replaced tool search's.*forCall\(\{ prepareStep \}\).*composePrepareStep\(call\.prepareStep, yours\)/,
    );
  });

  it('streamText: the same, and the warning comes once per tool search while each call reports an event', async () => {
    const { toolSearch, replaced } = withEvents();
    const first = scriptedModel(loadThenCall);
    await generateText({
      model: first.model,
      ...toolSearch.forCall({ threadId: 'one' }),
      prepareStep: () => undefined,
      stopWhen: isStepCount(6),
      prompt: 'weather',
    });
    const streamed = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'send_email' } }] },
      { toolCalls: [{ toolName: 'send_email', input: { to: ['bob'], subject: 's', body: 'b' } }] },
      { text: 'done' },
    ]);
    const result = streamText({
      model: streamed.model,
      ...toolSearch.forCall({ threadId: 'two' }),
      prepareStep: () => undefined,
      stopWhen: isStepCount(6),
      prompt: 'email bob',
    });
    expect(await result.text).toBe('done');

    const [loaded, refusal] = toldInCall(streamed.seen);
    expect(loaded).toMatch(
      /^Tool "send_email" loaded successfully\. You can call it from your next step if offered/,
    );
    expect(refusal).toMatch(/Tool "send_email" is loaded, but it was not offered to you in this step/);
    expect(replaced().map((event) => event.threadId)).toEqual(['one', 'two']);
    expect(warn).toHaveBeenCalledOnce();
  });

  it('a loaded tool the replacing prepareStep makes active runs: the guard sees each step’s loads', async () => {
    const { toolSearch, ran } = withEvents();
    const { model, seen } = scriptedModel(loadThenCall.slice(0, 2).concat({ text: 'done' }));
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'own-activation' }),
      // An app that activates loaded tools by itself (a thread's loads, read before the call).
      prepareStep: ({ stepNumber }) => ({
        activeTools:
          stepNumber === 0 ? ['search_tools', 'load_tool'] : ['search_tools', 'load_tool', 'getWeather'],
      }),
      stopWhen: isStepCount(6),
      prompt: 'weather',
    });
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Rome' } }]);
    expect(toolResultsIn(seen.at(-1)!.prompt).at(-1)).toMatchObject({ toolName: 'getWeather', type: 'json' });
  });

  it("with the thread and the filter's context in runtimeContext, which only our prepareStep gets, says so", async () => {
    const { tools, ran } = createCatalog();
    const toolSearch = createToolSearch({
      tools,
      filter: ({ requestContext }) => (requestContext as { role?: string } | undefined)?.role === 'admin',
    });
    const { model, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
      { text: 'done' },
    ]);
    await generateText({
      model,
      ...toolSearch.forCall(),
      runtimeContext: { threadId: 'alice', role: 'admin' },
      prepareStep: () => undefined,
      stopWhen: isStepCount(4),
      prompt: 'weather',
    });
    expect(toolResultsIn(seen.at(-1)!.prompt).at(-1)!.value).toMatch(
      /^ToolSearchError: Tool "load_tool" was not run: the app's prepareStep replaced tool search's, which alone is handed the call's runtimeContext.*Give the prepareStep to forCall/,
    );
    expect(await toolSearch.getLoadedToolNames('default')).toEqual([]);
    expect(ran).toEqual([]);
  });

  it("ToolLoopAgent: the agent's prepareStep written after forCall() in prepareCall replaces ours, and is reported", async () => {
    const { toolSearch, replaced } = withEvents();
    const scripted = scriptedModel(loadThenCall);
    const agent = new ToolLoopAgent({
      model: scripted.model,
      tools: toolSearch.tools,
      prepareStep: () => ({ temperature: 0 }),
      // Kept, but next to the spread instead of given to forCall: it replaces ours.
      prepareCall: ({ prepareStep, ...settings }) => ({
        ...settings,
        ...toolSearch.forCall({ threadId: 'agent' }),
        prepareStep,
      }),
      stopWhen: isStepCount(6),
    });
    await agent.generate({ prompt: 'weather' });
    expect(scripted.toolsPerStep()).toEqual([META, META, META, META]);
    expect(toldInCall(scripted.seen).slice(1)).toEqual([
      expect.stringMatching(/is loaded, but it was not offered to you/),
      expect.stringMatching(/is loaded, but it was not offered to you/),
    ]);
    expect(replaced()).toMatchObject([{ hook: 'step-preparation', threadId: 'agent' }]);
    expect(warn).toHaveBeenCalledOnce();
  });

  it('given to forCall or combined with composePrepareStep, it is no replacement: nothing is reported', async () => {
    const { toolSearch, ran, replaced } = withEvents();
    const mine = () => ({ temperature: 0 });
    for (const settings of [
      () => toolSearch.forCall({ threadId: 'given', prepareStep: mine }),
      () => {
        const call = toolSearch.forCall({ threadId: 'composed' });
        return { ...call, prepareStep: composePrepareStep(call.prepareStep, mine) };
      },
    ]) {
      const { model, toolsPerStep } = scriptedModel(loadThenCall.slice(0, 2).concat({ text: 'done' }));
      await generateText({ model, ...settings(), stopWhen: isStepCount(6), prompt: 'weather' });
      expect(toolsPerStep()).toEqual([META, [...META, 'getWeather'], [...META, 'getWeather']]);
    }
    expect(ran).toHaveLength(2);
    expect(replaced()).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('a repairToolCall written after ...forCall(), which replaces ours', () => {
  it('is reported once per tool search, from the step after a refused call it answered', async () => {
    const { toolSearch, replaced } = withEvents();
    const script = [
      { toolCalls: [{ toolName: 'send_email', input: { to: ['x'], subject: 's', body: 'b' } }] },
      { text: 'ok' },
    ];
    for (const threadId of ['one', 'two']) {
      const { model, seen } = scriptedModel(script);
      await generateText({
        model,
        ...toolSearch.forCall({ threadId }),
        repairToolCall: async () => null,
        stopWhen: isStepCount(4),
        prompt: 'email',
      });
      // The SDK's own error: true, if less helpful than the guard's.
      expect(toolResultsIn(seen[1]!.prompt).at(-1)!.value).toMatch(/unavailable tool 'send_email'/);
    }
    expect(replaced()).toMatchObject([
      { hook: 'call-repair', threadId: 'one' },
      { hook: 'call-repair', threadId: 'two' },
    ]);
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]![0]).toMatch(
      /repairToolCall given next to \.\.\.toolSearch\.forCall\(\) replaced tool search's.*forCall\(\{ repairToolCall \}\)/,
    );
  });

  it('given to forCall, it is combined with ours: nothing is reported', async () => {
    const { toolSearch, replaced } = withEvents();
    const { model, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'send_email', input: { to: ['x'], subject: 's', body: 'b' } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'given', repairToolCall: async () => null }),
      stopWhen: isStepCount(4),
      prompt: 'email',
    });
    expect(toolResultsIn(seen[1]!.prompt).at(-1)!.value).toMatch(/not loaded.*search_tools.*load_tool/);
    expect(replaced()).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });
});
