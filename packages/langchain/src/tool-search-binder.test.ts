import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { GraphInterrupt, isGraphInterrupt } from '@langchain/langgraph';
import { createHeldRanker } from '@tool-search/core/testing';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCatalog, createExecutionLog, recordBoundTools, recordingTool } from './__fixtures__/tools';
import { createToolSearchBinder, type ToolSearchBinder } from './tool-search-binder';
import { toolSearchMiddleware } from './tool-search-middleware';

const META = ['search_tools', 'load_tool'];

type Model = ReturnType<typeof fakeModel>;

/** A promise to settle from outside: the test decides when a tool finishes (no sleeping). */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Lets pending promise callbacks and LangChain's callback handlers run. */
async function flush() {
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
}

const names = (tools: readonly unknown[]) => tools.map((entry) => (entry as { name: string }).name);

/** A hand-written agent loop: bind, invoke, run the tool calls, repeat until the model answers. */
async function runLoop(binder: ToolSearchBinder, model: Model, messages: BaseMessage[], threadId: string) {
  for (let step = 0; step < 10; step += 1) {
    const bound = await binder.bind({ model, threadId, messages });
    const response = await bound.model.invoke(messages);
    messages.push(response);
    if (!response.tool_calls?.length) return messages;
    messages.push(...(await bound.runToolCalls(response)));
  }
  throw new Error('the loop did not finish');
}

describe('createToolSearchBinder in a hand-written loop', () => {
  it('binds exactly the visible tools each step, runs meta-tools and loaded tools', async () => {
    const log = createExecutionLog();
    const echo = recordingTool(log, 'echo', 'Repeat text');
    const binder = createToolSearchBinder({ tools: createCatalog(log), alwaysOn: [echo] });
    const model = fakeModel()
      .respondWithTools([{ name: 'search_tools', args: { query: 'create support ticket' } }])
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'create_ticket' } }])
      .respondWithTools([
        { name: 'create_ticket', args: { title: 'Printer on fire' } },
        { name: 'echo', args: { text: 'filed' } },
      ])
      .respond(new AIMessage('Ticket filed.'));
    const bound = recordBoundTools(model);

    const messages = await runLoop(
      binder,
      model,
      [new HumanMessage('file a ticket: printer on fire')],
      'loop',
    );

    expect(bound).toEqual([
      [...META, 'echo'],
      [...META, 'echo'],
      [...META, 'echo', 'create_ticket'],
      [...META, 'echo', 'create_ticket'],
    ]);
    expect(log.calls).toEqual([
      { name: 'create_ticket', input: { title: 'Printer on fire' } },
      { name: 'echo', input: { text: 'filed' } },
    ]);
    const results = messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
    expect(results.map((message) => message.name)).toEqual([
      'search_tools',
      'load_tool',
      'create_ticket',
      'echo',
    ]);
    expect(JSON.parse(String(results[0]!.content)).results[0].name).toBe('create_ticket');
    expect(results[2]!.tool_call_id).toBe((messages[5] as AIMessage).tool_calls![0]!.id);
    expect(await binder.getLoadedToolNames('loop')).toEqual(['create_ticket']);
  });

  it('guards: a tool not loaded for the thread is not run, and the tool message says how to recover', async () => {
    const log = createExecutionLog();
    const binder = createToolSearchBinder({ tools: createCatalog(log) });
    const model = fakeModel()
      .respondWithTools([{ name: 'get_weather', args: { city: 'Rome' } }])
      .respond(new AIMessage('ok'));
    const step = await binder.bind({ model, threadId: 'g', messages: [new HumanMessage('weather')] });

    expect(step.visible).toEqual(META);
    expect(await step.guard('get_weather')).toMatchObject({ allowed: false });
    expect(await step.guard('search_tools')).toEqual({ allowed: true });
    const response = await step.model.invoke([new HumanMessage('weather')]);
    const [message] = await step.runToolCalls(response);
    expect(message).toMatchObject({ status: 'error', name: 'get_weather' });
    expect(message!.content).toMatch(/search_tools/);
    expect(log.calls).toEqual([]);
  });

  it('runToolCalls: a tool loaded and called in one message is told to call it again, not to load it', async () => {
    const log = createExecutionLog();
    const binder = createToolSearchBinder({ tools: createCatalog(log) });
    const model = fakeModel()
      .respondWithTools([
        { name: 'load_tool', args: { toolName: 'get_weather' } },
        { name: 'get_weather', args: { city: 'Rome' } },
      ])
      .respond(new AIMessage('ok'));
    const step = await binder.bind({ model, threadId: 'same', messages: [new HumanMessage('weather')] });
    const response = await step.model.invoke([new HumanMessage('weather')]);
    const [load, weather] = await step.runToolCalls(response);
    expect(load).toMatchObject({ status: 'success', name: 'load_tool' });
    expect(weather).toMatchObject({ status: 'error', name: 'get_weather' });
    expect(weather!.content).toMatch(/was just loaded/);
    expect(log.calls).toEqual([]);
  });

  it("'context' storage: a new binder restores the loads from the messages alone", async () => {
    const log = createExecutionLog();
    const catalog = createCatalog(log);
    const options = { tools: catalog, storage: 'context' as const, signingSecret: 's3cret' };
    const model = fakeModel()
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'book_flight' } }])
      .respond(new AIMessage('loaded'));
    const messages = await runLoop(
      createToolSearchBinder(options),
      model,
      [new HumanMessage('load flights')],
      'c',
    );

    const restarted = createToolSearchBinder(options);
    const step = await restarted.bind({ model: fakeModel(), threadId: 'c', messages });
    expect(step.visible).toEqual([...META, 'book_flight']);
    expect(await restarted.getLoadedToolNames('c', messages)).toEqual(['book_flight']);
    // Without the messages, nothing is loaded: the state lives in the conversation only.
    expect((await restarted.bind({ model: fakeModel(), threadId: 'c' })).visible).toEqual(META);
  });

  it('includeResolvedTools: the tools given to bind() are searchable and hidden until loaded', async () => {
    const log = createExecutionLog();
    const binder = createToolSearchBinder({ includeResolvedTools: true });
    const requestTools = createCatalog(log);
    const model = fakeModel()
      .respondWithTools([{ name: 'search_tools', args: { query: 'email message' } }])
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'send_email' } }])
      .respondWithTools([{ name: 'send_email', args: { to: 'ada@example.com' } }])
      .respond(new AIMessage('sent'));
    const bound = recordBoundTools(model);
    const messages: BaseMessage[] = [new HumanMessage('email Ada')];
    for (let index = 0; index < 4; index += 1) {
      const step = await binder.bind({ model, threadId: 'r', messages, tools: requestTools });
      const response = await step.model.invoke(messages);
      messages.push(response, ...(await step.runToolCalls(response)));
    }
    expect(bound).toEqual([META, META, [...META, 'send_email'], [...META, 'send_email']]);
    expect(log.calls).toEqual([{ name: 'send_email', input: { to: 'ada@example.com' } }]);
  });

  it('passes bindOptions to bindTools, and errors a tool throws reach the caller', async () => {
    const failing = tool(
      async () => {
        throw new Error('disk full');
      },
      { name: 'save_file', description: 'Save a file to disk', schema: { type: 'object', properties: {} } },
    );
    const binder = createToolSearchBinder({ tools: [failing] });
    const model = fakeModel();
    const seen: unknown[] = [];
    const bindTools = model.bindTools.bind(model);
    model.bindTools = ((tools: Parameters<Model['bindTools']>[0], kwargs?: unknown) => {
      seen.push(kwargs);
      return bindTools(tools);
    }) as Model['bindTools'];

    const first = await binder.bind({ model, threadId: 'e', bindOptions: { tool_choice: 'auto' } as never });
    expect(seen).toEqual([{ tool_choice: 'auto' }]);
    await first.runToolCall({ name: 'load_tool', args: { toolName: 'save_file' }, id: 'call-1' });
    const second = await binder.bind({ model, threadId: 'e' });
    await expect(second.runToolCall({ name: 'save_file', args: {}, id: 'call-2' })).rejects.toThrow(
      'disk full',
    );
  });

  it('takes null as no options, and refuses options that are not an object (binder and middleware)', async () => {
    expect((await createToolSearchBinder(null as never).bind({ model: fakeModel() })).visible).toEqual([
      'search_tools',
      'load_tool',
    ]);
    expect(toolSearchMiddleware(null as never).name).toBe('ToolSearch');
    // An array (the tools passed where the options go) was taken as no options: refused too.
    for (const options of ['tools', 42, [], [{ name: 'get_weather' }]]) {
      expect(() => createToolSearchBinder(options as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTIONS' }),
      );
      expect(() => toolSearchMiddleware(options as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTIONS' }),
      );
    }
  });

  it('rejects a model without bindTools, and an input that is not an AI message', async () => {
    const binder = createToolSearchBinder({ tools: [] });
    await expect(binder.bind({ model: {} as never })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    const step = await binder.bind({ model: fakeModel() });
    await expect(step.runToolCalls(new HumanMessage('hi') as never)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('refuses a threadId that is neither a string, a number nor a bigint, instead of sharing the default thread', async () => {
    const log = createExecutionLog();
    const binder = createToolSearchBinder({ tools: createCatalog(log) });
    await (await binder.bind({ model: fakeModel() })).runToolCall({
      name: 'load_tool',
      args: { toolName: 'send_email' },
      id: 'load',
    });
    expect(await binder.getLoadedToolNames()).toEqual(['send_email']);
    for (const threadId of [{ id: 'user-42' }, true, Number.NaN]) {
      await expect(binder.bind({ model: fakeModel(), threadId: threadId as never })).rejects.toMatchObject({
        code: 'INVALID_OPTIONS',
        message: expect.stringMatching(/^bind\(\)'s threadId must be a string, a finite number or a bigint/),
      });
    }
    // Through the meta-tools run as plain tools, the run's configurable.thread_id is checked too.
    const [, loadTool] = binder.metaTools;
    await expect(
      loadTool!.invoke({ toolName: 'get_weather' }, { configurable: { thread_id: { id: 'user-42' } } }),
    ).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringMatching(/configurable\.thread_id/),
    });
    expect(await binder.getLoadedToolNames()).toEqual(['send_email']);
    // Missing and null are the 'default' thread; a number or bigint is the thread of its string.
    expect((await binder.bind({ model: fakeModel(), threadId: null })).visible).toEqual([
      ...META,
      'send_email',
    ]);
    expect((await binder.bind({ model: fakeModel() })).visible).toEqual([...META, 'send_email']);
    await (await binder.bind({ model: fakeModel(), threadId: 7 })).runToolCall({
      name: 'load_tool',
      args: { toolName: 'get_weather' },
      id: 'load-7',
    });
    expect((await binder.bind({ model: fakeModel(), threadId: 7n })).visible).toEqual([
      ...META,
      'get_weather',
    ]);
    expect(await binder.getLoadedToolNames('7')).toEqual(['get_weather']);
  });

  it('load_tool: a success message when some names were found (loaded now or before), an error when none was', async () => {
    const binder = createToolSearchBinder({ tools: createCatalog(createExecutionLog()) });
    const step = await binder.bind({ model: fakeModel(), threadId: 'partial' });
    const load = (toolNames: string[], id: string) =>
      step.runToolCall({ name: 'load_tool', args: { toolNames }, id });
    const loaded = await load(['get_weather', 'nope'], 'c1');
    const already = await load(['get_weather', 'nope'], 'c2');
    const none = await load(['nope', 'nor_this'], 'c3');
    expect([loaded.status, already.status, none.status]).toEqual(['success', 'success', 'error']);
    expect(JSON.parse(String(already.content))).toMatchObject({
      alreadyLoaded: ['get_weather'],
      notFound: ['nope'],
    });
    expect(await binder.getLoadedToolNames('partial')).toEqual(['get_weather']);
  });

  it('the meta-tools work as plain LangChain tools too, on the thread of the run config', async () => {
    const binder = createToolSearchBinder({ tools: createCatalog(createExecutionLog()) });
    const [searchTools, loadTool] = binder.metaTools;
    const found = (await searchTools!.invoke({ query: 'weather forecast' })) as {
      results: { name: string }[];
    };
    expect(found.results[0]!.name).toBe('get_weather');
    await loadTool!.invoke({ toolName: 'get_weather' }, { configurable: { thread_id: 'direct' } });
    expect(await binder.getLoadedToolNames('direct')).toEqual(['get_weather']);
    expect(await binder.getLoadedToolNames('elsewhere')).toEqual([]);
  });

  it('runToolCall with an aborted config signal: a slow search rejects with its reason, and its late answer loads nothing', async () => {
    const held = createHeldRanker();
    const binder = createToolSearchBinder({
      tools: createCatalog(createExecutionLog()),
      search: { autoLoad: true },
      ranker: held.ranker,
    });
    const step = await binder.bind({ model: fakeModel(), threadId: 'abort' });
    const controller = new AbortController();
    const pending = step.runToolCall(
      { name: 'search_tools', args: { query: 'weather' }, id: 'call-1' },
      { signal: controller.signal },
    );
    await held.started;
    controller.abort(new Error('the user left'));
    await expect(pending).rejects.toThrow('the user left');
    held.answer([{ name: 'get_weather', description: 'weather', score: 1 }]);
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(await binder.getLoadedToolNames('abort')).toEqual([]);
  });
  it('a tools array refilled in place between bind() calls: each step binds, shows and guards what it holds then', async () => {
    const log = createExecutionLog();
    const readFile = recordingTool(log, 'read_file', 'Read a file');
    const deleteFile = recordingTool(log, 'delete_file', 'Delete a file');
    const binder = createToolSearchBinder({ tools: [] });
    const deleteCall = new AIMessage({
      content: '',
      tool_calls: [{ id: 'c1', name: 'delete_file', args: {} }],
    });
    // One array per session, refilled for each request with what its user may use.
    const ownTools = [deleteFile];

    const admin = await binder.bind({ model: fakeModel(), threadId: 'admin', tools: ownTools });
    expect(admin.visible).toEqual([...META, 'delete_file']);
    ownTools.length = 0;
    ownTools.push(readFile);
    const guest = await binder.bind({ model: fakeModel(), threadId: 'guest', tools: ownTools });

    expect(guest.visible).toEqual([...META, 'read_file']);
    expect(names(guest.tools)).toEqual([...META, 'read_file']);
    const [refused] = await guest.runToolCalls(deleteCall);
    expect(refused).toMatchObject({ status: 'error', name: 'delete_file' });
    expect(log.count('delete_file')).toBe(0);
    // The step bound before the change keeps the tools it was planned with.
    expect(names(admin.tools)).toEqual([...META, 'delete_file']);
    const [ran] = await admin.runToolCalls(deleteCall);
    expect(ran!.status).toBe('success');
    expect(log.count('delete_file')).toBe(1);
    // Refilled with the same tool again: bound again, and run.
    ownTools[0] = deleteFile;
    expect((await binder.bind({ model: fakeModel(), threadId: 'admin', tools: ownTools })).visible).toEqual([
      ...META,
      'delete_file',
    ]);
  });

  it('alwaysOn is read once, when the binder is created: changing the array later changes nothing', async () => {
    const log = createExecutionLog();
    const readFile = recordingTool(log, 'read_file', 'Read a file');
    const deleteFile = recordingTool(log, 'delete_file', 'Delete a file');
    const alwaysOn = [readFile];
    const binder = createToolSearchBinder({ tools: [], alwaysOn });
    expect((await binder.bind({ model: fakeModel(), threadId: 'a' })).visible).toEqual([
      ...META,
      'read_file',
    ]);

    alwaysOn.push(deleteFile);
    expect((await binder.bind({ model: fakeModel(), threadId: 'a' })).visible).toEqual([
      ...META,
      'read_file',
    ]);
    alwaysOn.length = 0;
    alwaysOn.push(deleteFile);
    const step = await binder.bind({ model: fakeModel(), threadId: 'a' });
    expect(step.visible).toEqual([...META, 'read_file']);
    const [refused] = await step.runToolCalls(
      new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'delete_file', args: {} }] }),
    );
    expect(refused!.status).toBe('error');
    expect(log.count('delete_file')).toBe(0);
    expect(() => createToolSearchBinder({ alwaysOn: readFile as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });

  it('arguments the tool schema refuses: an error tool message the model can act on, and the loop goes on', async () => {
    const ran: string[] = [];
    const createTicket = tool(
      async ({ title }) => {
        ran.push('create_ticket');
        return `ticket: ${title}`;
      },
      {
        name: 'create_ticket',
        description: 'Create a support ticket',
        schema: z.object({ title: z.string() }),
      },
    );
    const setPriority = tool(
      async ({ level }) => {
        ran.push('set_priority');
        return `priority ${level}`;
      },
      {
        name: 'set_priority',
        description: 'Set a ticket priority',
        schema: z.object({ level: z.number().int() }),
      },
    );
    const binder = createToolSearchBinder({ tools: [createTicket, setPriority] });
    const model = fakeModel()
      .respondWithTools([{ name: 'load_tool', args: { toolNames: ['create_ticket', 'set_priority'] } }])
      .respondWithTools([
        { name: 'create_ticket', args: { title: 'Printer on fire' } },
        { name: 'set_priority', args: { level: 'urgent' } }, // not a number
      ])
      .respond(new AIMessage('Filed. Which priority number?'));

    const messages = await runLoop(
      binder,
      model,
      [new HumanMessage('Urgent: the printer is on fire')],
      'args',
    );

    expect(ran).toEqual(['create_ticket']);
    const [, ticket, priority] = messages.filter((message): message is ToolMessage =>
      ToolMessage.isInstance(message),
    );
    expect(ticket).toMatchObject({
      name: 'create_ticket',
      status: 'success',
      content: 'ticket: Printer on fire',
    });
    expect(priority).toMatchObject({ name: 'set_priority', status: 'error' });
    expect(priority!.tool_call_id).toBe((messages.at(-4) as AIMessage).tool_calls![1]!.id);
    const content = String(priority!.content);
    expect(content).toMatch(
      /^Error invoking tool 'set_priority' with kwargs \{"level":"urgent"\} with error: /,
    );
    expect(content).toMatch(/with error: Error: Received tool input did not match expected schema\n/);
    expect(content).toMatch(/expected number[\s\S]*level/);
    expect(content).toMatch(/Please fix the error and try again\.$/);
    expect(content).not.toMatch(/\bat \S+:\d+/); // no stack trace reaches the model
    expect(messages.at(-1)!.text).toBe('Filed. Which priority number?');
  });

  it('runToolCalls, when a tool throws: an error tool message as createAgent writes it, the other results kept, and the loop goes on', async () => {
    const log = createExecutionLog();
    const failing = () =>
      tool(
        async () => {
          throw new Error('disk full');
        },
        { name: 'save_file', description: 'Save a file to disk', schema: { type: 'object', properties: {} } },
      );
    const binder = createToolSearchBinder({
      tools: [failing()],
      alwaysOn: [recordingTool(log, 'echo', 'Repeat text')],
    });
    const calls = [
      { name: 'save_file', args: {}, id: 'call-save' },
      { name: 'echo', args: { text: 'saved?' }, id: 'call-echo' },
    ];
    const model = fakeModel()
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'save_file' }, id: 'call-load' }])
      .respondWithTools(calls)
      .respond(new AIMessage('the disk is full'));
    const messages = await runLoop(binder, model, [new HumanMessage('save it')], 'errors');

    const answers = messages.slice(-3, -1) as ToolMessage[];
    expect(answers.map((message) => [message.name, message.status])).toEqual([
      ['save_file', 'error'],
      ['echo', 'success'],
    ]);
    expect(log.count('echo')).toBe(1);
    expect(messages.at(-1)!.text).toBe('the disk is full');
    // createAgent without tool search answers the same call with the same message.
    const plain = await createAgent({
      model: fakeModel().respondWithTools([calls[0]!]).respond(new AIMessage('the disk is full')),
      tools: [failing()],
    }).invoke({ messages: [new HumanMessage('save it')] });
    const fromAgent = plain.messages.find((message): message is ToolMessage =>
      ToolMessage.isInstance(message),
    )!;
    expect(answers[0]).toMatchObject({
      content: fromAgent.content,
      status: fromAgent.status,
      name: fromAgent.name,
      tool_call_id: fromAgent.tool_call_id,
    });
  });

  it('runToolCalls, when a tool interrupts (LangGraph control flow): waits for every call, then throws the first call’s', async () => {
    const log = createExecutionLog();
    const slowGate = gate();
    const finished: string[] = [];
    const throwing = (name: string, error: () => unknown, wait?: Promise<void>) =>
      tool(
        async () => {
          await wait;
          finished.push(name);
          throw error();
        },
        { name, description: `The ${name} tool`, schema: { type: 'object', properties: {} } },
      );
    const slow = tool(
      async () => {
        await slowGate.opened;
        finished.push('slow_report');
        return 'report ready';
      },
      { name: 'slow_report', description: 'A slow report', schema: { type: 'object', properties: {} } },
    );
    const binder = createToolSearchBinder({
      tools: [
        throwing('first_interrupt', () => new GraphInterrupt([{ value: 'first' }]), slowGate.opened),
        throwing('quick_interrupt', () => new GraphInterrupt([{ value: 'quick' }])),
        throwing('plain_failure', () => new Error('plain')),
        slow,
      ],
      alwaysOn: [recordingTool(log, 'echo', 'Repeat text')],
    });
    await (await binder.bind({ model: fakeModel(), threadId: 't' })).runToolCall({
      name: 'load_tool',
      args: { toolNames: ['first_interrupt', 'quick_interrupt', 'plain_failure', 'slow_report'] },
      id: 'load',
    });
    const step = await binder.bind({ model: fakeModel(), threadId: 't' });
    const calls = ['echo', 'plain_failure', 'first_interrupt', 'quick_interrupt', 'slow_report'];
    const response = new AIMessage({
      content: '',
      tool_calls: calls.map((name, index) => ({ id: `c${index}`, name, args: {} })),
    });

    let settled = false;
    const outcome = step.runToolCalls(response).then(
      () => undefined,
      (error: unknown) => error,
    );
    void outcome.then(() => {
      settled = true;
    });
    await flush();
    expect(finished).toEqual(['plain_failure', 'quick_interrupt']);
    expect(settled).toBe(false); // quick_interrupt threw, but the other calls still run
    slowGate.open();
    const error = await outcome;
    expect(finished).toEqual(['plain_failure', 'quick_interrupt', 'first_interrupt', 'slow_report']);
    expect(isGraphInterrupt(error)).toBe(true);
    expect((error as GraphInterrupt).interrupts).toEqual([{ value: 'first' }]); // the first in call order
    expect(log.count('echo')).toBe(1);

    // runToolCall throws what the tool throws, as the tool's own invoke(toolCall) does.
    const outcomes = await Promise.allSettled(
      (response.tool_calls ?? []).map((call) => step.runToolCall(call)),
    );
    expect(outcomes.map((entry) => entry.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
  });

  it('runToolCalls with a run signal that aborts: rejects at once with its reason, even while a tool ignores it', async () => {
    const never = gate();
    const stubborn = tool(
      async () => {
        await never.opened; // never opened: this tool does not listen to the signal
        return 'done';
      },
      { name: 'stubborn', description: 'A tool that ignores aborts', schema: z.string() },
    );
    const binder = createToolSearchBinder({ alwaysOn: [stubborn] });
    const step = await binder.bind({ model: fakeModel(), threadId: 's' });
    const controller = new AbortController();
    const pending = step.runToolCalls(
      new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'stubborn', args: { input: 'x' } }] }),
      { signal: controller.signal },
    );
    await flush();
    controller.abort(new Error('the user left'));
    await expect(pending).rejects.toThrow('the user left');
  });
});
