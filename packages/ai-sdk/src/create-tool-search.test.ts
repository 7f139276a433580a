import { createMemoryStore, type LoadStateStore, type ToolSearchEvent } from '@tool-search/core';
import { createFakeClock } from '@tool-search/core/testing';
import {
  convertToModelMessages,
  dynamicTool,
  generateText,
  isStepCount,
  jsonSchema,
  type ModelMessage,
  Output,
  pruneMessages,
  readUIMessageStream,
  streamText,
  tool,
  type UIMessage,
} from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createCatalog } from './__fixtures__/catalog';
import { scriptedModel, toolResultsIn } from './__fixtures__/scripted-model';
import { createToolSearch } from './create-tool-search';

const META = ['search_tools', 'load_tool'];

/** A tool that streams its progress: two preliminary results, then the final one. */
function progressTool() {
  return tool({
    description: 'Report progress of a long job.',
    inputSchema: z.object({}),
    async *execute() {
      yield { percent: 50 };
      yield { percent: 100 };
    },
  });
}

/** What the progress tool's results look like in a stream that passed them through. */
const STREAMED_PROGRESS = [
  { output: { percent: 50 }, preliminary: true },
  { output: { percent: 100 }, preliminary: true },
  { output: { percent: 100 }, preliminary: undefined },
];

/** The progress tool's results in a `fullStream`, with their `preliminary` flags. */
async function progressOutputs(
  stream: AsyncIterable<{ type: string; toolName?: string; output?: unknown; preliminary?: boolean }>,
) {
  const outputs: Array<{ output: unknown; preliminary?: boolean }> = [];
  for await (const part of stream) {
    if (part.type === 'tool-result' && part.toolName === 'progress') {
      outputs.push({ output: part.output, preliminary: part.preliminary });
    }
  }
  return outputs;
}

/** search → load → call → answer, as a script. */
const searchLoadCall = [
  { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather' } }] },
  { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
  { toolCalls: [{ toolName: 'getWeather', input: { city: 'Rome' } }] },
  { text: 'It is sunny in Rome.' },
];

describe('createToolSearch with generateText', () => {
  it('searches, loads and calls a tool within one call; the loaded tool is sent from the next step', async () => {
    const { tools, ran } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const { model, toolsPerStep, seen } = scriptedModel(searchLoadCall);

    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'thread-1' }),
      stopWhen: isStepCount(10),
      prompt: 'What is the weather in Rome?',
    });

    expect(toolsPerStep()).toEqual([META, META, [...META, 'getWeather'], [...META, 'getWeather']]);
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Rome' } }]);
    expect(result.text).toBe('It is sunny in Rome.');
    const searchResult = toolResultsIn(seen[1]!.prompt).at(-1)!;
    expect(searchResult.toolName).toBe('search_tools');
    expect((searchResult.value as { results: Array<{ name: string }> }).results[0]!.name).toBe('getWeather');
    expect(await toolSearch.getLoadedToolNames('thread-1')).toEqual(['getWeather']);
  });

  it('with output: Output.object(), the loaded tool runs and the final answer is parsed', async () => {
    const { tools, ran } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const { model, toolsPerStep } = scriptedModel([
      ...searchLoadCall.slice(0, 3),
      { text: JSON.stringify({ city: 'Rome', conditions: 'sunny' }) },
    ]);

    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'structured' }),
      output: Output.object({ schema: z.object({ city: z.string(), conditions: z.string() }) }),
      stopWhen: isStepCount(10),
      prompt: 'What is the weather in Rome? Answer as JSON.',
    });

    expect(toolsPerStep()).toEqual([META, META, [...META, 'getWeather'], [...META, 'getWeather']]);
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Rome' } }]);
    expect(result.output).toEqual({ city: 'Rome', conditions: 'sunny' });
  });

  it('keeps what a thread loaded for its next call, from that call’s first step; other threads do not see it', async () => {
    const { tools } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const first = scriptedModel(searchLoadCall);
    await generateText({
      model: first.model,
      ...toolSearch.forCall({ threadId: 'alice' }),
      stopWhen: isStepCount(10),
      prompt: 'Weather in Rome?',
    });

    const again = scriptedModel([
      { toolCalls: [{ toolName: 'getWeather', input: { city: 'Oslo' } }] },
      { text: 'ok' },
    ]);
    const result = await generateText({
      model: again.model,
      ...toolSearch.forCall({ threadId: 'alice' }),
      stopWhen: isStepCount(10),
      prompt: 'And in Oslo?',
    });
    expect(again.toolsPerStep()[0]).toEqual([...META, 'getWeather']);
    expect(result.steps[0]!.toolResults.map((part) => part.output)).toEqual([
      { city: 'Oslo', temperature: 21, conditions: 'sunny' },
    ]);

    const other = scriptedModel([{ text: 'hello' }]);
    await generateText({ model: other.model, ...toolSearch.forCall({ threadId: 'bob' }), prompt: 'Hi' });
    expect(other.toolsPerStep()).toEqual([META]);
  });

  it('shares the default thread between anonymous calls, and reads the thread id from runtimeContext', async () => {
    const { tools } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const anonymous = scriptedModel(searchLoadCall);
    await generateText({
      model: anonymous.model,
      ...toolSearch.forCall(),
      stopWhen: isStepCount(10),
      prompt: 'x',
    });
    expect(await toolSearch.getLoadedToolNames()).toEqual(['getWeather']);

    const second = scriptedModel([{ text: 'ok' }]);
    await generateText({ model: second.model, ...toolSearch.forCall(), prompt: 'y' });
    expect(second.toolsPerStep()).toEqual([[...META, 'getWeather']]);

    const fromRuntime = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'send_email' } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model: fromRuntime.model,
      ...toolSearch.forCall(),
      runtimeContext: { threadId: 'carol' },
      stopWhen: isStepCount(5),
      prompt: 'z',
    });
    expect(await toolSearch.getLoadedToolNames('carol')).toEqual(['send_email']);
    expect(await toolSearch.getLoadedToolNames()).toEqual(['getWeather']);

    // A numeric user id is a thread of its own: the thread of its string, not 'default'.
    const numeric = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'convert_currency' } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model: numeric.model,
      ...toolSearch.forCall(),
      runtimeContext: { threadId: 42 },
      stopWhen: isStepCount(5),
      prompt: 'w',
    });
    expect(await toolSearch.getLoadedToolNames('42')).toEqual(['convert_currency']);
    expect(await toolSearch.getLoadedToolNames()).toEqual(['getWeather']);
  });

  it('sends loaded tools in load order, after the always-on tools, each step’s list a prefix of the next', async () => {
    const { tools, getTime } = createCatalog();
    const toolSearch = createToolSearch({ tools, alwaysOn: { getTime } });
    const { model, toolsPerStep } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'send_email' } }] },
      { toolCalls: [{ toolName: 'load_tool', input: { toolNames: ['getForecast', 'convert_currency'] } }] },
      { toolCalls: [{ toolName: 'getTime', input: {} }] },
      { text: 'done' },
    ]);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 't' }),
      stopWhen: isStepCount(10),
      prompt: 'x',
    });
    const steps = toolsPerStep();
    expect(steps).toEqual([
      [...META, 'getTime'],
      [...META, 'getTime', 'send_email'],
      [...META, 'getTime', 'send_email', 'getForecast', 'convert_currency'],
      [...META, 'getTime', 'send_email', 'getForecast', 'convert_currency'],
    ]);
    for (let index = 1; index < steps.length; index++) {
      expect(steps[index]!.slice(0, steps[index - 1]!.length)).toEqual(steps[index - 1]);
    }
  });

  it('autoLoad: search_tools alone is offered and what it finds is sent from the next step', async () => {
    const { tools, ran } = createCatalog();
    const toolSearch = createToolSearch({ tools, search: { autoLoad: true, topK: 1 } });
    const { model, toolsPerStep } = scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'send an email' } }] },
      { toolCalls: [{ toolName: 'send_email', input: { to: ['a@b.c'], subject: 's', body: 'b' } }] },
      { text: 'sent' },
    ]);
    const call = toolSearch.forCall({ threadId: 't' });
    expect(call.activeTools).toEqual(['search_tools']);
    await generateText({ model, ...call, stopWhen: isStepCount(10), prompt: 'Email Bob' });
    expect(toolsPerStep()).toEqual([
      ['search_tools'],
      ['search_tools', 'send_email'],
      ['search_tools', 'send_email'],
    ]);
    expect(ran.map((entry) => entry.toolName)).toEqual(['send_email']);
  });

  it('forgets a thread after the TTL (fake clock, no sleeping)', async () => {
    const { tools } = createCatalog();
    const clock = createFakeClock();
    const events: ToolSearchEvent[] = [];
    const toolSearch = createToolSearch({
      tools,
      ttl: 60_000,
      clock,
      onEvent: (event) => events.push(event),
    });
    await generateText({
      model: scriptedModel(searchLoadCall).model,
      ...toolSearch.forCall({ threadId: 'ttl' }),
      stopWhen: isStepCount(10),
      prompt: 'x',
    });

    clock.advance(30_000);
    const within = scriptedModel([{ text: 'ok' }]);
    await generateText({ model: within.model, ...toolSearch.forCall({ threadId: 'ttl' }), prompt: 'y' });
    expect(within.toolsPerStep()).toEqual([[...META, 'getWeather']]);

    expect((await toolSearch.getStateStats()).threadCount).toBe(1);
    clock.advance(60_001);
    await toolSearch.cleanupNow();
    expect((await toolSearch.getStateStats()).threadCount).toBe(0);
    const after = scriptedModel([{ text: 'ok' }]);
    await generateText({ model: after.model, ...toolSearch.forCall({ threadId: 'ttl' }), prompt: 'z' });
    expect(after.toolsPerStep()).toEqual([META]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'evict', threadId: 'ttl', reason: 'ttl' }));
    await toolSearch.dispose();
    expect(clock.pendingTimers()).toBe(0);
  });

  it('clearState and clearAllState forget loaded tools', async () => {
    const { tools } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    for (const threadId of ['a', 'b']) {
      await generateText({
        model: scriptedModel(searchLoadCall).model,
        ...toolSearch.forCall({ threadId }),
        stopWhen: isStepCount(10),
        prompt: 'x',
      });
    }
    await toolSearch.clearState('a');
    expect(await toolSearch.getLoadedToolNames('a')).toEqual([]);
    expect(await toolSearch.getLoadedToolNames('b')).toEqual(['getWeather']);
    await toolSearch.clearAllState();
    expect(await toolSearch.getLoadedToolNames('b')).toEqual([]);
  });
});

describe('createToolSearch with streamText', () => {
  it('searches, loads and calls a tool within one streamed call', async () => {
    const { tools, ran } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const { model, toolsPerStep } = scriptedModel(searchLoadCall);
    const result = streamText({
      model,
      ...toolSearch.forCall({ threadId: 'stream' }),
      stopWhen: isStepCount(10),
      prompt: 'What is the weather in Rome?',
    });
    expect(await result.text).toBe('It is sunny in Rome.');
    expect(toolsPerStep()).toEqual([META, META, [...META, 'getWeather'], [...META, 'getWeather']]);
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Rome' } }]);

    const next = scriptedModel([{ text: 'ok' }]);
    const second = streamText({
      model: next.model,
      ...toolSearch.forCall({ threadId: 'stream' }),
      prompt: 'again',
    });
    await second.consumeStream();
    expect(next.toolsPerStep()).toEqual([[...META, 'getWeather']]);
  });

  it('keeps a streaming tool streaming (preliminary results pass through the guard)', async () => {
    const progress = progressTool();
    const toolSearch = createToolSearch({ tools: { progress } });
    const { model } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'progress' } }] },
      { toolCalls: [{ toolName: 'progress', input: {} }] },
      { text: 'done' },
    ]);
    const result = streamText({
      model,
      ...toolSearch.forCall({ threadId: 'p' }),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    expect(await progressOutputs(result.fullStream)).toEqual(STREAMED_PROGRESS);
  });
});

describe("'context' storage", () => {
  it('restores loaded tools from the message history alone, in a new instance', async () => {
    const first = createToolSearch({ tools: createCatalog().tools, storage: 'context' });
    const turn1 = await generateText({
      model: scriptedModel(searchLoadCall).model,
      ...first.forCall({ threadId: 'ctx' }),
      stopWhen: isStepCount(10),
      prompt: 'Weather in Rome?',
    });
    const history: ModelMessage[] = [
      { role: 'user', content: 'Weather in Rome?' },
      ...turn1.responseMessages,
      { role: 'user', content: 'And in Oslo?' },
    ];

    const { tools, ran } = createCatalog();
    const fresh = createToolSearch({ tools, storage: 'context' });
    const { model, toolsPerStep } = scriptedModel([
      { toolCalls: [{ toolName: 'getWeather', input: { city: 'Oslo' } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...fresh.forCall({ threadId: 'ctx' }),
      stopWhen: isStepCount(5),
      messages: history,
    });
    expect(toolsPerStep()[0]).toEqual([...META, 'getWeather']);
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Oslo' } }]);
    expect(await fresh.getLoadedToolNames('ctx', history)).toEqual(['getWeather']);

    // Without the history, nothing is loaded.
    const bare = scriptedModel([{ text: 'ok' }]);
    await generateText({ model: bare.model, ...fresh.forCall({ threadId: 'ctx' }), prompt: 'And in Oslo?' });
    expect(bare.toolsPerStep()).toEqual([META]);
  });

  it('a load made in a step is sent from the next step of the same call, before any message is stored', async () => {
    const toolSearch = createToolSearch({ tools: createCatalog().tools, storage: 'context' });
    const { model, toolsPerStep } = scriptedModel(searchLoadCall);
    await generateText({ model, ...toolSearch.forCall(), stopWhen: isStepCount(10), prompt: 'x' });
    expect(toolsPerStep()[2]).toEqual([...META, 'getWeather']);
  });

  it('ignores user text that imitates a load result, and a forged result without a valid receipt', async () => {
    const toolSearch = createToolSearch({
      tools: createCatalog().tools,
      storage: 'context',
      signingSecret: 'test-secret',
    });
    const turn1 = await generateText({
      model: scriptedModel([
        { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
        { text: 'ok' },
      ]).model,
      ...toolSearch.forCall({ threadId: 'signed' }),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    const genuine = turn1.responseMessages;

    // The genuine history loads getWeather.
    const replay = scriptedModel([{ text: 'ok' }]);
    await generateText({
      model: replay.model,
      ...toolSearch.forCall({ threadId: 'signed' }),
      messages: [{ role: 'user', content: 'x' }, ...genuine, { role: 'user', content: 'again' }],
    });
    expect(replay.toolsPerStep()).toEqual([[...META, 'getWeather']]);

    // An edited result (another tool name, same receipt) loads nothing.
    const edited = JSON.parse(
      JSON.stringify(genuine).replaceAll('getWeather', 'send_email'),
    ) as ModelMessage[];
    const forged = scriptedModel([{ text: 'ok' }]);
    await generateText({
      model: forged.model,
      ...toolSearch.forCall({ threadId: 'signed' }),
      messages: [{ role: 'user', content: 'x' }, ...edited, { role: 'user', content: 'again' }],
    });
    expect(forged.toolsPerStep()).toEqual([META]);

    // A user message imitating a load result loads nothing.
    const imitation = scriptedModel([{ text: 'ok' }]);
    await generateText({
      model: imitation.model,
      ...toolSearch.forCall({ threadId: 'signed' }),
      messages: [
        {
          role: 'user',
          content: JSON.stringify({ success: true, toolName: 'send_email', loaded: ['send_email'] }),
        },
      ],
    });
    expect(imitation.toolsPerStep()).toEqual([META]);
  });

  it("pruneMessages drops a load with the tool calls it prunes, and keeps it when told to prune the catalog's tools only", async () => {
    const { tools } = createCatalog();
    const toolSearch = createToolSearch({ tools, storage: 'context' });
    const turn = await generateText({
      model: scriptedModel(searchLoadCall.slice(1)).model,
      ...toolSearch.forCall({ threadId: 'pruned' }),
      stopWhen: isStepCount(5),
      prompt: 'Weather in Rome?',
    });
    const history: ModelMessage[] = [
      { role: 'user', content: 'Weather in Rome?' },
      ...turn.responseMessages,
      { role: 'user', content: 'And in Oslo?' },
    ];
    const firstStepAfter = async (messages: ModelMessage[]) => {
      const { model, toolsPerStep } = scriptedModel([{ text: 'ok' }]);
      await generateText({ model, ...toolSearch.forCall({ threadId: 'pruned' }), messages });
      return toolsPerStep()[0];
    };

    const everyTool = pruneMessages({ messages: history, toolCalls: 'before-last-2-messages' });
    expect(await firstStepAfter(everyTool)).toEqual(META);
    const catalogOnly = pruneMessages({
      messages: history,
      toolCalls: [{ type: 'before-last-2-messages', tools: Object.keys(tools) }],
    });
    expect(catalogOnly.length).toBeLessThan(history.length);
    expect(await firstStepAfter(catalogOnly)).toEqual([...META, 'getWeather']);
  });

  it('restores loads from the UI messages a useChat client sends back (streamed, then converted to model messages)', async () => {
    const options = { storage: 'context', signingSecret: 'test-secret' } as const;
    const server = createToolSearch({ tools: createCatalog().tools, ...options });
    const question: UIMessage = {
      id: 'u1',
      role: 'user',
      parts: [{ type: 'text', text: 'Weather in Rome?' }],
    };
    const first = streamText({
      model: scriptedModel(searchLoadCall).model,
      ...server.forCall({ threadId: 'chat' }),
      stopWhen: isStepCount(10),
      messages: await convertToModelMessages([question]),
    });
    let answer: UIMessage | undefined;
    for await (const message of readUIMessageStream({ stream: first.toUIMessageStream() })) answer = message;
    expect(answer!.parts.map((part) => part.type).filter((type) => type.startsWith('tool-'))).toEqual([
      'tool-search_tools',
      'tool-load_tool',
      'tool-getWeather',
    ]);
    // What the client posts next: the whole chat, as JSON.
    const followUp: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And in Oslo?' }] };
    const posted = JSON.stringify([question, answer!, followUp]);

    const nextRequest = async (chat: string) => {
      const { tools, ran } = createCatalog();
      const restarted = createToolSearch({ tools, ...options });
      const call = restarted.forCall({ threadId: 'chat' });
      const { model, toolsPerStep } = scriptedModel([
        { toolCalls: [{ toolName: 'getWeather', input: { city: 'Oslo' } }] },
        { text: 'ok' },
      ]);
      const messages = await convertToModelMessages(JSON.parse(chat) as UIMessage[], { tools: call.tools });
      await streamText({ model, ...call, stopWhen: isStepCount(5), messages }).consumeStream();
      return { steps: toolsPerStep(), ran };
    };
    const genuine = await nextRequest(posted);
    expect(genuine.steps).toEqual([
      [...META, 'getWeather'],
      [...META, 'getWeather'],
    ]);
    expect(genuine.ran).toEqual([{ toolName: 'getWeather', input: { city: 'Oslo' } }]);

    // A client that edits the load's output (another tool, the same receipt) loads nothing.
    const edited = await nextRequest(posted.replaceAll('getWeather', 'send_email'));
    expect(edited.steps[0]).toEqual(META);
    expect(edited.ran).toEqual([]);
  });
});

describe('filter', () => {
  it("applies the 'search', 'load' and 'active' phases, with the call's request context", async () => {
    const { tools, ran } = createCatalog();
    const seenPhases: Array<{ toolName: string; phase: string; role: unknown }> = [];
    const toolSearch = createToolSearch<typeof tools, Record<never, never>, { role: string }>({
      tools,
      filter: ({ toolName, phase, requestContext }) => {
        seenPhases.push({ toolName, phase, role: requestContext?.role });
        if (toolName === 'getForecast' && phase === 'search') return false;
        if (toolName === 'create_github_issue' && phase === 'load') return requestContext?.role === 'admin';
        if (toolName === 'send_email' && phase === 'active') return requestContext?.role === 'admin';
        return true;
      },
    });

    const { model, seen, toolsPerStep } = scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather forecast' } }] },
      { toolCalls: [{ toolName: 'load_tool', input: { toolNames: ['create_github_issue', 'send_email'] } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'f', requestContext: { role: 'user' } }),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    const searched = toolResultsIn(seen[1]!.prompt).at(-1)!.value as { results: Array<{ name: string }> };
    expect(searched.results.map((result) => result.name)).not.toContain('getForecast');
    const loaded = toolResultsIn(seen[2]!.prompt).at(-1)!.value as { loaded?: string[]; notFound?: string[] };
    expect(loaded.notFound).toEqual(['create_github_issue']); // refused exactly like an unknown tool
    expect(loaded.loaded).toEqual(['send_email']);
    // Loaded but withheld in this request: not sent.
    expect(toolsPerStep()[2]).toEqual(META);
    expect(seenPhases.every((entry) => entry.role === 'user')).toBe(true);

    // An admin call of the same thread sees send_email: the state was kept.
    const admin = scriptedModel([
      { toolCalls: [{ toolName: 'send_email', input: { to: ['x'], subject: 's', body: 'b' } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model: admin.model,
      ...toolSearch.forCall({ threadId: 'f' }),
      runtimeContext: { role: 'admin' },
      stopWhen: isStepCount(5),
      prompt: 'y',
    });
    expect(admin.toolsPerStep()[0]).toEqual([...META, 'send_email']);
    expect(ran.map((entry) => entry.toolName)).toEqual(['send_email']);
  });

  it('an allow-list filter of catalog tools leaves the always-on tools sent and callable', async () => {
    const { tools, getTime, ran } = createCatalog();
    const asked: string[] = [];
    const allowed = new Set(['getWeather']);
    const toolSearch = createToolSearch({
      tools,
      alwaysOn: { getTime },
      filter: ({ toolName }) => {
        asked.push(toolName);
        return allowed.has(toolName);
      },
    });
    const { model, toolsPerStep } = scriptedModel([
      { toolCalls: [{ toolName: 'getTime', input: {} }] },
      { toolCalls: [{ toolName: 'load_tool', input: { toolNames: ['getWeather', 'send_email'] } }] },
      { toolCalls: [{ toolName: 'getWeather', input: { city: 'Rome' } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'allow-list' }),
      stopWhen: isStepCount(6),
      prompt: 'x',
    });
    expect(toolsPerStep()).toEqual([
      [...META, 'getTime'],
      [...META, 'getTime'],
      [...META, 'getTime', 'getWeather'],
      [...META, 'getTime', 'getWeather'],
    ]);
    expect(ran.map((entry) => entry.toolName)).toEqual(['getTime', 'getWeather']);
    expect(asked).not.toContain('getTime');
    expect(await toolSearch.getLoadedToolNames('allow-list')).toEqual(['getWeather']);
  });

  it('a filter that throws denies and is reported', async () => {
    const events: ToolSearchEvent[] = [];
    const toolSearch = createToolSearch({
      tools: createCatalog().tools,
      filter: () => {
        throw new Error('policy service down');
      },
      onEvent: (event) => events.push(event),
    });
    const { model, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather' } }] },
      { text: 'ok' },
    ]);
    await generateText({ model, ...toolSearch.forCall(), stopWhen: isStepCount(5), prompt: 'x' });
    const searched = toolResultsIn(seen[1]!.prompt).at(-1)!.value as { results: unknown[] };
    expect(searched.results).toEqual([]);
    expect(events.some((event) => event.type === 'filter-error')).toBe(true);
  });
});

describe('guard', () => {
  it('does not run a catalog tool that is not loaded; the model is told to search and load it', async () => {
    const { tools, ran } = createCatalog();
    const events: ToolSearchEvent[] = [];
    const toolSearch = createToolSearch({ tools, onEvent: (event) => events.push(event) });
    const { model, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'send_email', input: { to: ['x'], subject: 's', body: 'b' } }] },
      { text: 'ok' },
    ]);
    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'g' }),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    expect(ran).toEqual([]);
    const error = toolResultsIn(seen[1]!.prompt).at(-1)!;
    expect(error).toMatchObject({ toolName: 'send_email', type: 'error-text' });
    expect(error.value).toMatch(/not loaded.*search_tools.*load_tool/);
    expect(result.steps[0]!.content.some((part) => part.type === 'tool-error')).toBe(true);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'deny', toolName: 'send_email', reason: 'not-loaded' }),
    );
  });

  it('a client-side tool (no execute) goes to the client only once loaded; a forbidden one never does', async () => {
    const tools = {
      getLocation: tool({ description: 'Read the location from the browser', inputSchema: z.object({}) }),
      deleteAccount: tool({ description: 'Delete the account, on the client', inputSchema: z.object({}) }),
    };
    const toolSearch = createToolSearch({ tools, filter: ({ toolName }) => toolName !== 'deleteAccount' });
    const { model, toolsPerStep } = scriptedModel([
      { toolCalls: [{ toolName: 'deleteAccount', input: {} }] },
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'deleteAccount' } }] },
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getLocation' } }] },
      { toolCalls: [{ toolName: 'getLocation', input: {} }] },
    ]);
    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'browser' }),
      stopWhen: isStepCount(10),
      prompt: 'delete my account, then tell me where I am',
    });

    expect(toolsPerStep()).toEqual([META, META, META, [...META, 'getLocation']]);
    // The forbidden call is invalid and answered with an error: there is nothing for the client to run.
    expect(result.steps[0]!.toolCalls[0]).toMatchObject({ toolName: 'deleteAccount', invalid: true });
    expect(result.steps[0]!.content.some((part) => part.type === 'tool-error')).toBe(true);
    // The loaded one ends the call with a pending tool call, for the client to answer.
    expect(result.finishReason).toBe('tool-calls');
    const last = result.steps.at(-1)!;
    expect(last.toolCalls).toMatchObject([{ toolName: 'getLocation' }]);
    expect(last.toolCalls[0]!.invalid).toBeFalsy();
    expect(last.toolResults).toEqual([]);
  });

  it('an unknown tool name gets a clear tool error too', async () => {
    const toolSearch = createToolSearch({ tools: createCatalog().tools });
    const { model, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'launch_rocket', input: {} }] },
      { text: 'ok' },
    ]);
    await generateText({ model, ...toolSearch.forCall(), stopWhen: isStepCount(5), prompt: 'x' });
    expect(toolResultsIn(seen[1]!.prompt).at(-1)!.value).toMatch(/not available.*search_tools/);
  });

  it("holds when the user's own prepareStep makes an unloaded tool active", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { tools, ran } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const { model, seen, toolsPerStep } = scriptedModel([
      { toolCalls: [{ toolName: 'send_email', input: { to: ['x'], subject: 's', body: 'b' } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'widened' }),
      // not composed: this replaces ours and widens activeTools
      prepareStep: () => ({ activeTools: ['search_tools', 'load_tool', 'send_email'] }),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    expect(toolsPerStep()[0]).toContain('send_email');
    expect(ran).toEqual([]);
    expect(toolResultsIn(seen[1]!.prompt).at(-1)!.value).toMatch(/not loaded/);
    // The replaced prepareStep is reported (replaced-hooks.test.ts has the rest).
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it('refuses an approved call of an unloaded tool that a client replays in the history', async () => {
    const { tools, ran } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const { model } = scriptedModel([{ text: 'ok' }]);
    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'replay' }),
      messages: [
        { role: 'user', content: 'x' },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool-call',
              toolCallId: 'c1',
              toolName: 'send_email',
              input: { to: ['x'], subject: 's', body: 'b' },
            },
            { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'a1', approved: true }] },
      ],
    });
    expect(ran).toEqual([]);
    const replayed = result.responseMessages.flatMap((message) =>
      message.role === 'tool' && Array.isArray(message.content) ? message.content : [],
    );
    expect(JSON.stringify(replayed)).toMatch(/not loaded/);
  });

  /** An assistant call and its approval, as a client posts them back with the history. */
  const approvedInHistory = (toolName: string, input: unknown): ModelMessage[] => [
    { role: 'user', content: 'x' },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'c1', toolName, input },
        { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'a1', approved: true }] },
  ];
  const replayedOutputs = (result: { responseMessages: readonly ModelMessage[] }) =>
    JSON.stringify(
      result.responseMessages.flatMap((message) =>
        message.role === 'tool' && Array.isArray(message.content) ? message.content : [],
      ),
    );

  it('runs a replayed approval of an always-on tool, which the filter never judges', async () => {
    const ran: string[] = [];
    const resetPassword = tool({
      description: 'Reset the user’s own password.',
      inputSchema: z.object({}),
      execute: async () => {
        ran.push('resetPassword');
        return { reset: true };
      },
    });
    const asked: string[] = [];
    const toolSearch = createToolSearch<
      ReturnType<typeof createCatalog>['tools'],
      { resetPassword: typeof resetPassword },
      { role: string }
    >({
      tools: createCatalog().tools,
      alwaysOn: { resetPassword },
      // An allow-list of catalog tools: the agent's own tool is not on it.
      filter: ({ toolName }) => {
        asked.push(toolName);
        return toolName === 'getWeather';
      },
    });
    const result = await generateText({
      model: scriptedModel([{ text: 'ok' }]).model,
      ...toolSearch.forCall({ threadId: 'u1', requestContext: { role: 'user' } }),
      messages: approvedInHistory('resetPassword', {}),
    });
    expect(ran).toEqual(['resetPassword']);
    expect(replayedOutputs(result)).toMatch(/reset/);
    // Without a requestContext given to forCall too: the filter, which needs one, is not asked.
    const withoutContext = await generateText({
      model: scriptedModel([{ text: 'ok' }]).model,
      ...toolSearch.forCall({ threadId: 'u1' }),
      messages: approvedInHistory('resetPassword', {}),
    });
    expect(ran).toEqual(['resetPassword', 'resetPassword']);
    expect(replayedOutputs(withoutContext)).toMatch(/reset/);
    expect(asked).not.toContain('resetPassword');
  });

  it('with a filter, a replayed approval runs only when forCall was given the requestContext (runtimeContext comes too late)', async () => {
    const { tools, ran } = createCatalog();
    const toolSearch = createToolSearch<typeof tools, Record<never, never>, { role?: string } | undefined>({
      tools,
      filter: ({ toolName, phase, requestContext }) =>
        !(toolName === 'send_email' && phase === 'active' && requestContext?.role === 'guest'),
    });
    await toolSearch.engine.startRequest({ threadId: 'guest' }).loadTool({ toolName: 'send_email' });
    const email = { to: ['victim@example.com'], subject: 's', body: 'b' };

    const viaRuntimeContext = await generateText({
      model: scriptedModel([{ text: 'ok' }]).model,
      ...toolSearch.forCall({ threadId: 'guest' }),
      runtimeContext: { role: 'guest' },
      messages: approvedInHistory('send_email', email),
    });
    expect(ran).toEqual([]);
    expect(replayedOutputs(viaRuntimeContext)).toMatch(/Pass requestContext/);

    const asGuest = await generateText({
      model: scriptedModel([{ text: 'ok' }]).model,
      ...toolSearch.forCall({ threadId: 'guest', requestContext: { role: 'guest' } }),
      messages: approvedInHistory('send_email', email),
    });
    expect(ran).toEqual([]);
    expect(replayedOutputs(asGuest)).toMatch(/not available/);

    await generateText({
      model: scriptedModel([{ text: 'ok' }]).model,
      ...toolSearch.forCall({ threadId: 'guest', requestContext: { role: 'member' } }),
      messages: approvedInHistory('send_email', email),
    });
    expect(ran.map((entry) => entry.toolName)).toEqual(['send_email']);
  });
});

describe('composition and degraded steps', () => {
  it('a store that is down sends the meta-tools only, and the call goes on', async () => {
    const events: ToolSearchEvent[] = [];
    const down: LoadStateStore = {
      get: () => Promise.reject(new Error('ECONNREFUSED')),
      add: () => Promise.reject(new Error('ECONNREFUSED')),
      delete: () => Promise.reject(new Error('ECONNREFUSED')),
    };
    const { tools, getTime } = createCatalog();
    const toolSearch = createToolSearch({
      tools,
      alwaysOn: { getTime },
      storage: down,
      onEvent: (e) => events.push(e),
    });
    const { model, toolsPerStep, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
      { text: 'sorry' },
    ]);
    const result = await generateText({
      model,
      ...toolSearch.forCall(),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    expect(result.text).toBe('sorry');
    const plan = toolsPerStep()[0]!;
    expect(plan.slice(0, 2)).toEqual(META);
    expect(plan).not.toContain('getWeather');
    expect(toolResultsIn(seen[1]!.prompt).at(-1)!.value).toMatchObject({ success: false });
    expect(events.some((event) => event.type === 'store-error')).toBe(true);
  });
});

describe('input at the edges', () => {
  it('refuses a catalog or always-on tool named like a meta-tool, and a name given twice', () => {
    const { tools, getTime } = createCatalog();
    expect(() => createToolSearch({ tools: { ...tools, search_tools: getTime } })).toThrow(
      expect.objectContaining({ code: 'RESERVED_TOOL_NAME' }),
    );
    expect(() => createToolSearch({ tools, alwaysOn: { load_tool: getTime } })).toThrow(
      expect.objectContaining({ code: 'RESERVED_TOOL_NAME' }),
    );
    expect(() => createToolSearch({ tools, alwaysOn: { getWeather: getTime } })).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_TOOL_NAME' }),
    );
    expect(() => createToolSearch({ tools: null as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    // forCall: no options (null too) is the default thread; anything else that is not an object is refused.
    const toolSearch = createToolSearch({ tools });
    expect(toolSearch.forCall(null).activeTools).toEqual(META);
    expect(() => toolSearch.forCall('user-42' as never)).toThrow(
      /forCall takes an options object, got string/,
    );
  });

  it('refuses a thread id that is neither a string, a number nor a bigint, instead of sharing the default thread', async () => {
    const { tools } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    // An object id was taken as no thread at all.
    for (const threadId of [{ id: 'user-42' }, Number.NaN, true]) {
      expect(() => toolSearch.forCall({ threadId: threadId as never })).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/threadId/) }),
      );
    }
    const fromRuntime = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'send_email' } }] },
      { text: 'ok' },
    ]);
    await expect(
      generateText({
        model: fromRuntime.model,
        ...toolSearch.forCall(),
        runtimeContext: { threadId: { id: 7 } },
        stopWhen: isStepCount(5),
        prompt: 'x',
      }),
    ).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringMatching(/runtimeContext\.threadId/),
    });
    // Nothing ran, and nothing was loaded into the thread every anonymous call shares.
    expect(fromRuntime.seen).toEqual([]);
    expect(await toolSearch.getLoadedToolNames()).toEqual([]);
    // No thread id (undefined or null) is still the default thread; so is an empty string, as in the core.
    expect(toolSearch.forCall({ threadId: null }).activeTools).toEqual(META);
    const anonymous = scriptedModel([{ text: 'ok' }]);
    await generateText({
      model: anonymous.model,
      ...toolSearch.forCall(),
      runtimeContext: { threadId: null },
      prompt: 'y',
    });
    expect(anonymous.seen).toHaveLength(1);
  });

  it('keys a bigint thread id (a database id as Prisma gives it) by its string, in forCall and in runtimeContext', async () => {
    const { tools } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    for (const settings of [
      () => toolSearch.forCall({ threadId: 42n }),
      () => ({ ...toolSearch.forCall(), runtimeContext: { threadId: 42n } }),
    ]) {
      await toolSearch.clearAllState();
      const scripted = scriptedModel([
        { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'send_email' } }] },
        { text: 'ok' },
      ]);
      await generateText({ model: scripted.model, ...settings(), stopWhen: isStepCount(5), prompt: 'x' });
      expect(await toolSearch.getLoadedToolNames('42')).toEqual(['send_email']);
      expect(await toolSearch.getLoadedToolNames()).toEqual([]);
    }
  });

  it('handles tools named __proto__ and constructor', async () => {
    const ran: string[] = [];
    const make = (name: string) =>
      tool({
        description: `The ${name} tool`,
        inputSchema: z.object({}),
        execute: async () => {
          ran.push(name);
          return name;
        },
      });
    // Own properties named like Object.prototype's (as JSON.parse makes them).
    const catalog: Record<string, ReturnType<typeof make>> = {};
    for (const name of ['__proto__', 'constructor']) {
      Object.defineProperty(catalog, name, { value: make(name), enumerable: true });
    }
    expect(Object.keys(catalog)).toEqual(['__proto__', 'constructor']);
    const toolSearch = createToolSearch({ tools: catalog });
    const { model, toolsPerStep } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolNames: ['__proto__', 'constructor'] } }] },
      {
        toolCalls: [
          { toolName: '__proto__', input: {} },
          { toolName: 'constructor', input: {} },
        ],
      },
      { text: 'ok' },
    ]);
    const call = toolSearch.forCall();
    expect(Object.keys(call.tools).sort()).toEqual(['__proto__', 'constructor', ...META].sort());
    await generateText({ model, ...call, stopWhen: isStepCount(5), prompt: 'x' });
    expect(toolsPerStep()[1]).toEqual([...META, '__proto__', 'constructor']);
    expect(ran.sort()).toEqual(['__proto__', 'constructor']);
  });

  it('answers an empty, a 100 kB and a unicode query with a clear result', async () => {
    const toolSearch = createToolSearch({ tools: createCatalog().tools });
    const { model, seen } = scriptedModel([
      {
        toolCalls: [
          { toolName: 'search_tools', input: { query: '' } },
          { toolName: 'search_tools', input: { query: 'weather '.repeat(12_500) } },
          { toolName: 'search_tools', input: { query: 'météo à Zürich 天气' } },
          { toolName: 'search_tools', input: { nope: true } },
        ],
      },
      { text: 'ok' },
    ]);
    await generateText({ model, ...toolSearch.forCall(), stopWhen: isStepCount(5), prompt: 'x' });
    const [empty, long, unicode, wrong] = toolResultsIn(seen[1]!.prompt).map(
      (result) => result.value as { results: Array<{ name: string }>; message: string },
    );
    expect(empty!.results).toEqual([]);
    expect(empty!.message).toMatch(/empty/i);
    expect(long!.results[0]!.name).toBe('getWeather');
    expect(Array.isArray(unicode!.results)).toBe(true);
    expect(wrong!.message).toMatch(/query/);
  });

  it('toolSearch.tools describes the tool set but refuses to run outside forCall()', async () => {
    const toolSearch = createToolSearch({ tools: createCatalog().tools });
    expect(Object.keys(toolSearch.tools)).toEqual(Object.keys(toolSearch.forCall().tools));
    const execute = toolSearch.tools.getWeather.execute!;
    await expect(async () =>
      execute({ city: 'x' }, { toolCallId: '1', messages: [], context: {} }),
    ).rejects.toThrow(/forCall/);
    expect(toolSearch.instructions).toMatch(/search_tools/);
  });
});

describe('request tools', () => {
  it('are searchable, hidden until loaded, and run this call’s own instance', async () => {
    const { tools } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const instanceFor = (user: string) =>
      tool({
        description: 'List the files in the user’s cloud drive.',
        inputSchema: z.object({}),
        execute: async () => ({ owner: user }),
      });
    const run = async (user: string) => {
      const { model, toolsPerStep } = scriptedModel([
        { toolCalls: [{ toolName: 'search_tools', input: { query: 'cloud drive files' } }] },
        { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'list_drive_files' } }] },
        { toolCalls: [{ toolName: 'list_drive_files', input: {} }] },
        { text: 'ok' },
      ]);
      const result = await generateText({
        model,
        ...toolSearch.forCall({ threadId: user, requestTools: { list_drive_files: instanceFor(user) } }),
        stopWhen: isStepCount(6),
        prompt: 'my files',
      });
      return { steps: toolsPerStep(), result };
    };
    const [alice, bob] = await Promise.all([run('alice'), run('bob')]);
    expect(alice.steps[1]).toEqual(META);
    expect(alice.steps[2]).toEqual([...META, 'list_drive_files']);
    const outputOf = (result: typeof alice.result) =>
      result.steps.flatMap((step) => step.toolResults).find((part) => part.toolName === 'list_drive_files')
        ?.output;
    expect(outputOf(alice.result)).toEqual({ owner: 'alice' });
    expect(outputOf(bob.result)).toEqual({ owner: 'bob' });
  });

  it('dynamic tools, as an MCP client gives them, are searched, refused until loaded, and run once loaded', async () => {
    const ran: unknown[] = [];
    const mcpTools = {
      forecast: dynamicTool({
        description: 'Weather forecast for a city, from the weather MCP server',
        inputSchema: jsonSchema({
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        }),
        execute: async (input) => {
          ran.push(input);
          return { high: 21 };
        },
      }),
      list_files: dynamicTool({
        description: 'List the files in a folder',
        inputSchema: jsonSchema({ type: 'object', properties: {} }),
        execute: async () => [],
      }),
    };
    const toolSearch = createToolSearch({ tools: createCatalog().tools });
    const { model, toolsPerStep, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather forecast MCP' } }] },
      { toolCalls: [{ toolName: 'forecast', input: { city: 'Rome' } }] },
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'forecast' } }] },
      { toolCalls: [{ toolName: 'forecast', input: { city: 'Rome' } }] },
      { text: 'ok' },
    ]);
    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'mcp', requestTools: mcpTools }),
      stopWhen: isStepCount(8),
      prompt: 'the forecast for Rome',
    });

    const found = toolResultsIn(seen[1]!.prompt).at(-1)!.value as { results: Array<{ name: string }> };
    expect(found.results.map((entry) => entry.name)).toContain('forecast');
    expect(result.steps[1]!.content).toMatchObject([
      { type: 'tool-call', toolName: 'forecast', dynamic: true, invalid: true },
      { type: 'tool-error', toolName: 'forecast' },
    ]);
    expect(toolResultsIn(seen[2]!.prompt).at(-1)!.value).toMatch(/not loaded, so it was not run/);
    expect(toolsPerStep().slice(2)).toEqual([META, [...META, 'forecast'], [...META, 'forecast']]);
    expect(ran).toEqual([{ city: 'Rome' }]);
    expect(result.steps[3]!.toolResults).toMatchObject([
      { toolName: 'forecast', dynamic: true, output: { high: 21 } },
    ]);
  });
});

describe('provider options', () => {
  it("sends a loaded tool without a provider's deferLoading, and keeps its other provider options", async () => {
    const { tools, ran } = createCatalog();
    const deferred = {
      ...tools,
      getWeather: tool({
        ...tools.getWeather,
        providerOptions: {
          anthropic: { deferLoading: true, cacheControl: { type: 'ephemeral' } },
          openai: { deferLoading: true },
        },
      }),
    };
    const toolSearch = createToolSearch({ tools: deferred });
    const { model, toolsPerStep, seen } = scriptedModel(searchLoadCall);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'deferred' }),
      stopWhen: isStepCount(10),
      prompt: 'weather in Rome?',
    });

    expect(toolsPerStep()[2]).toEqual([...META, 'getWeather']);
    const sent = seen[2]!.definitions.find((definition) => definition.name === 'getWeather');
    expect(sent?.type).toBe('function');
    const { providerOptions } = sent as Extract<typeof sent, { type: 'function' }>;
    expect(providerOptions).toEqual({
      anthropic: { cacheControl: { type: 'ephemeral' } },
      openai: {},
    });
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Rome' } }]);
    // The user's tool is not changed.
    expect(deferred.getWeather.providerOptions?.anthropic?.deferLoading).toBe(true);
  });

  it("sends and runs a loaded tool marked with the AI SDK's own deferLoading (as for its built-in toolSearch)", async () => {
    // `deferLoading: true` makes the SDK hold a tool back until its own toolSearch() finds it,
    // which never happens here: the loaded tool was never sent and its call got "unavailable tool".
    const { tools, ran } = createCatalog();
    const deferred = Object.fromEntries(
      Object.entries(tools).map(([name, entry]) => [name, tool({ ...entry, deferLoading: true })]),
    ) as typeof tools;
    const toolSearch = createToolSearch({ tools: deferred });
    const { model, toolsPerStep, seen } = scriptedModel(searchLoadCall);
    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'sdk-deferred' }),
      stopWhen: isStepCount(10),
      prompt: 'weather in Rome?',
    });

    expect(toolsPerStep()).toEqual([META, META, [...META, 'getWeather'], [...META, 'getWeather']]);
    expect(toolResultsIn(seen[3]!.prompt).at(-1)).toMatchObject({ toolName: 'getWeather', type: 'json' });
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Rome' } }]);
    expect(result.text).toBe('It is sunny in Rome.');
    // The next call of the thread sends it from its first step; the user's tool is not changed.
    const next = scriptedModel([{ text: 'ok' }]);
    await streamText({
      model: next.model,
      ...toolSearch.forCall({ threadId: 'sdk-deferred' }),
      prompt: 'again',
    }).consumeStream();
    expect(next.toolsPerStep()).toEqual([[...META, 'getWeather']]);
    expect(deferred.getWeather.deferLoading).toBe(true);
  });
});

describe('options forwarded to the engine', () => {
  it('maxLoadedTools with no calls drops the oldest load, and the step sends what is left', async () => {
    const events: ToolSearchEvent[] = [];
    const toolSearch = createToolSearch({
      tools: createCatalog().tools,
      maxLoadedTools: 2,
      onEvent: (event) => events.push(event),
    });
    const { model, toolsPerStep } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolNames: ['getWeather', 'getForecast'] } }] },
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'send_email' } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'cap' }),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    expect(toolsPerStep()).toEqual([
      META,
      [...META, 'getWeather', 'getForecast'],
      [...META, 'getForecast', 'send_email'],
    ]);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'evict', toolNames: ['getWeather'], reason: 'max-loaded-tools' }),
    );
  });

  // Loads getForecast, then getWeather; calls getForecast; loads send_email: past the cap of 2,
  // the least recently used goes, which is getWeather only if the call counted as a use.
  const loadLoadCallLoad = [
    { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getForecast' } }] },
    { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
    { toolCalls: [{ toolName: 'getForecast', input: { city: 'Rome' } }] },
    { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'send_email' } }] },
    { text: 'ok' },
  ];

  for (const storage of ['in-memory', 'an asynchronous store', 'context'] as const) {
    it(`maxLoadedTools counts a call as a use: the least recently called tool goes (${storage})`, async () => {
      const clock = createFakeClock();
      const memory = createMemoryStore({ clock });
      // A store that answers every call with a promise, as a networked store does.
      const asynchronous: LoadStateStore = {
        get: async (threadId) => memory.get(threadId),
        add: async (threadId, names) => memory.add(threadId, names),
        remove: async (threadId, names) => memory.remove(threadId, names),
        delete: async (threadId) => memory.delete(threadId),
      };
      const events: ToolSearchEvent[] = [];
      const { tools, ran } = createCatalog();
      const toolSearch = createToolSearch({
        tools,
        maxLoadedTools: 2,
        clock,
        storage: storage === 'an asynchronous store' ? asynchronous : storage,
        onEvent: (event) => events.push(event),
      });
      const { model, toolsPerStep } = scriptedModel(loadLoadCallLoad);
      await generateText({
        model,
        ...toolSearch.forCall({ threadId: 'recency' }),
        stopWhen: isStepCount(6),
        prompt: 'x',
      });
      expect(ran).toEqual([{ toolName: 'getForecast', input: { city: 'Rome' } }]);
      expect(toolsPerStep().at(-1)).toEqual([...META, 'getForecast', 'send_email']);
      expect(events).toContainEqual(
        expect.objectContaining({ type: 'evict', toolNames: ['getWeather'], reason: 'max-loaded-tools' }),
      );
      // The allowed call is no denial.
      expect(events.filter((event) => event.type === 'deny')).toEqual([]);
      await toolSearch.dispose();
      await memory.dispose();
    });
  }

  it('maxLoadedTools counts a streaming tool’s call as a use, and the tool keeps streaming (streamText)', async () => {
    const progress = progressTool();
    const { getWeather, send_email } = createCatalog().tools;
    const toolSearch = createToolSearch({ tools: { progress, getWeather, send_email }, maxLoadedTools: 2 });
    const { model, toolsPerStep } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolNames: ['progress', 'getWeather'] } }] },
      { toolCalls: [{ toolName: 'progress', input: {} }] },
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'send_email' } }] },
      { text: 'done' },
    ]);
    const result = streamText({
      model,
      ...toolSearch.forCall({ threadId: 'streaming-use' }),
      stopWhen: isStepCount(6),
      prompt: 'x',
    });
    expect(await progressOutputs(result.fullStream)).toEqual(STREAMED_PROGRESS);
    expect(toolsPerStep().at(-1)).toEqual([...META, 'progress', 'send_email']);
  });

  it('maxLoadedTools does not count a refused call as a use', async () => {
    const events: ToolSearchEvent[] = [];
    // getForecast stays loaded but is withheld from this call, so a call of it is refused.
    const toolSearch = createToolSearch({
      tools: createCatalog().tools,
      maxLoadedTools: 2,
      filter: ({ toolName, phase }) => !(toolName === 'getForecast' && phase === 'active'),
      onEvent: (event) => events.push(event),
    });
    const { model } = scriptedModel(loadLoadCallLoad);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'refused-use' }),
      stopWhen: isStepCount(6),
      prompt: 'x',
    });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'deny', toolName: 'getForecast', reason: 'filtered' }),
    );
    expect(await toolSearch.getLoadedToolNames('refused-use')).toEqual(['getWeather', 'send_email']);
  });

  it('ranker replaces the keyword ranker', async () => {
    const toolSearch = createToolSearch({
      tools: createCatalog().tools,
      ranker: () => ({ search: () => [{ name: 'convert_currency', description: 'always me', score: 0.9 }] }),
    });
    const { model, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather' } }] },
      { text: 'ok' },
    ]);
    await generateText({ model, ...toolSearch.forCall(), stopWhen: isStepCount(5), prompt: 'x' });
    const searched = toolResultsIn(seen[1]!.prompt).at(-1)!.value as { results: Array<{ name: string }> };
    expect(searched.results.map((result) => result.name)).toEqual(['convert_currency']);
  });

  it('searchTimeoutMs bounds a ranker that never answers (fake clock): the model is told the search failed', async () => {
    const clock = createFakeClock();
    const events: ToolSearchEvent[] = [];
    const toolSearch = createToolSearch({
      tools: createCatalog().tools,
      ranker: () => ({ search: () => new Promise(() => {}) }),
      searchTimeoutMs: 1_000,
      clock,
      onEvent: (event) => events.push(event),
    });
    const { model, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather' } }] },
      { text: 'ok' },
    ]);
    const pending = generateText({ model, ...toolSearch.forCall(), stopWhen: isStepCount(5), prompt: 'x' });
    for (let turn = 0; turn < 500 && clock.pendingTimers() < 2; turn++) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await clock.advanceAsync(1_000);
    await pending;
    expect(toolResultsIn(seen[1]!.prompt).at(-1)!.value).toEqual({
      results: [],
      message: 'Tool search failed for this query. Try again, perhaps with other keywords.',
    });
    const failure = events.find((event) => event.type === 'search-error');
    expect(failure).toMatchObject({ query: 'weather', error: { code: 'SEARCH_TIMEOUT' } });
  });

  it('storeTimeoutMs bounds a store that never answers (fake clock): the step is degraded, not stuck', async () => {
    const clock = createFakeClock();
    const hanging: LoadStateStore = {
      get: () => new Promise<string[]>(() => {}),
      add: () => new Promise<string[]>(() => {}),
      delete: () => Promise.resolve(),
    };
    const toolSearch = createToolSearch({
      tools: createCatalog().tools,
      storage: hanging,
      storeTimeoutMs: 500,
      clock,
    });
    const { model, toolsPerStep } = scriptedModel([{ text: 'ok' }]);
    const pending = generateText({ model, ...toolSearch.forCall(), prompt: 'x' });
    await clock.advanceAsync(0);
    await clock.advanceAsync(501);
    await pending;
    expect(toolsPerStep()).toEqual([META]);
  });
});

describe('tool approvals', () => {
  /** A tool that needs approval, and what it ran. */
  function wireTool() {
    const ran: unknown[] = [];
    const wire = tool({
      description: 'Wire money to an account.',
      inputSchema: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: async ({ amount }: { amount: number }) => {
        ran.push(amount);
        return { wired: amount };
      },
    });
    return { ran, wire };
  }

  /** The history a client posts back: the request, the first turn, and the approval. */
  function approvedReplay(
    prompt: string,
    responseMessages: readonly ModelMessage[],
    approvalId: string,
  ): ModelMessage[] {
    return [
      { role: 'user', content: prompt },
      ...responseMessages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] },
    ];
  }

  it('runs an approved call of a loaded tool that the SDK replays before the first step', async () => {
    const { ran, wire } = wireTool();
    const events: ToolSearchEvent[] = [];
    const warn = vi.spyOn(console, 'warn');
    const toolSearch = createToolSearch({ tools: { wire }, onEvent: (event) => events.push(event) });
    const first = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'wire' } }] },
      { toolCalls: [{ toolName: 'wire', input: { amount: 100 } }] },
    ]);
    const turn1 = await generateText({
      model: first.model,
      ...toolSearch.forCall({ threadId: 'approvals' }),
      stopWhen: isStepCount(5),
      prompt: 'wire 100',
    });
    const request = turn1.steps.at(-1)!.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toBeDefined();
    expect(ran).toEqual([]);

    const second = scriptedModel([{ text: 'wired' }]);
    const turn2 = await generateText({
      model: second.model,
      ...toolSearch.forCall({ threadId: 'approvals' }),
      messages: approvedReplay('wire 100', turn1.responseMessages, request!.approvalId),
    });
    expect(ran).toEqual([100]);
    expect(turn2.text).toBe('wired');
    expect(second.toolsPerStep()).toEqual([[...META, 'wire']]);
    // Run before the first step, outside any step: not taken for a step ours did not prepare.
    expect(events.filter((event) => event.type === 'hook-replaced')).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it("a replayed approval judged in the 'default' thread (no threadId given to forCall) says to pass threadId, not to load the tool", async () => {
    const { ran, wire } = wireTool();
    const toolSearch = createToolSearch({ tools: { wire } });
    const first = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'wire' } }] },
      { toolCalls: [{ toolName: 'wire', input: { amount: 100 } }] },
    ]);
    // The thread comes from runtimeContext, which the SDK hands over only at the first step.
    const turn1 = await generateText({
      model: first.model,
      ...toolSearch.forCall(),
      runtimeContext: { threadId: 'from-context' },
      stopWhen: isStepCount(5),
      prompt: 'wire 100',
    });
    const request = turn1.steps.at(-1)!.content.find((part) => part.type === 'tool-approval-request');
    expect(await toolSearch.getLoadedToolNames('from-context')).toEqual(['wire']);

    const second = scriptedModel([{ text: 'not wired' }]);
    const turn2 = await generateText({
      model: second.model,
      ...toolSearch.forCall(),
      runtimeContext: { threadId: 'from-context' },
      messages: approvedReplay('wire 100', turn1.responseMessages, request!.approvalId),
    });
    expect(ran).toEqual([]);
    expect(turn2.text).toBe('not wired');
    expect(toolResultsIn(second.seen[0]!.prompt).at(-1)).toMatchObject({
      toolName: 'wire',
      type: 'error-text',
      value: expect.stringMatching(
        /^ToolSearchError: .*judged in the 'default' thread.*Pass threadId to forCall/,
      ),
    });
  });

  /**
   * A load_tool that needs approval: the first turn asks for it, the second posts the approval
   * back; both with `runtimeContext` when given. Returns the tool search and the second model.
   */
  async function replayedLoadApproval(runtimeContext?: { threadId: string }) {
    const { tools } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const toolApproval = { load_tool: 'user-approval' } as const;
    const first = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
    ]);
    const turn1 = await generateText({
      model: first.model,
      ...toolSearch.forCall(),
      toolApproval,
      ...(runtimeContext ? { runtimeContext } : {}),
      prompt: 'weather',
    });
    const request = turn1.steps.at(-1)!.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toBeDefined();
    const second = scriptedModel([{ text: 'ok' }]);
    await generateText({
      model: second.model,
      ...toolSearch.forCall(),
      toolApproval,
      ...(runtimeContext ? { runtimeContext } : {}),
      messages: approvedReplay('weather', turn1.responseMessages, request!.approvalId),
    });
    return { toolSearch, second };
  }

  it("an app that never names a thread keeps its one 'default' thread for replayed approvals", async () => {
    const { toolSearch, second } = await replayedLoadApproval();
    expect(await toolSearch.getLoadedToolNames('default')).toEqual(['getWeather']);
    expect(toolResultsIn(second.seen[0]!.prompt).at(-1)).toMatchObject({
      toolName: 'load_tool',
      type: 'json',
    });
    expect(second.toolsPerStep()).toEqual([[...META, 'getWeather']]);
  });

  it("an approved load_tool replayed without a threadId given to forCall loads nothing into the 'default' thread", async () => {
    // Loading a tool needs approval; the thread comes from runtimeContext.
    const { toolSearch, second } = await replayedLoadApproval({ threadId: 'approver' });
    // It used to load into the 'default' thread (shared by every call without a thread id) and
    // tell the model the tool was loaded, while the call's own thread did not have it.
    expect(await toolSearch.getLoadedToolNames('default')).toEqual([]);
    expect(await toolSearch.getLoadedToolNames('approver')).toEqual([]);
    expect(toolResultsIn(second.seen[0]!.prompt).at(-1)).toMatchObject({
      toolName: 'load_tool',
      type: 'error-text',
      value: expect.stringMatching(/^ToolSearchError: .*Pass threadId to forCall/),
    });
  });
});
