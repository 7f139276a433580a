// Learning from use through the AI SDK: a catalog tool's successful call, as generateText and
// streamText run it, records the query of the search that found it, and later searches rank
// with it. A call that throws, is refused, is aborted or is a meta-tool's records nothing.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { lazyTool, type ToolSearchEvent, type ToolSearchRequest } from '@tool-search/core';
import {
  type FakeProviderServer,
  type FakeReply,
  startFakeProviderServer,
} from '@tool-search/fake-providers';
import { generateText, isStepCount, streamText, type Tool, tool } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createCatalog } from './__fixtures__/catalog';
import { scriptedModel, type Turn, toolResultsIn } from './__fixtures__/scripted-model';
import { createToolSearch } from './create-tool-search';
// From the adapter, as a user imports it.
import { createLearning } from './index';

/** Finds getWeather (and getForecast) by "weather"; no tool's text has "umbrella" or "Paris". */
const QUERY = 'weather: do I need an umbrella in Paris';
/** A later request sharing the recorded words, none of them in any tool's text. */
const PARAPHRASE = 'umbrella needed in Paris?';

const search = (query: string): Turn => ({ toolCalls: [{ toolName: 'search_tools', input: { query } }] });
const load = (toolName: string): Turn => ({ toolCalls: [{ toolName: 'load_tool', input: { toolName } }] });
const call = (toolName: string, input: unknown = {}): Turn => ({ toolCalls: [{ toolName, input }] });
/** The model searches with QUERY, loads getWeather and calls it. */
const SEARCH_LOAD_CALL: readonly Turn[] = [
  search(QUERY),
  load('getWeather'),
  call('getWeather', { city: 'Paris' }),
];

/** A tool search with learning, its evidence events, and the names each request told of a call's success. */
function learningSearch(
  tools: Record<string, Tool> = createCatalog().tools,
  more: { alwaysOn?: Record<string, Tool>; native?: 'auto'; failToTell?: boolean; learns?: boolean } = {},
) {
  const { failToTell, learns = true, ...options } = more;
  const events: ToolSearchEvent[] = [];
  const learning = createLearning();
  const toolSearch = createToolSearch({
    tools,
    ...options,
    ...(learns ? { learning } : {}),
    onEvent: (event) => events.push(event),
  });
  // Every name the adapter reports as a successful call, as the engine's requests are told of it.
  const told: string[] = [];
  const startRequest = toolSearch.engine.startRequest.bind(toolSearch.engine);
  vi.spyOn(toolSearch.engine, 'startRequest').mockImplementation((options) => {
    const request = startRequest(options) as ToolSearchRequest<Tool>;
    const succeeded = request.toolCallSucceeded.bind(request);
    return Object.assign(request, {
      toolCallSucceeded: (name: string) => {
        told.push(name);
        if (failToTell) throw new Error('learning broke');
        return succeeded(name);
      },
    });
  });
  const evidence = () => events.filter((event) => event.type === 'evidence');
  const recorded = () => evidence().filter((event) => event.recorded);
  return { toolSearch, learning, events, evidence, recorded, told };
}

/** A tool search over any catalog, and its settings for one call of a thread. */
type AnyToolSearch = { forCall(options: { threadId: string }): object };
const settingsFor = (toolSearch: AnyToolSearch, threadId: string) =>
  toolSearch.forCall({ threadId }) as ReturnType<ReturnType<typeof createToolSearch>['forCall']>;

/** The names a search_tools call of this (other) thread answers, by a one-search conversation. */
async function searchedNames(toolSearch: AnyToolSearch, threadId: string, query: string) {
  const { model, seen } = scriptedModel([search(query), { text: 'ok' }]);
  await generateText({
    model,
    ...settingsFor(toolSearch, threadId),
    stopWhen: isStepCount(3),
    prompt: query,
  });
  const answer = toolResultsIn(seen[1]!.prompt).at(-1)!.value as { results: Array<{ name: string }> };
  return answer.results.map((result) => result.name);
}

describe('learning from use (AI SDK)', () => {
  it('without learning, hands each result to the SDK as the tool returned it, and tells nothing', async () => {
    const { toolSearch, told } = learningSearch(createCatalog().tools, { learns: false });
    const { model } = scriptedModel([...SEARCH_LOAD_CALL, { text: 'Take one.' }]);
    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'ann' }),
      stopWhen: isStepCount(6),
      prompt: 'Umbrella?',
    });
    expect(result.text).toBe('Take one.');
    expect(told).toEqual([]);
  });

  it('records a call in a later generateText call of the thread, with the earlier call’s search', async () => {
    const { toolSearch, recorded } = learningSearch();
    // The first call searches and loads; the thread's next call (the next turn) runs the tool.
    const first = scriptedModel([search(QUERY), load('getWeather'), { text: 'Loaded.' }]);
    await generateText({
      model: first.model,
      ...toolSearch.forCall({ threadId: 'ann' }),
      stopWhen: isStepCount(5),
      prompt: 'Do I need an umbrella in Paris?',
    });
    expect(recorded()).toEqual([]);
    const turn = async (threadId: string) => {
      const next = scriptedModel([call('getWeather', { city: 'Paris' }), { text: 'Take one.' }]);
      await generateText({
        model: next.model,
        ...toolSearch.forCall({ threadId }),
        stopWhen: isStepCount(4),
        prompt: 'And now?',
      });
    };
    await turn('ann');
    expect(recorded()).toEqual([
      expect.objectContaining({ threadId: 'ann', toolName: 'getWeather', query: QUERY, source: 'call' }),
    ]);
    // The same search counts once for the tool: a further call records nothing more.
    await turn('ann');
    expect(recorded()).toHaveLength(1);
  });

  it.each(['generateText', 'streamText'] as const)(
    'records the search query of a found, loaded tool whose call succeeded, and a later request ranks it first (%s)',
    async (how) => {
      const { toolSearch, evidence, told } = learningSearch();
      const without = createToolSearch({ tools: createCatalog().tools });
      const before = await searchedNames(without, 'bob', PARAPHRASE);
      expect(before[0]).not.toBe('getWeather');

      const { model } = scriptedModel([...SEARCH_LOAD_CALL, { text: 'Take one.' }]);
      const settings = {
        model,
        ...toolSearch.forCall({ threadId: 'ann' }),
        stopWhen: isStepCount(6),
        prompt: 'Do I need an umbrella in Paris?',
      };
      const text =
        how === 'generateText' ? (await generateText(settings)).text : await streamText(settings).text;
      expect(text).toBe('Take one.');
      expect(told).toEqual(['getWeather']);
      expect(evidence()).toEqual([
        expect.objectContaining({
          type: 'evidence',
          threadId: 'ann',
          toolName: 'getWeather',
          query: QUERY,
          source: 'call',
          recorded: true,
        }),
      ]);

      const after = await searchedNames(toolSearch, 'bob', PARAPHRASE);
      expect(after[0]).toBe('getWeather');
    },
  );

  it('records once per request for a tool called twice, and never for a meta-tool or an always-on tool', async () => {
    const { tools, getTime } = createCatalog();
    const { toolSearch, recorded, told } = learningSearch(tools, { alwaysOn: { getTime } });
    const { model } = scriptedModel([
      ...SEARCH_LOAD_CALL,
      call('getTime'),
      call('getWeather', { city: 'Lyon' }),
      { text: 'ok' },
    ]);
    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'twice' }),
      stopWhen: isStepCount(8),
      prompt: 'x',
    });
    expect(result.steps.flatMap((step) => step.toolResults).map((part) => part.toolName)).toEqual([
      'search_tools',
      'load_tool',
      'getWeather',
      'getTime',
      'getWeather',
    ]);
    // The meta-tools and the always-on tool are never reported; the core records the first call only.
    expect(told).toEqual(['getWeather', 'getWeather']);
    expect(recorded().map((event) => event.toolName)).toEqual(['getWeather']);
  });

  it('records nothing for a call that throws, and the SDK reports the tool error as without learning', async () => {
    const thrown = new Error('weather service down');
    const tools = {
      getWeather: tool({
        description: 'Get the current weather for a city.',
        inputSchema: z.object({ city: z.string() }),
        execute: async (): Promise<{ conditions: string }> => {
          throw thrown;
        },
      }),
    };
    const run = async (toolSearch: AnyToolSearch) => {
      const { model, seen } = scriptedModel([...SEARCH_LOAD_CALL, { text: 'sorry' }]);
      const result = await generateText({
        model,
        ...settingsFor(toolSearch, 'ann'),
        stopWhen: isStepCount(6),
        prompt: 'x',
      });
      const error = result.steps[2]!.content.find((part) => part.type === 'tool-error');
      return { error, answer: toolResultsIn(seen[3]!.prompt).at(-1) };
    };
    const { toolSearch, evidence, told } = learningSearch(tools);
    const withLearning = await run(toolSearch);
    const withoutLearning = await run(createToolSearch({ tools }));
    expect(withLearning.error).toMatchObject({ type: 'tool-error', toolName: 'getWeather' });
    expect((withLearning.error as { error: unknown }).error).toBe(thrown);
    expect(withLearning.answer).toEqual(withoutLearning.answer);
    expect(told).toEqual([]);
    expect(evidence()).toEqual([]);
  });

  it('records nothing for a call the guard refuses, and records once the tool is loaded (app prepareStep)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { tools, ran } = createCatalog();
    const { toolSearch, recorded, told } = learningSearch(tools);
    const { model, seen } = scriptedModel([
      search(QUERY),
      call('getWeather', { city: 'Paris' }),
      load('getWeather'),
      call('getWeather', { city: 'Paris' }),
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'widened' }),
      // Not composed: it replaces ours and makes getWeather active before it is loaded.
      prepareStep: () => ({ activeTools: ['search_tools', 'load_tool', 'getWeather'] }),
      stopWhen: isStepCount(6),
      prompt: 'x',
    });
    expect(toolResultsIn(seen[2]!.prompt).at(-1)!.value).toMatch(/not loaded/);
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Paris' } }]);
    expect(told).toEqual(['getWeather']);
    expect(recorded()).toEqual([expect.objectContaining({ toolName: 'getWeather', query: QUERY })]);
    warn.mockRestore();
  });

  it('records nothing for a call of a found tool that is not loaded (the SDK refuses it as inactive)', async () => {
    const { toolSearch, evidence, told } = learningSearch();
    const { model } = scriptedModel([search(QUERY), call('getWeather', { city: 'Paris' }), { text: 'ok' }]);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'g' }),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    expect(told).toEqual([]);
    expect(evidence()).toEqual([]);
  });

  it('records nothing for a call whose abort signal fired before it returned', async () => {
    const controller = new AbortController();
    const tools = {
      getWeather: tool({
        description: 'Get the current weather for a city.',
        inputSchema: z.object({ city: z.string() }),
        // The user stops the call while the tool runs; the tool returns anyway.
        execute: async () => {
          controller.abort();
          return { conditions: 'rain' };
        },
      }),
    };
    const { toolSearch, evidence } = learningSearch(tools);
    const { model } = scriptedModel([...SEARCH_LOAD_CALL, { text: 'ok' }]);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'stopped' }),
      abortSignal: controller.signal,
      stopWhen: isStepCount(6),
      prompt: 'x',
    }).catch(() => {});
    expect(evidence()).toEqual([]);
  });

  describe('a streaming tool (execute returns an async iterable), streamText', () => {
    /** Runs search, load and a call of a streaming getWeather; `during` counts the uses recorded mid-stream. */
    const run = async (fail: boolean) => {
      const during: number[] = [];
      const tools = {
        getWeather: tool({
          description: 'Get the current weather for a city, hour by hour.',
          inputSchema: z.object({ city: z.string() }),
          async *execute() {
            yield { hour: 1, conditions: 'rain' };
            during.push(setup.recorded().length);
            if (fail) throw new Error('feed lost');
            yield { hour: 2, conditions: 'sun' };
            during.push(setup.recorded().length);
          },
        }),
      };
      const setup = learningSearch(tools);
      const { model } = scriptedModel([...SEARCH_LOAD_CALL, { text: 'ok' }]);
      const result = streamText({
        model,
        ...setup.toolSearch.forCall({ threadId: 'stream' }),
        stopWhen: isStepCount(6),
        prompt: 'x',
      });
      const parts: Array<{ type: string; preliminary?: boolean }> = [];
      for await (const part of result.fullStream) {
        if ((part.type === 'tool-result' || part.type === 'tool-error') && part.toolName === 'getWeather') {
          parts.push({
            type: part.type,
            ...(part.type === 'tool-result' ? { preliminary: part.preliminary } : {}),
          });
        }
      }
      return { ...setup, parts, during };
    };

    it('records once the stream ends, its preliminary results passed through', async () => {
      const { parts, recorded, during } = await run(false);
      expect(parts).toEqual([
        { type: 'tool-result', preliminary: true },
        { type: 'tool-result', preliminary: true },
        { type: 'tool-result', preliminary: undefined },
      ]);
      expect(during).toEqual([0, 0]);
      expect(recorded()).toEqual([expect.objectContaining({ toolName: 'getWeather', query: QUERY })]);
    });

    it('records nothing for a stream that fails', async () => {
      const { parts, evidence, told } = await run(true);
      expect(parts).toEqual([{ type: 'tool-result', preliminary: true }, { type: 'tool-error' }]);
      expect(told).toEqual([]);
      expect(evidence()).toEqual([]);
    });
  });

  it('a failure to record leaves the tool result and the conversation as they are', async () => {
    const { tools, ran } = createCatalog();
    const { toolSearch, told } = learningSearch(tools, { failToTell: true });
    const { model, seen } = scriptedModel([...SEARCH_LOAD_CALL, { text: 'Take one.' }]);
    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'ann' }),
      stopWhen: isStepCount(6),
      prompt: 'x',
    });
    expect(told).toEqual(['getWeather']);
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Paris' } }]);
    expect(result.text).toBe('Take one.');
    expect(toolResultsIn(seen[3]!.prompt).at(-1)).toEqual({
      toolName: 'getWeather',
      type: 'json',
      value: { city: 'Paris', temperature: 21, conditions: 'sunny' },
    });
  });

  it('records a lazily resolved request tool (as @tool-search/mcp makes them) once its call succeeded', async () => {
    const crm = lazyTool({
      name: 'crm_lookup',
      description: 'Look up a customer in the CRM by id.',
      resolve: () => ({
        inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
        execute: async () => ({ customer: 'ACME' }),
      }),
    });
    const { toolSearch, recorded, told } = learningSearch();
    const { model } = scriptedModel([
      search('which customer ordered crates, crm'),
      load('crm_lookup'),
      call('crm_lookup', { id: '7' }),
      { text: 'ACME' },
    ]);
    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'ann', requestTools: { crm_lookup: crm } }),
      stopWhen: isStepCount(6),
      prompt: 'x',
    });
    expect(result.text).toBe('ACME');
    expect(told).toEqual(['crm_lookup']);
    expect(recorded()).toEqual([
      expect.objectContaining({ toolName: 'crm_lookup', query: 'which customer ordered crates, crm' }),
    ]);
  });
});

describe.each(['anthropic', 'openai'] as const)('learning from use in native mode (%s)', (provider) => {
  let server: FakeProviderServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('records the search that referred a tool whose call succeeded, and a later request ranks it first', async () => {
    const searchReply = (query: string): FakeReply =>
      provider === 'anthropic'
        ? { toolCalls: [{ toolName: 'search_tools', input: { query } }] }
        : { toolSearchCalls: [{ arguments: { query } }] };
    server = await startFakeProviderServer({
      script: [
        searchReply(QUERY),
        { toolCalls: [{ toolName: 'getWeather', input: { city: 'Paris' } }] },
        'Take one.',
      ],
    });
    const model =
      provider === 'anthropic'
        ? createAnthropic({ baseURL: server.anthropicBaseURL, apiKey: 'test' })('claude-sonnet-4-5')
        : createOpenAI({ baseURL: server.openaiBaseURL, apiKey: 'test' }).responses('gpt-5.4');
    const { tools, ran } = createCatalog();
    const { toolSearch, events, recorded, told } = learningSearch(tools, { native: 'auto' });
    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'ann', model }),
      stopWhen: isStepCount(5),
      prompt: 'Do I need an umbrella in Paris?',
    });
    expect(server.failures).toEqual([]);
    expect(result.text).toBe('Take one.');
    expect(events).toContainEqual(expect.objectContaining({ type: 'mode', mode: 'native' }));
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Paris' } }]);
    expect(told).toEqual(['getWeather']);
    expect(recorded()).toEqual([expect.objectContaining({ toolName: 'getWeather', query: QUERY })]);
    const later = await toolSearch.engine
      .startRequest({ threadId: 'bob' })
      .searchTools({ query: PARAPHRASE });
    expect(later.results[0]?.name).toBe('getWeather');
  });
});
