import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { exampleToolsByName, toToolDescriptor } from './catalog';
import type { OpenAIChatMessage } from './prompt-tokens';
import { countExampleCatalogTokens, countTextTokens, countToolDefinitionTokens } from './tokens';
import { createTraceRecorder, oneLine, renderTrace } from './trace';

const searchTools = {
  name: 'search_tools',
  description: 'Find tools.',
  inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};
const loadTool = {
  name: 'load_tool',
  description: 'Make tools callable.',
  inputSchema: { type: 'object', properties: { toolName: { type: 'string' } } },
};
const meta = ['search_tools', 'load_tool'];
const forecast = 'get_weather_forecast';

/**
 * The messages of each model call of the run below, written out as the JSON a provider is sent
 * (OpenAI chat format): the counts in the test are of these very strings.
 */
const json = {
  system: '{"role":"system","content":"You are helpful.\\n\\nSearch, then load."}',
  systemWithout: '{"role":"system","content":"You are helpful."}',
  user: '{"role":"user","content":"weather in Lisbon"}',
  searchCall:
    '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search_tools","arguments":"{\\"query\\":\\"weather in Lisbon\\"}"}}]}',
  searchResult:
    '{"role":"tool","tool_call_id":"c1","content":"{\\"results\\":[{\\"name\\":\\"get_weather_forecast\\",\\"score\\":0.8}]}"}',
  loadCall:
    '{"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"load_tool","arguments":"{\\"toolName\\":\\"get_weather_forecast\\"}"}}]}',
  loadResult: '{"role":"tool","tool_call_id":"c2","content":"{\\"loaded\\":[\\"get_weather_forecast\\"]}"}',
  forecastCall:
    '{"role":"assistant","content":null,"tool_calls":[{"id":"c3","type":"function","function":{"name":"get_weather_forecast","arguments":"{\\"city\\":\\"Lisbon\\"}"}}]}',
  forecastResult: '{"role":"tool","tool_call_id":"c3","content":"{\\"city\\":\\"Lisbon\\",\\"days\\":[]}"}',
};
const prompt = (...messages: (keyof typeof json)[]) =>
  messages.map((name) => JSON.parse(json[name]) as OpenAIChatMessage);

/** A search → load → call → answer run, as the engine and the tool wrapper report it (and the model's messages, with `prompts`). */
function recordRun(threadId = 't1', { prompts = false } = {}) {
  const recorder = createTraceRecorder({
    request: 'weather in Lisbon',
    framework: 'Test',
    model: 'offline planner',
    threadId,
    definitions: [searchTools, loadTool],
    instructions: 'Search, then load.',
  });
  recorder.onEvent({ type: 'step', threadId, visible: meta } as never);
  if (prompts) recorder.recordPrompt(prompt('system', 'user'));
  recorder.onEvent({
    type: 'search',
    threadId,
    query: 'weather in Lisbon',
    results: [{ name: forecast, description: '…', score: 0.8 }],
  } as never);
  recorder.onEvent({ type: 'step', threadId: 'other', visible: ['x'] } as never); // another thread: ignored
  recorder.onEvent({ type: 'step', threadId, visible: meta } as never);
  if (prompts) recorder.recordPrompt(prompt('system', 'user', 'searchCall', 'searchResult'));
  recorder.onEvent({
    type: 'load',
    threadId,
    loaded: [forecast],
    alreadyLoaded: [],
    notFound: [],
    auto: false,
  } as never);
  recorder.onEvent({ type: 'step', threadId, visible: [...meta, forecast] } as never);
  if (prompts)
    recorder.recordPrompt(prompt('system', 'user', 'searchCall', 'searchResult', 'loadCall', 'loadResult'));
  recorder.recordCall({
    toolName: forecast,
    input: { city: 'Lisbon' },
    output: { city: 'Lisbon', days: [] },
  });
  recorder.onEvent({ type: 'step', threadId, visible: [...meta, forecast] } as never);
  if (prompts)
    recorder.recordPrompt(
      prompt(
        'system',
        'user',
        'searchCall',
        'searchResult',
        'loadCall',
        'loadResult',
        'forecastCall',
        'forecastResult',
      ),
    );
  return recorder.finish({ answer: 'Sunny.\nWarm.' });
}

describe('the trace', () => {
  it('keeps per step what was sent, searched, loaded and called, for its own thread only', () => {
    const trace = recordRun();
    expect(trace.steps.map((step) => step.sent)).toEqual([
      meta,
      meta,
      [...meta, forecast],
      [...meta, forecast],
    ]);
    expect(trace.steps[0]!.searches).toEqual([
      { query: 'weather in Lisbon', results: [{ name: forecast, score: 0.8 }] },
    ]);
    expect(trace.steps[1]!.loads[0]!.loaded).toEqual([forecast]);
    expect(trace.steps[2]!.calls).toEqual([
      { toolName: forecast, input: { city: 'Lisbon' }, result: 'city Lisbon; days: 0 items' },
    ]);
    expect(trace.steps[3]!.answer).toBe('Sunny.\nWarm.');
    expect(trace.toolsCalled).toEqual([forecast]);
  });

  it('counts the tokens of what was sent against the whole catalog on the calls a run without search needs', () => {
    const { tokens, steps } = recordRun();
    const metaTokens = countToolDefinitionTokens([searchTools, loadTool]);
    const withForecast =
      metaTokens + countToolDefinitionTokens([toToolDescriptor(exampleToolsByName.get(forecast)!)]);
    expect(steps.map((step) => step.sentTokens)).toEqual([
      metaTokens,
      metaTokens,
      withForecast,
      withForecast,
    ]);
    const instructions = countTextTokens('Search, then load.');
    expect(tokens).toEqual({
      modelCalls: 4,
      withToolSearch: 2 * metaTokens + 2 * withForecast + 4 * instructions,
      instructionsPerCall: instructions,
      wholeCatalogPerCall: countExampleCatalogTokens(),
      // The search and load steps would not happen without tool search: the call and the answer would.
      modelCallsWithoutSearch: 2,
      wholeCatalog: 2 * countExampleCatalogTokens(),
    });
    expect(tokens.withToolSearch).toBeLessThan(tokens.wholeCatalog);
  });

  it('adds, from the messages of each model call, all that tool search put in the prompts (hand-counted)', () => {
    const { tokens, steps } = recordRun('t1', { prompts: true });
    const count = (...names: (keyof typeof json)[]) =>
      names.reduce((total, name) => total + countTokens(json[name]), 0);
    const definitions = steps.reduce((total, step) => total + step.sentTokens, 0);
    // The paragraph as the system message holds it: what the message loses without it.
    const paragraph = count('system') - count('systemWithout');
    const searchAndLoad = count('searchCall', 'searchResult', 'loadCall', 'loadResult');
    expect(steps.map((step) => step.prompt)).toEqual([
      { messages: count('system', 'user'), searchMessages: 0, instructions: paragraph },
      {
        messages: count('system', 'user', 'searchCall', 'searchResult'),
        searchMessages: count('searchCall', 'searchResult'),
        instructions: paragraph,
      },
      {
        messages: count('system', 'user') + searchAndLoad,
        searchMessages: searchAndLoad,
        instructions: paragraph,
      },
      {
        messages: count('system', 'user', 'forecastCall', 'forecastResult') + searchAndLoad,
        searchMessages: searchAndLoad,
        instructions: paragraph,
      },
    ]);
    // Calls 1 and 2 only searched or loaded: a run without tool search does not make them, so their
    // system prompt (less the paragraph, counted already) and user message are added too.
    const searchMessages = count('searchCall', 'searchResult') + 2 * searchAndLoad;
    const extraCallMessages = 2 * count('systemWithout', 'user');
    // The same by hand, from the strings' token counts (system 19, system less the paragraph 12,
    // user 11, search call 41 and result 34, load call 43 and result 26).
    expect({ paragraph, searchMessages, extraCallMessages }).toEqual({
      paragraph: 19 - 12,
      searchMessages: 41 + 34 + 2 * (41 + 34 + 43 + 26),
      extraCallMessages: 2 * (12 + 11),
    });
    expect(tokens.allAdded).toEqual({
      total: definitions + 4 * paragraph + searchMessages + extraCallMessages,
      definitions,
      instructions: 4 * paragraph,
      searchMessages,
      extraCallMessages,
      extraCalls: 2,
    });
    // The existing figure is unchanged; the new one is larger and still far below the whole catalog.
    const { allAdded: _, ...withoutAdded } = tokens;
    expect(withoutAdded).toEqual(recordRun().tokens);
    expect(tokens.allAdded!.total).toBeGreaterThan(tokens.withToolSearch);
    expect(tokens.allAdded!.total).toBeLessThan(tokens.wholeCatalog);
    expect(renderTrace(recordRun('t1', { prompts: true }))).toMatch(
      new RegExp(
        `\\n {10}all added ${tokens.allAdded!.total.toLocaleString('en-US')} \\(definitions [\\d,]+ \\+ paragraph ${4 * paragraph} \\+ search/load messages [\\d,]+ \\+ rest of 2 search/load calls ${extraCallMessages}\\) · \\d+× fewer$`,
      ),
    );
  });

  it('has no all-added figure when a model call’s messages were not captured', () => {
    const recorder = createTraceRecorder({ request: 'x', framework: 'Test', model: 'm', instructions: 'P.' });
    recorder.onEvent({ type: 'step', threadId: 'any', visible: [] } as never);
    recorder.recordPrompt([{ role: 'user', content: 'x' }]);
    recorder.onEvent({ type: 'step', threadId: 'any', visible: [] } as never);
    const trace = recorder.finish({ answer: 'done' });
    expect(trace.steps[0]!.prompt).toBeDefined();
    expect(trace.tokens.allAdded).toBeUndefined();
    expect(renderTrace(trace)).not.toContain('all added');
  });

  it('records a failing call with its error, and ignores what comes after finish', () => {
    const recorder = createTraceRecorder({ request: 'x', framework: 'Test', model: 'm' });
    recorder.onEvent({ type: 'step', threadId: 'any', visible: [forecast] } as never);
    recorder.recordCall({ toolName: forecast, input: {}, error: new Error('city: required') });
    recorder.onEvent({
      type: 'deny',
      threadId: 'any',
      toolName: 'send_email',
      reason: 'not-loaded',
    } as never);
    const trace = recorder.finish({ answer: '' });
    recorder.onEvent({ type: 'step', threadId: 'any', visible: [] } as never);
    expect(trace.steps).toHaveLength(1);
    expect(trace.steps[0]!.calls[0]!.error).toBe('city: required');
    expect(trace.steps[0]!.denied).toEqual([{ toolName: 'send_email', reason: 'not-loaded' }]);
    expect(recorder.finish({ answer: 'again' })).toBe(trace);
  });

  it('shows a catalog call whose input the framework refused (no tool run), from the next call’s messages', () => {
    const recorder = createTraceRecorder({ request: 'weather in Lisbon', framework: 'Test', model: 'm' });
    const step = (visible: string[]) => recorder.onEvent({ type: 'step', threadId: 't', visible } as never);
    const badCall = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c7', type: 'function', function: { name: forecast, arguments: '{"city":42}' } },
        { id: 'c8', type: 'function', function: { name: forecast, arguments: '{"city":"Lisbon"}' } },
        { id: 'c9', type: 'function', function: { name: 'no_such_tool', arguments: '{}' } },
      ],
    } satisfies OpenAIChatMessage;
    const badResults: OpenAIChatMessage[] = [
      // As the AI SDK sends the error of an input its schema rejects, and as Mastra does.
      {
        role: 'tool',
        tool_call_id: 'c7',
        content: '{"error":"Invalid input for tool get_weather_forecast: city: expected string"}',
      },
      { role: 'tool', tool_call_id: 'c8', content: '{"city":"Lisbon","days":[]}' },
      { role: 'tool', tool_call_id: 'c9', content: 'no such tool' },
    ];
    // Earlier history (a continued thread) holds a call of another request: not this trace's.
    const history: OpenAIChatMessage[] = [
      {
        role: 'assistant',
        tool_calls: [{ id: 'old', function: { name: forecast, arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'old', content: 'Error: bad' },
    ];
    step([...meta, forecast]);
    recorder.recordPrompt([...history, ...prompt('user')]);
    // c8 ran (the tool wrapper reported it); c7 never reached the tool.
    recorder.recordCall({
      toolName: forecast,
      input: { city: 'Lisbon' },
      output: { city: 'Lisbon', days: [] },
    });
    step([...meta, forecast]);
    const second = [...history, ...prompt('user'), badCall, ...badResults];
    recorder.recordPrompt(second);
    recorder.recordPrompt(second); // a second record of the same call's messages changes nothing
    const trace = recorder.finish({ answer: 'done' });

    expect(trace.steps[0]!.calls).toEqual([
      { toolName: forecast, input: { city: 'Lisbon' }, result: expect.any(String) },
      {
        toolName: forecast,
        input: { city: 42 },
        error: 'Invalid input for tool get_weather_forecast: city: expected string',
      },
    ]);
    expect(trace.steps[1]!.calls).toEqual([]);
    expect(trace.toolsCalled).toEqual([forecast, forecast]);
    expect(renderTrace(trace)).toMatch(
      /call get_weather_forecast \{"city":42\}\n {12}failed: Invalid input for tool get_weather_forecast/,
    );
  });

  it('renders each step and the token line, without colour codes unless asked', () => {
    const text = renderTrace(recordRun());
    expect(text).toContain('step 1  sent search_tools, load_tool (2 tools,');
    expect(text).toContain('search_tools "weather in Lisbon"');
    expect(text).toContain(`found ${forecast} 0.80`);
    expect(text).toContain(`load_tool → loaded ${forecast}`);
    expect(text).toContain(`call ${forecast} {"city":"Lisbon"}`);
    expect(text).toContain('answer Sunny.');
    expect(text).toMatch(/tokens {2}with tool search [\d,]+ over 4 model calls · whole catalog [\d,]+/);
    expect(text).toMatch(/fewer$/);
    expect(text).not.toContain('\u001b[');
    expect(renderTrace(recordRun(), { color: true })).toContain('\u001b[');
  });

  it('prints a long or multi-line request on one short line, with no terminal escape codes', () => {
    const trace = (request: string) => {
      const recorder = createTraceRecorder({ request, framework: 'Test', model: 'm' });
      recorder.onEvent({ type: 'step', threadId: 'any', visible: [] } as never);
      return renderTrace(recorder.finish({ answer: 'done' }));
    };
    // Before, a 100 kB request was printed whole as the trace's first line.
    const long = trace('book a table in Rome '.repeat(5000));
    expect(long.split('\n')[0]!.length).toBeLessThanOrEqual(302);
    expect(long.split('\n')[0]).toMatch(/… \(105,000 characters\)"$/);
    const pasted = trace('first line\nsecond\tline \u001b[2J\u009b');
    expect(pasted.split('\n')[0]).toBe('"first line second line  [2J "');
    expect(oneLine('weather in Oslo', 15)).toBe('weather in Oslo');
    expect(oneLine('weather in Oslo!', 15)).toBe('weather in Osl…');
  });

  it("shows the first lines of a long answer (a real model's)", () => {
    const recorder = createTraceRecorder({ request: 'x', framework: 'Test', model: 'm' });
    recorder.onEvent({ type: 'step', threadId: 'any', visible: [] } as never);
    const text = renderTrace(
      recorder.finish({
        answer: ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'].join('\n'),
      }),
    );
    expect(text).toContain('answer one');
    expect(text).toContain('six');
    expect(text).not.toContain('seven');
    expect(text).toContain('… 2 more lines');
  });
});
