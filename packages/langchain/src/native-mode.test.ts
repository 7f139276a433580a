// Native mode with the real provider packages: createAgent and the binder drive ChatAnthropic and
// ChatOpenAI (Responses API), which talk to a local server that records every request body.
import { AIMessage, type AIMessageChunk, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import type { ToolSearchEvent } from '@tool-search/core';
import {
  type FakeProviderServer,
  type FakeReply,
  type RecordedRequest,
  sentToolAdditions,
  sentToolResults,
  sentTools,
  startFakeProviderServer,
} from '@tool-search/fake-providers';
import { createAgent, fakeModel } from 'langchain';
import { afterEach, describe, expect, it } from 'vitest';
import { chatModel, type Provider } from './__fixtures__/native-models';
import { createCatalog, createExecutionLog, type ExecutionLog, recordingTool } from './__fixtures__/tools';
import type { LangChainTool } from './options';
import { createToolSearchBinder } from './tool-search-binder';
import { toolSearchMiddleware } from './tool-search-middleware';

const servers: FakeProviderServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(script: readonly FakeReply[]): Promise<FakeProviderServer> {
  const server = await startFakeProviderServer({ script });
  servers.push(server);
  return server;
}

/** The catalog, plus a weather tool the filter refuses to load (search may list it, never refer it). */
function catalogOf(log: ExecutionLog): LangChainTool[] {
  return [
    ...createCatalog(log),
    recordingTool(log, 'weather_alerts', 'Severe weather alerts and warnings for a city', {
      city: { type: 'string' },
    }),
  ];
}

const refuseAlerts = ({ toolName, phase }: { toolName: string; phase: string }) =>
  !(toolName === 'weather_alerts' && phase !== 'search');

/** Every request's tools array exactly as the provider package sent it (raw JSON of `tools`). */
function toolArrays(server: FakeProviderServer): string[] {
  return server.requests.map((request) => JSON.stringify(request.body.tools));
}

function resultFor(request: RecordedRequest, toolName: string) {
  return sentToolResults(request).filter((result) => result.toolName === toolName);
}

const CATALOG_NAMES = [
  'get_weather',
  'send_email',
  'create_ticket',
  'convert_currency',
  'book_flight',
  'weather_alerts',
];

/** The model's search: a search_tools call (Anthropic), a client-executed tool_search_call (OpenAI). */
function searchReply(provider: Provider, id: string): FakeReply {
  return provider === 'anthropic'
    ? { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather' }, id }] }
    : { toolSearchCalls: [{ arguments: { query: 'weather' }, id }] };
}

/** The name the recorded search result answers: search_tools, or OpenAI's tool_search. */
const searchName = (provider: Provider) => (provider === 'anthropic' ? 'search_tools' : 'tool_search');

/** The script of two invokes of one thread: search then call in the same turn; then a never-found tool. */
function twoInvokes(provider: Provider): FakeReply[] {
  return [
    searchReply(provider, 'call_s'),
    { toolCalls: [{ toolName: 'get_weather', input: { city: 'Rome' }, id: 'call_w' }] },
    'Sunny in Rome.',
    { toolCalls: [{ toolName: 'send_email', input: { to: 'bob' }, id: 'call_e' }] },
    { toolCalls: [{ toolName: 'get_weather', input: { city: 'Oslo' }, id: 'call_w2' }] },
    'Done.',
  ];
}

/** What both invokes must have sent, read from the recorded bodies. */
function expectTwoInvokes(provider: Provider, server: FakeProviderServer, log: ExecutionLog) {
  expect(server.failures).toEqual([]);
  expect(server.requests).toHaveLength(6);
  // One tools array, byte for byte, on every step of both calls: the search, then the catalog deferred.
  const arrays = toolArrays(server);
  expect(new Set(arrays).size).toBe(1);
  const tools = sentTools(server.requests[0]!);
  expect(tools.map((tool) => [tool.name, tool.deferred])).toEqual([
    [searchName(provider), false],
    ...CATALOG_NAMES.map((name) => [name, true]),
  ]);
  // The search refers exactly the allowed tools it found: never the one the filter refuses to load.
  const [search] = resultFor(server.requests[1]!, searchName(provider));
  expect(search?.references).toEqual(['get_weather']);
  if (provider === 'anthropic') {
    const found = JSON.parse(search!.text).results.map((result: { name: string }) => result.name);
    expect(found).toContain('get_weather');
  }
  // Called in the same turn as the search, no load_tool round trip.
  expect(log.calls[0]).toEqual({ name: 'get_weather', input: { city: 'Rome' } });
  // The second invoke (no history) gets the earlier load back after its user message, tools untouched.
  const second = server.requests[3]!;
  expect(sentToolAdditions(second).map((addition) => addition.names)).toEqual([['get_weather']]);
  expect(sentToolAdditions(server.requests[4]!)).toEqual(sentToolAdditions(second));
  // Right after the call's user message, and (Anthropic) with the beta a tool addition needs.
  const userAt = (request: RecordedRequest) => {
    const items: { role?: string }[] = provider === 'anthropic' ? request.body.messages : request.body.input;
    return items.findLastIndex((item) => item.role === 'user' && JSON.stringify(item).includes('Email Bob'));
  };
  expect(sentToolAdditions(second)[0]?.position).toBe(userAt(second) + 1);
  if (provider === 'anthropic') {
    expect(second.headers['anthropic-beta']).toContain('mid-conversation-tool-changes-2026-07-01');
  }
  // A deferred tool the thread never found is refused before it runs; the restored one runs.
  expect(log.count('send_email')).toBe(0);
  const [refused] = resultFor(server.requests[4]!, 'send_email');
  expect(refused?.text).toMatch(/search_tools/);
  expect(log.calls.at(-1)).toEqual({ name: 'get_weather', input: { city: 'Oslo' } });
}

describe.each<Provider>(['anthropic', 'openai'])('createAgent in native mode (%s)', (provider) => {
  it.each([false, true])(
    'defers the catalog, refers found tools and restores earlier loads (streaming: %s)',
    async (streaming) => {
      const server = await serve(twoInvokes(provider));
      const log = createExecutionLog();
      const events: ToolSearchEvent[] = [];
      const middleware = toolSearchMiddleware({
        tools: catalogOf(log),
        native: 'auto',
        filter: refuseAlerts,
        onEvent: (event) => events.push(event),
      });
      const agent = createAgent({ model: chatModel(provider, server, streaming), middleware: [middleware] });
      const config = { configurable: { thread_id: 'user-1' } };
      for (const content of ['Weather in Rome?', 'Email Bob, then weather in Oslo']) {
        const input = { messages: [{ role: 'user', content }] };
        if (streaming) {
          for await (const _chunk of await agent.stream(input, { ...config, streamMode: 'messages' })) {
            // drained: the model streams its answer through LangChain
          }
        } else {
          await agent.invoke(input, config);
        }
      }
      expectTwoInvokes(provider, server, log);
      if (streaming) expect(server.requests.every((request) => request.stream)).toBe(true);
      const modes = events.filter((event) => event.type === 'mode');
      expect(modes.length).toBeGreaterThan(0);
      expect(modes.every((event) => event.mode === 'native' && event.provider === provider)).toBe(true);
      await middleware.dispose();
    },
  );

  it('keeps the references in the conversation of a checkpointed thread (no addition needed)', async () => {
    const server = await serve([...twoInvokes(provider).slice(0, 3), 'Still sunny.']);
    const log = createExecutionLog();
    const middleware = toolSearchMiddleware({ tools: catalogOf(log), native: 'auto', filter: refuseAlerts });
    const { MemorySaver } = await import('@langchain/langgraph');
    const agent = createAgent({
      model: chatModel(provider, server),
      middleware: [middleware],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: 'user-2' } };
    await agent.invoke({ messages: [{ role: 'user', content: 'Weather in Rome?' }] }, config);
    await agent.invoke({ messages: [{ role: 'user', content: 'And tomorrow?' }] }, config);
    const last = server.requests.at(-1)!;
    expect(resultFor(last, searchName(provider))[0]?.references).toEqual(['get_weather']);
    expect(sentToolAdditions(last)).toEqual([]);
    expect(new Set(toolArrays(server)).size).toBe(1);
    await middleware.dispose();
  });
});

describe.each<Provider>(['anthropic', 'openai'])("native mode with 'context' storage (%s)", (provider) => {
  it('reads the referred tools back from the search result in the messages', async () => {
    const server = await serve([
      ...twoInvokes(provider).slice(0, 3),
      { toolCalls: [{ toolName: 'get_weather', input: { city: 'Oslo' }, id: 'call_w2' }] },
      'Rainy.',
    ]);
    const log = createExecutionLog();
    const middleware = toolSearchMiddleware({
      tools: catalogOf(log),
      native: 'auto',
      storage: 'context',
      signingSecret: 'test-secret-0123456789abcdef',
      filter: refuseAlerts,
    });
    const { MemorySaver } = await import('@langchain/langgraph');
    const agent = createAgent({
      model: chatModel(provider, server),
      middleware: [middleware],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: 'user-4' } };
    await agent.invoke({ messages: [{ role: 'user', content: 'Weather in Rome?' }] }, config);
    await agent.invoke({ messages: [{ role: 'user', content: 'And Oslo?' }] }, config);
    expect(server.failures).toEqual([]);
    expect(new Set(toolArrays(server)).size).toBe(1);
    expect(log.calls.map((call) => call.input)).toEqual([{ city: 'Rome' }, { city: 'Oslo' }]);
    await middleware.dispose();
  });
});

describe('native mode with maxLoadedTools', () => {
  it('refers at most maxLoadedTools of the tools a search finds', async () => {
    const server = await serve([searchReply('anthropic', 'call_s'), 'Found.']);
    const log = createExecutionLog();
    const middleware = toolSearchMiddleware({
      tools: catalogOf(log),
      native: 'anthropic',
      maxLoadedTools: 1,
    });
    const agent = createAgent({ model: chatModel('anthropic', server), middleware: [middleware] });
    await agent.invoke({ messages: [{ role: 'user', content: 'Weather alerts?' }] });
    const [search] = resultFor(server.requests[1]!, 'search_tools');
    // The core asks the ranker for no more than it may refer (a search under autoLoad does the same).
    const found = JSON.parse(search!.text).results.map((result: { name: string }) => result.name);
    expect(search?.references).toHaveLength(1);
    expect(search?.references).toEqual(found);
    await middleware.dispose();
  });
});

describe('native mode with a model that has no deferred loading', () => {
  it("runs today's default mode and says so in the mode event", async () => {
    const log = createExecutionLog();
    const events: ToolSearchEvent[] = [];
    const middleware = toolSearchMiddleware({
      tools: catalogOf(log),
      native: 'auto',
      onEvent: (event) => events.push(event),
    });
    const model = fakeModel()
      .respondWithTools([{ name: 'search_tools', args: { query: 'weather' } }])
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'get_weather' } }])
      .respondWithTools([{ name: 'get_weather', args: { city: 'Rome' } }])
      .respond(new AIMessage('Sunny.'));
    const agent = createAgent({ model, middleware: [middleware] });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'Weather?' }] });
    expect(result.messages.at(-1)?.text).toBe('Sunny.');
    expect(log.calls).toEqual([{ name: 'get_weather', input: { city: 'Rome' } }]);
    const modes = events.filter((event) => event.type === 'mode');
    expect(modes.length).toBeGreaterThan(0);
    expect(modes.every((event) => event.mode === 'default' && event.reason === 'unsupported-provider')).toBe(
      true,
    );
    await middleware.dispose();
  });
});

describe.each<Provider>(['anthropic', 'openai'])('the binder in native mode (%s)', (provider) => {
  it('streams through the bound model, the search found as a call', async () => {
    const server = await serve([searchReply(provider, 'call_s'), 'Found it.']);
    const log = createExecutionLog();
    const binder = createToolSearchBinder({ tools: catalogOf(log), native: 'auto', filter: refuseAlerts });
    const model = chatModel(provider, server, true);
    const messages: BaseMessage[] = [new HumanMessage('Weather in Rome?')];
    for (let step = 0; step < 3; step++) {
      const bound = await binder.bind({ model, threadId: 'user-5', messages });
      let response: AIMessageChunk | undefined;
      for await (const chunk of await bound.model.stream(messages)) {
        response = response ? response.concat(chunk as AIMessageChunk) : (chunk as AIMessageChunk);
      }
      const message = new AIMessage({ ...response!, tool_calls: response!.tool_calls ?? [] });
      messages.push(message);
      if (!message.tool_calls?.length) break;
      expect(message.tool_calls.map((call) => call.name)).toEqual(['search_tools']);
      messages.push(...(await bound.runToolCalls(message)));
    }
    expect(server.failures).toEqual([]);
    expect(server.requests.every((request) => request.stream)).toBe(true);
    expect(resultFor(server.requests[1]!, searchName(provider))[0]?.references).toEqual(['get_weather']);
    await binder.dispose();
  });

  it('binds one deferred tool list, refers found tools and refuses a never-found one before it runs', async () => {
    const server = await serve([
      searchReply(provider, 'call_s'),
      {
        toolCalls: [
          { toolName: 'get_weather', input: { city: 'Rome' }, id: 'call_w' },
          { toolName: 'book_flight', input: { to: 'FCO' }, id: 'call_b' },
        ],
      },
      'Sunny in Rome.',
    ]);
    const log = createExecutionLog();
    const binder = createToolSearchBinder({ tools: catalogOf(log), native: 'auto', filter: refuseAlerts });
    const model = chatModel(provider, server);
    const messages: BaseMessage[] = [new HumanMessage('Weather in Rome?')];
    for (let step = 0; step < 5; step++) {
      const bound = await binder.bind({ model, threadId: 'user-3', messages });
      expect(bound.native).toBe(provider);
      const response = (await bound.model.invoke(messages)) as AIMessage;
      messages.push(response);
      if (!response.tool_calls?.length) break;
      messages.push(...(await bound.runToolCalls(response)));
    }
    expect(server.failures).toEqual([]);
    expect(server.requests).toHaveLength(3);
    expect(new Set(toolArrays(server)).size).toBe(1);
    expect(resultFor(server.requests[1]!, searchName(provider))[0]?.references).toEqual(['get_weather']);
    expect(log.calls).toEqual([{ name: 'get_weather', input: { city: 'Rome' } }]);
    expect(resultFor(server.requests[2]!, 'book_flight')[0]?.text).toMatch(/search_tools/);
    await binder.dispose();
  });
});
