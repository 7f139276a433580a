import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { type ToolRuntime, tool } from '@langchain/core/tools';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createLearning, type Learning, lazyTool, type ToolSearchEvent } from '@tool-search/core';
import { type FakeProviderServer, startFakeProviderServer } from '@tool-search/fake-providers';
import { createAgent, fakeModel } from 'langchain';
import { afterEach, describe, expect, it } from 'vitest';
import { chatModel } from './__fixtures__/native-models';
import { createCatalog, createExecutionLog, recordingTool } from './__fixtures__/tools';
import type { LangChainTool } from './options';
import { createToolSearchBinder, type ToolSearchBinder } from './tool-search-binder';
import { toolSearchMiddleware } from './tool-search-middleware';

type Model = ReturnType<typeof fakeModel>;
type Script = Parameters<Model['respondWithTools']>[0];
type EvidenceEvent = Extract<ToolSearchEvent, { type: 'evidence' }>;

/** Words the weather tool's own text lacks ("need", "umbrella"), with one it has. */
const FIRST_QUERY = 'weather: do I need an umbrella';
/** A later request sharing the recorded words, none of the tool's own. */
const PARAPHRASE = 'umbrella needed?';
/** The evidence event of a call that recorded FIRST_QUERY for get_weather. */
const recordedUse = expect.objectContaining({
  type: 'evidence',
  toolName: 'get_weather',
  query: FIRST_QUERY,
  source: 'call',
  recorded: true,
});

const ask = (text: string) => ({ messages: [new HumanMessage(text)] });
const thread = (threadId: string) => ({ configurable: { thread_id: threadId } });

function toolMessages(messages: readonly BaseMessage[], name?: string): ToolMessage[] {
  return messages.filter(
    (message): message is ToolMessage =>
      ToolMessage.isInstance(message) && (name === undefined || message.name === name),
  );
}

/** The names a conversation's last search_tools result lists, best first. */
function lastSearchNames(messages: readonly BaseMessage[]): string[] {
  const content = toolMessages(messages, 'search_tools').at(-1)?.content;
  return (JSON.parse(String(content)) as { results: { name: string }[] }).results.map((entry) => entry.name);
}

/** A fake model that answers each script entry with its tool calls, then with `done`. */
function scripted(...steps: Script[]): Model {
  let model = fakeModel();
  for (const step of steps) model = model.respondWithTools(step);
  return model.respond(new AIMessage('done'));
}

function recorder() {
  const events: ToolSearchEvent[] = [];
  const evidence = () => events.filter((event): event is EvidenceEvent => event.type === 'evidence');
  return { onEvent: (event: ToolSearchEvent) => events.push(event), evidence };
}

const searchLoadCall: Script[] = [
  [{ name: 'search_tools', args: { query: FIRST_QUERY } }],
  [{ name: 'load_tool', args: { toolName: 'get_weather' } }],
  [{ name: 'get_weather', args: { city: 'Rome' } }],
];

describe('learning with toolSearchMiddleware and createAgent', () => {
  const agentWith = (options: { learning?: Learning; tools?: LangChainTool[] } = {}) => {
    const events = recorder();
    const log = createExecutionLog();
    const middleware = toolSearchMiddleware({
      tools: options.tools ?? createCatalog(log),
      ...(options.learning ? { learning: options.learning } : {}),
      onEvent: events.onEvent,
    });
    const run = (model: Model) =>
      createAgent({ model, middleware: [middleware], checkpointer: new MemorySaver() });
    return { events, log, middleware, run };
  };

  it('records the query of a search whose tool was loaded and ran, and a paraphrase then finds the tool', async () => {
    const learning = createLearning();
    const learned = agentWith({ learning });
    const first = await learned
      .run(scripted(...searchLoadCall))
      .invoke(ask('Should I take an umbrella to Rome?'), thread('a'));
    expect(toolMessages(first.messages, 'get_weather').at(-1)?.content).toBe(
      'get_weather ran with {"city":"Rome"}',
    );
    expect(learned.events.evidence()).toEqual([recordedUse]);
    expect(learned.events.evidence()[0]?.threadId).toBe('a');

    const later = scripted([{ name: 'search_tools', args: { query: PARAPHRASE } }]);
    const withEvidence = await learned.run(later).invoke(ask('Umbrella needed?'), thread('b'));
    expect(lastSearchNames(withEvidence.messages)[0]).toBe('get_weather');

    // Without learning the same request does not find the tool: its text has none of the words.
    const plain = agentWith();
    const without = await plain
      .run(scripted([{ name: 'search_tools', args: { query: PARAPHRASE } }]))
      .invoke(ask('Umbrella needed?'), thread('b'));
    expect(lastSearchNames(without.messages)).not.toContain('get_weather');
    await Promise.all([learned.middleware.dispose(), plain.middleware.dispose()]);
  });

  it('records from agent.stream too', async () => {
    const { events, middleware, run } = agentWith({ learning: createLearning() });
    const stream = await run(scripted(...searchLoadCall)).stream(ask('umbrella in Rome?'), {
      ...thread('streamed'),
      streamMode: 'values',
    });
    let last: { messages: BaseMessage[] } | undefined;
    for await (const chunk of stream) last = chunk as { messages: BaseMessage[] };
    expect(last?.messages.at(-1)?.text).toBe('done');
    expect(events.evidence()).toEqual([recordedUse]);
    await middleware.dispose();
  });

  it('records nothing for a tool that throws, and the model gets the same error message as without learning', async () => {
    const failing = tool(
      async () => {
        throw new Error('weather service down');
      },
      {
        name: 'get_weather',
        description: 'Get the current weather forecast for a city',
        schema: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ) as LangChainTool;
    const errorOf = async (learning?: Learning) => {
      const { events, middleware, run } = agentWith({ tools: [failing], ...(learning ? { learning } : {}) });
      const result = await run(scripted(...searchLoadCall)).invoke(ask('umbrella?'), thread('t'));
      await middleware.dispose();
      const answer = toolMessages(result.messages, 'get_weather').at(-1)!;
      return { status: answer.status, content: answer.content, evidence: events.evidence() };
    };
    const learned = await errorOf(createLearning());
    expect(learned.evidence).toEqual([]);
    expect(learned.status).toBe('error');
    expect(learned.content).toMatch(/weather service down/);
    const plain = await errorOf();
    expect({ status: plain.status, content: plain.content }).toEqual({
      status: learned.status,
      content: learned.content,
    });
  });

  it('records nothing for a call the guard refuses (not loaded), nor for the meta-tools alone', async () => {
    const { events, log, middleware, run } = agentWith({ learning: createLearning() });
    const refused = await run(
      scripted(
        [{ name: 'search_tools', args: { query: FIRST_QUERY } }],
        [{ name: 'get_weather', args: { city: 'Rome' } }],
        [{ name: 'load_tool', args: { toolName: 'get_weather' } }],
      ),
    ).invoke(ask('umbrella?'), thread('guarded'));
    expect(toolMessages(refused.messages, 'get_weather').at(-1)?.status).toBe('error');
    expect(log.calls).toEqual([]);
    expect(events.evidence()).toEqual([]);
    await middleware.dispose();
  });

  it('records once when the same tool is called twice in one run, in one message and in the next', async () => {
    const { events, log, middleware, run } = agentWith({ learning: createLearning() });
    await run(
      scripted(
        ...searchLoadCall.slice(0, 2),
        [
          { name: 'get_weather', args: { city: 'Rome' } },
          { name: 'get_weather', args: { city: 'Oslo' } },
        ],
        [{ name: 'get_weather', args: { city: 'Bern' } }],
      ),
    ).invoke(ask('umbrella?'), thread('twice'));
    expect(log.count('get_weather')).toBe(3);
    expect(events.evidence().filter((event) => event.recorded)).toHaveLength(1);
    await middleware.dispose();
  });

  it('records the latest of two searches that found the tool, once', async () => {
    const { events, middleware, run } = agentWith({ learning: createLearning() });
    await run(
      scripted([{ name: 'search_tools', args: { query: 'weather forecast' } }], ...searchLoadCall, [
        { name: 'get_weather', args: { city: 'Oslo' } },
      ]),
    ).invoke(ask('umbrella?'), thread('two-searches'));
    expect(events.evidence()).toEqual([recordedUse]);
    await middleware.dispose();
  });

  it('records nothing for a tool that answers with an error ToolMessage, and records a Command', async () => {
    const answering = (name: string, answer: (id: string) => ToolMessage | Command) =>
      tool(async (_input: unknown, runtime: ToolRuntime) => answer(runtime.toolCallId ?? ''), {
        name,
        description: 'Get the current weather forecast for a city',
        schema: { type: 'object', properties: { city: { type: 'string' } } },
      }) as LangChainTool;
    const errorAnswer = answering(
      'get_weather',
      (id) =>
        new ToolMessage({ content: 'no such city', tool_call_id: id, name: 'get_weather', status: 'error' }),
    );
    const errored = agentWith({ tools: [errorAnswer], learning: createLearning() });
    const result = await errored.run(scripted(...searchLoadCall)).invoke(ask('umbrella?'), thread('e'));
    expect(toolMessages(result.messages, 'get_weather').at(-1)?.status).toBe('error');
    expect(errored.events.evidence()).toEqual([]);

    const commandAnswer = answering(
      'get_weather',
      (id) =>
        new Command({
          update: {
            messages: [new ToolMessage({ content: 'sunny', tool_call_id: id, name: 'get_weather' })],
          },
        }),
    );
    const commanded = agentWith({ tools: [commandAnswer], learning: createLearning() });
    const answered = await commanded.run(scripted(...searchLoadCall)).invoke(ask('umbrella?'), thread('c'));
    expect(toolMessages(answered.messages, 'get_weather').at(-1)?.content).toBe('sunny');
    expect(commanded.events.evidence()).toEqual([expect.objectContaining({ recorded: true })]);
    await Promise.all([errored.middleware.dispose(), commanded.middleware.dispose()]);
  });

  it('records an agent tool made searchable (includeResolvedTools), never an always-sent one', async () => {
    const log = createExecutionLog();
    const runWith = async (includeResolvedTools: boolean, steps: Script[]) => {
      const events = recorder();
      const middleware = toolSearchMiddleware({
        includeResolvedTools,
        learning: createLearning(),
        onEvent: events.onEvent,
      });
      const agent = createAgent({
        model: scripted(...steps),
        tools: createCatalog(log).slice(0, 1),
        middleware: [middleware],
      });
      await agent.invoke(ask('umbrella?'), thread('own'));
      await middleware.dispose();
      return events.evidence();
    };
    expect(await runWith(true, searchLoadCall)).toEqual([recordedUse]);
    // Sent on every call: the search does not list it, and its call records nothing.
    expect(await runWith(false, [searchLoadCall[0]!, searchLoadCall[2]!])).toEqual([]);
    expect(log.count('get_weather')).toBe(2);
  });

  it('records a lazily resolved (MCP) tool that ran', async () => {
    const lazy = lazyTool({
      name: 'get_weather',
      description: 'Get the current weather forecast for a city',
      resolve: () => ({
        inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
        execute: async () => 'sunny',
      }),
    });
    const { events, middleware, run } = agentWith({
      tools: [lazy as unknown as LangChainTool],
      learning: createLearning(),
    });
    await run(scripted(...searchLoadCall)).invoke(ask('umbrella?'), thread('lazy'));
    expect(events.evidence()).toEqual([recordedUse]);
    await middleware.dispose();
  });
});

describe('learning with createToolSearchBinder', () => {
  /** A hand-written loop, as the binder's own tests drive it. */
  async function runLoop(binder: ToolSearchBinder, model: Model, threadId: string, signal?: AbortSignal) {
    const messages: BaseMessage[] = [new HumanMessage('umbrella?')];
    for (let step = 0; step < 10; step += 1) {
      const bound = await binder.bind({ model, threadId, messages });
      const response = await bound.model.invoke(messages);
      messages.push(response);
      if (!response.tool_calls?.length) return messages;
      messages.push(...(await bound.runToolCalls(response, signal ? { signal } : undefined)));
    }
    throw new Error('the loop did not finish');
  }

  const binderWith = (options: { learning?: Learning; tools?: LangChainTool[] } = {}) => {
    const events = recorder();
    const binder = createToolSearchBinder({
      tools: options.tools ?? createCatalog(createExecutionLog()),
      ...(options.learning ? { learning: options.learning } : {}),
      onEvent: events.onEvent,
    });
    return { events, binder };
  };

  it('records a search, load and successful call; a paraphrase in another thread then ranks the tool first', async () => {
    const { events, binder } = binderWith({ learning: createLearning() });
    await runLoop(binder, scripted(...searchLoadCall, searchLoadCall[2]!), 'a');
    // Called twice: recorded once.
    expect(events.evidence()).toEqual([recordedUse]);
    const later = await runLoop(
      binder,
      scripted([{ name: 'search_tools', args: { query: PARAPHRASE } }]),
      'b',
    );
    expect(lastSearchNames(later)[0]).toBe('get_weather');

    const plain = binderWith();
    const without = await runLoop(
      plain.binder,
      scripted([{ name: 'search_tools', args: { query: PARAPHRASE } }]),
      'b',
    );
    expect(lastSearchNames(without)).not.toContain('get_weather');
    await Promise.all([binder.dispose(), plain.binder.dispose()]);
  });

  it('records nothing for a tool that throws, arguments the schema refuses, a refused call or an aborted run', async () => {
    const log = createExecutionLog();
    const controller = new AbortController();
    const catalog = [
      tool(
        async () => {
          throw new Error('weather service down');
        },
        {
          name: 'get_weather',
          description: 'Get the current weather forecast for a city',
          schema: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ) as LangChainTool,
      recordingTool(log, 'send_email', 'Send an email message to a recipient: do I need an umbrella', {
        to: { type: 'string' },
      }),
      tool(
        async () => {
          // The run is aborted while the tool runs; it answers anyway.
          controller.abort(new Error('stop'));
          return 'late';
        },
        {
          name: 'book_flight',
          description: 'Book a flight: do I need an umbrella',
          schema: { type: 'object', properties: {} },
        },
      ) as LangChainTool,
    ];
    const { events, binder } = binderWith({ tools: catalog, learning: createLearning() });
    const thrown = await runLoop(binder, scripted(...searchLoadCall), 'thrown');
    expect(toolMessages(thrown, 'get_weather').at(-1)?.content).toMatch(/weather service down/);
    // send_email is refused (never loaded), then called with arguments of the wrong type.
    const refused = await runLoop(
      binder,
      scripted(
        [{ name: 'search_tools', args: { query: FIRST_QUERY } }],
        [{ name: 'send_email', args: { to: 'a@b.c' } }],
        [{ name: 'load_tool', args: { toolName: 'send_email' } }],
        [{ name: 'send_email', args: { to: 42 } }],
      ),
      'refused',
    );
    expect(toolMessages(refused, 'send_email').map((message) => message.status)).toEqual(['error', 'error']);
    expect(log.calls).toEqual([]);
    await expect(
      runLoop(
        binder,
        scripted(
          [{ name: 'search_tools', args: { query: FIRST_QUERY } }],
          [{ name: 'load_tool', args: { toolName: 'book_flight' } }],
          [{ name: 'book_flight', args: {} }],
        ),
        'aborted',
        controller.signal,
      ),
    ).rejects.toThrow();
    expect(events.evidence()).toEqual([]);
    await binder.dispose();
  });
});

describe.each(['anthropic', 'openai'] as const)('learning in native mode (%s)', (provider) => {
  const servers: FakeProviderServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('records a search the provider referred a tool from, and the call that ran it', async () => {
    const server = await startFakeProviderServer({
      script: [
        provider === 'anthropic'
          ? { toolCalls: [{ toolName: 'search_tools', input: { query: FIRST_QUERY }, id: 'call_s' }] }
          : { toolSearchCalls: [{ arguments: { query: FIRST_QUERY }, id: 'call_s' }] },
        { toolCalls: [{ toolName: 'get_weather', input: { city: 'Rome' }, id: 'call_w' }] },
        'Sunny in Rome.',
      ],
    });
    servers.push(server);
    const model = chatModel(provider, server);
    const log = createExecutionLog();
    const events = recorder();
    const middleware = toolSearchMiddleware({
      tools: createCatalog(log),
      native: 'auto',
      learning: createLearning(),
      onEvent: events.onEvent,
    });
    await createAgent({ model, middleware: [middleware] }).invoke(ask('umbrella in Rome?'), thread('n'));
    expect(server.failures).toEqual([]);
    expect(log.calls).toEqual([{ name: 'get_weather', input: { city: 'Rome' } }]);
    expect(events.evidence()).toEqual([recordedUse]);
    await middleware.dispose();
  });
});
