// Learning from use on a real Mastra Agent: a run that searches, loads and successfully calls a
// catalog tool records its search query as evidence, and later searches rank by it.
import { createAnthropic } from '@ai-sdk/anthropic';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { createLearning, type Learning, lazyTool, type ToolSearchEvent } from '@tool-search/core';
import { type FakeProviderServer, startFakeProviderServer } from '@tool-search/fake-providers';
import { afterEach, describe, expect, it } from 'vitest';
import { call, calls, createAgent, type Mode, run, type Script, say } from './__fixtures__/harness';
import { deleteRecordTool, searchedNames, threadContext } from './__fixtures__/scenarios';
import { sampleTools } from './__fixtures__/tools';
import { ToolSearchProcessor, type ToolSearchProcessorOptions } from './tool-search-processor';

/** Words no tool's text has ("umbrella", "need"), and one that `getWeather`'s has, so the search finds it. */
const USE_QUERY = 'weather: do I need an umbrella in Rome today';
/** A later request with the use's words but not the tool's. */
const PARAPHRASE = 'is an umbrella needed in Rome?';
const MODES: readonly Mode[] = ['generate', 'stream'];

type EvidenceEvent = Extract<ToolSearchEvent, { type: 'evidence' }>;

function processorWith(options: Partial<ToolSearchProcessorOptions> & { learning?: Learning }) {
  const events: ToolSearchEvent[] = [];
  const processor = new ToolSearchProcessor({
    tools: sampleTools(),
    ...options,
    onEvent: (event) => events.push(event),
  });
  const evidence = () => events.filter((event): event is EvidenceEvent => event.type === 'evidence');
  return { processor, evidence };
}

/** search_tools (the use's query) → load_tool → the tool, then a short answer. */
const searchLoadCall = (toolName = 'getWeather', input: unknown = { city: 'Rome' }) => [
  call('search_tools', { query: USE_QUERY }),
  call('load_tool', { toolName }),
  call(toolName, input),
  say('done'),
];

/** What the stored messages say of each tool call: its tool, state, result or error text. */
function invocations(messages: readonly unknown[]) {
  const found: { toolName: string; state: string; result?: unknown; errorText?: unknown }[] = [];
  for (const message of messages as { content?: { parts?: unknown[] } }[]) {
    for (const part of message.content?.parts ?? []) {
      const invocation = (part as { type?: string; toolInvocation?: Record<string, unknown> }).toolInvocation;
      if ((part as { type?: string }).type !== 'tool-invocation' || !invocation) continue;
      found.push({
        toolName: String(invocation.toolName),
        state: String(invocation.state),
        result: invocation.result,
        errorText: invocation.errorText,
      });
    }
  }
  return found;
}

/** A paraphrase searched in a new thread: the names found, best first. */
async function searchLater(processor: ToolSearchProcessor, mode: Mode, threadId: string) {
  const { agent } = createAgent({
    processors: [processor],
    script: [call('search_tools', { query: PARAPHRASE }), say()],
  });
  const result = await run(agent, mode, PARAPHRASE, { requestContext: threadContext(threadId) });
  return searchedNames(result.toolRuns)[0] ?? [];
}

interface LearningRun {
  readonly mode: Mode;
  readonly script: Script;
  readonly threadId: string;
  readonly options?: Partial<ToolSearchProcessorOptions>;
  /** The agent's own tools (a record, or a function of the request). */
  readonly agentTools?: unknown;
}

/** One run of a real Agent on a processor with a learning of its own, both disposed after. */
async function learningRun(given: LearningRun) {
  const learning = createLearning();
  const { processor, evidence } = processorWith({ ...given.options, learning });
  const { agent } = createAgent({ processors: [processor], tools: given.agentTools, script: given.script });
  const result = await run(agent, given.mode, 'Umbrella?', { requestContext: threadContext(given.threadId) });
  const useCount = learning.stats().useCount;
  processor.dispose();
  learning.dispose();
  return { result, evidence: evidence(), useCount };
}

describe.each(MODES)('learning on a Mastra Agent (%s)', (mode) => {
  it('records a call in a later run of the thread with the earlier run’s search, once', async () => {
    const learning = createLearning();
    const { processor, evidence } = processorWith({ learning });
    const runOn = async (threadId: string, script: Script) => {
      const { agent } = createAgent({ processors: [processor], script });
      return run(agent, mode, 'Umbrella in Rome?', { requestContext: threadContext(threadId) });
    };
    // Run 1 searches and loads; run 2 (the next turn) calls the loaded tool without a search.
    await runOn('user-9', [
      call('search_tools', { query: USE_QUERY }),
      call('load_tool', { toolName: 'getWeather' }),
      say('loaded'),
    ]);
    expect(evidence()).toEqual([]);
    const second = await runOn('user-9', [call('getWeather', { city: 'Rome' }), say('done')]);
    expect(second.toolRuns.map((item) => item.toolName)).toEqual(['getWeather']);
    expect(evidence()).toEqual([
      expect.objectContaining({
        toolName: 'getWeather',
        query: USE_QUERY,
        threadId: 'user-9',
        recorded: true,
      }),
    ]);
    // The search counts once for the tool: a third run's call records nothing more.
    await runOn('user-9', [call('getWeather', { city: 'Rome' }), say('done')]);
    expect(evidence()).toHaveLength(1);
    processor.dispose();
    learning.dispose();
  });

  it('records the search of a loaded tool called successfully, and a later paraphrase finds it', async () => {
    const learning = createLearning();
    const { processor, evidence } = processorWith({ learning });
    const { agent } = createAgent({ processors: [processor], script: searchLoadCall() });
    const result = await run(agent, mode, 'Umbrella in Rome?', { requestContext: threadContext('user-1') });
    expect(result.toolRuns.map((item) => item.toolName)).toEqual(['search_tools', 'load_tool', 'getWeather']);
    expect(evidence()).toEqual([
      expect.objectContaining({
        type: 'evidence',
        toolName: 'getWeather',
        query: USE_QUERY,
        threadId: 'user-1',
        source: 'call',
        recorded: true,
      }),
    ]);

    const { processor: without } = processorWith({});
    expect(await searchLater(without, mode, 'user-2')).not.toContain('getWeather');
    expect((await searchLater(processor, mode, 'user-2'))[0]).toBe('getWeather');
    processor.dispose();
    without.dispose();
    learning.dispose();
  });

  it('records nothing for a tool that throws, and Mastra answers the call as without learning', async () => {
    const failing = () => ({
      ...sampleTools(),
      getWeather: createTool({
        id: 'get-weather',
        description: 'Get the current weather (temperature, wind) for a city.',
        execute: async () => {
          throw new Error('weather service down');
        },
      }),
    });
    const answers = [];
    const learning = createLearning();
    let recorded: EvidenceEvent[] = [];
    for (const withLearning of [false, true]) {
      const { processor, evidence } = processorWith({
        tools: failing(),
        ...(withLearning ? { learning } : {}),
      });
      const { agent } = createAgent({ processors: [processor], script: searchLoadCall() });
      const result = await run(agent, mode, 'Umbrella?', {
        requestContext: threadContext(`fail-${withLearning}`),
      });
      answers.push(invocations(result.messages));
      recorded = evidence();
      processor.dispose();
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[1]?.at(-1)).toMatchObject({ toolName: 'getWeather', state: 'output-error' });
    expect(String(answers[1]?.at(-1)?.errorText)).toMatch(/weather service down/);
    expect(recorded).toEqual([]);
    expect(learning.stats().useCount).toBe(0);
    learning.dispose();
  });

  it('leaves what the tool gets and returns as without learning', async () => {
    const outcomes = [];
    for (const learning of [undefined, createLearning()]) {
      const { processor } = processorWith(learning ? { learning } : {});
      const { agent } = createAgent({ processors: [processor], script: searchLoadCall() });
      const result = await run(agent, mode, 'Umbrella?', {
        requestContext: threadContext(`same-${!learning}`),
      });
      outcomes.push(invocations(result.messages));
      processor.dispose();
      learning?.dispose();
    }
    expect(outcomes[1]).toEqual(outcomes[0]);
    expect(outcomes[1]?.at(-1)).toMatchObject({
      toolName: 'getWeather',
      result: { temperature: 21, unit: 'C' },
    });
  });

  it("records nothing when Mastra's output validation fails", async () => {
    const { z } = await import('zod');
    const getWeather = createTool({
      id: 'get-weather',
      description: 'Get the current weather (temperature, wind) for a city.',
      outputSchema: z.object({ temperature: z.number() }),
      execute: async () => ({ temperature: 'warm' }) as never,
    });
    const { result, evidence } = await learningRun({
      mode,
      script: searchLoadCall(),
      threadId: 'invalid-output',
      options: { tools: { ...sampleTools(), getWeather } },
    });
    expect(result.toolRuns.at(-1)?.result).toMatchObject({ error: true });
    expect(evidence).toEqual([]);
  });

  it('records nothing for a found tool that was not loaded (the guard refuses it), nor for the meta-tools', async () => {
    const { result, evidence, useCount } = await learningRun({
      mode,
      threadId: 'refused',
      script: [
        call('search_tools', { query: USE_QUERY }),
        call('getWeather', { city: 'Rome' }),
        call('load_tool', { toolName: 'getWeather' }),
        call('search_tools', { query: USE_QUERY }),
        say(),
      ],
    });
    expect(invocations(result.messages).find((item) => item.toolName === 'getWeather')?.state).toBe(
      'output-error',
    );
    expect(evidence).toEqual([]);
    expect(useCount).toBe(0);
  });

  it('records a tool called twice in one request once', async () => {
    const { result, evidence, useCount } = await learningRun({
      mode,
      threadId: 'twice',
      script: [
        call('search_tools', { query: USE_QUERY }),
        call('load_tool', { toolName: 'getWeather' }),
        calls(
          { tool: 'getWeather', input: { city: 'Rome' } },
          { tool: 'getWeather', input: { city: 'Oslo' } },
        ),
        call('getWeather', { city: 'Lima' }),
        say(),
      ],
    });
    expect(result.toolRuns.filter((item) => item.toolName === 'getWeather')).toHaveLength(3);
    expect(evidence.map((event) => [event.toolName, event.recorded])).toEqual([['getWeather', true]]);
    expect(useCount).toBe(1);
  });

  it('records a lazily resolved tool (an MCP tool) called successfully', async () => {
    const crm = lazyTool({
      name: 'crmLookup',
      description: 'Look up the weather of a customer city in the CRM.',
      resolve: () => ({
        inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
        execute: async () => ({ customer: 'ACME' }),
      }),
    });
    const { result, evidence } = await learningRun({
      mode,
      script: searchLoadCall('crmLookup'),
      threadId: 'lazy',
      options: { tools: { crmLookup: crm } },
    });
    expect(result.toolRuns.at(-1)).toMatchObject({ toolName: 'crmLookup', result: { customer: 'ACME' } });
    expect(evidence).toEqual([
      expect.objectContaining({ toolName: 'crmLookup', query: USE_QUERY, recorded: true }),
    ]);
  });
});

describe('learning and the tools the agent resolves (includeResolvedTools)', () => {
  it.each(MODES)('records a resolved tool found, loaded and called successfully (%s)', async (mode) => {
    const { result, evidence } = await learningRun({
      mode,
      threadId: `resolved-${mode}`,
      options: { includeResolvedTools: true },
      agentTools: () => ({
        lookupAccount: createTool({
          id: 'lookupAccount',
          description: 'Look up a customer account by email.',
          execute: async () => ({ account: 7 }),
        }),
      }),
      script: [
        call('search_tools', { query: 'who is this customer, the account please' }),
        call('load_tool', { toolName: 'lookupAccount' }),
        call('lookupAccount', { email: 'ada@example.com' }),
        call('getWeather', { city: 'Rome' }),
        say(),
      ],
    });
    expect(result.toolRuns.at(-1)).toMatchObject({ toolName: 'lookupAccount', result: { account: 7 } });
    expect(evidence.map((event) => [event.toolName, event.recorded])).toEqual([['lookupAccount', true]]);
  });
});

describe('learning shared by two processors', () => {
  it('ranks with the uses the other processor recorded', async () => {
    const learning = createLearning();
    const first = processorWith({ learning });
    const second = processorWith({ learning });
    const { agent } = createAgent({ processors: [first.processor], script: searchLoadCall() });
    await run(agent, 'generate', 'Umbrella?', { requestContext: threadContext('shared-1') });
    expect((await searchLater(second.processor, 'generate', 'shared-2'))[0]).toBe('getWeather');
    first.processor.dispose();
    second.processor.dispose();
    learning.dispose();
  });
});

describe('learning in native mode (Anthropic deferred loading)', () => {
  const servers: FakeProviderServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it.each(MODES)(
    'records a found tool called in the same turn, not one the guard refuses (%s)',
    async (mode) => {
      const server = await startFakeProviderServer({
        script: [
          {
            toolCalls: [
              { toolName: 'search_tools', input: { query: `${USE_QUERY}, premium report` }, id: 's' },
            ],
          },
          { toolCalls: [{ toolName: 'premiumReport', input: { quarter: 'Q1' }, id: 'p' }] },
          { toolCalls: [{ toolName: 'getWeather', input: { city: 'Rome' }, id: 'w' }] },
          'Take an umbrella.',
        ],
      });
      servers.push(server);
      const learning = createLearning();
      const { processor, evidence } = processorWith({
        learning,
        native: 'anthropic',
        // premiumReport may be found and loaded, never sent or called.
        filter: ({ name, phase }) => !(name === 'premiumReport' && phase === 'active'),
      });
      const agent = new Agent({
        id: 'native-learning',
        name: 'native-learning',
        instructions: 'You are a test agent.',
        model: createAnthropic({ baseURL: server.anthropicBaseURL, apiKey: 'test' })(
          'claude-sonnet-4-5',
        ) as never,
        inputProcessors: [processor],
      });
      const result = await run(agent, mode, 'Umbrella in Rome?', {
        requestContext: threadContext(`native-${mode}`),
      });
      expect(server.failures).toEqual([]);
      expect(searchedNames(result.toolRuns)[0]).toEqual(
        expect.arrayContaining(['getWeather', 'premiumReport']),
      );
      expect(result.toolRuns.map((item) => item.toolName)).toContain('getWeather');
      expect(evidence().map((event) => [event.toolName, event.recorded, event.source])).toEqual([
        ['getWeather', true, 'call'],
      ]);
      processor.dispose();
      learning.dispose();
    },
  );
});

describe('learning and approvals', () => {
  async function approveAfter(revoke: boolean) {
    const { deleteRecord, log } = deleteRecordTool();
    let revoked = false;
    const learning = createLearning();
    const { processor, evidence } = processorWith({
      learning,
      tools: { deleteRecord },
      filter: ({ name }) => !(revoked && name === 'deleteRecord'),
    });
    const { agent: plain } = createAgent({
      processors: [processor],
      script: [
        call('search_tools', { query: 'delete the record, I want it gone for good' }),
        call('load_tool', { toolName: 'deleteRecord' }),
        call('deleteRecord', { id: 'r1' }),
        say('deleted'),
      ],
    });
    const mastra = new Mastra({ agents: { plain }, storage: new InMemoryStore(), logger: false });
    const agent = mastra.getAgent('plain');
    const requestContext = threadContext(`approval-${revoke}`);
    const first = await agent.generate('delete r1', { maxSteps: 10, requestContext });
    const before = evidence().length;
    revoked = revoke;
    const pending = (first as unknown as { suspendPayload?: { toolCallId?: string } }).suspendPayload;
    await agent.approveToolCallGenerate({
      runId: first.runId!,
      toolCallId: pending?.toolCallId,
      requestContext,
      maxSteps: 10,
    } as never);
    processor.dispose();
    learning.dispose();
    return { finishReason: first.finishReason, before, log, evidence: evidence() };
  }

  it('records an approved call when it runs, not while it waits', async () => {
    const approved = await approveAfter(false);
    expect(approved.finishReason).toBe('suspended');
    expect(approved.before).toBe(0);
    expect(approved.log).toEqual(['r1']);
    expect(approved.evidence).toEqual([
      expect.objectContaining({ toolName: 'deleteRecord', recorded: true }),
    ]);
  });

  it('records nothing when the filter revoked the tool before the approval (the guard refuses the call)', async () => {
    const revoked = await approveAfter(true);
    expect(revoked.log).toEqual([]);
    expect(revoked.evidence).toEqual([]);
  });
});

describe('learning and a tool that suspends', () => {
  it('records the call when it completes on resume, not when it suspends', async () => {
    const { z } = await import('zod');
    const learning = createLearning();
    const confirmOrder = createTool({
      id: 'confirmOrder',
      description: 'Confirm an order with the customer.',
      inputSchema: z.object({ id: z.string() }),
      resumeSchema: z.object({ ok: z.boolean() }),
      execute: async (_input, context) => {
        if (!context?.agent?.resumeData) return context?.agent?.suspend({ ask: 'Sure?' });
        return { confirmed: true };
      },
    });
    // A tool typed with a resumeSchema is narrower than `Tool<any, any>` (as with Mastra's own processor).
    const { processor, evidence } = processorWith({
      learning,
      tools: { confirmOrder: confirmOrder as never },
    });
    const { agent: plain } = createAgent({
      processors: [processor],
      script: [
        call('search_tools', { query: 'confirm the order, the customer said yes' }),
        call('load_tool', { toolName: 'confirmOrder' }),
        call('confirmOrder', { id: '1' }),
        say('confirmed'),
      ],
    });
    const mastra = new Mastra({ agents: { plain }, storage: new InMemoryStore(), logger: false });
    const agent = mastra.getAgent('plain');
    const requestContext = threadContext('suspends');
    const first = await agent.generate('confirm order 1', { maxSteps: 10, requestContext });
    expect(first.finishReason).toBe('suspended');
    expect(evidence()).toEqual([]);
    const resumed = await agent.resumeGenerate({ ok: true }, {
      runId: first.runId!,
      requestContext,
      maxSteps: 10,
    } as never);
    expect(resumed.text).toBe('confirmed');
    expect(evidence()).toEqual([expect.objectContaining({ toolName: 'confirmOrder', recorded: true })]);
    processor.dispose();
    learning.dispose();
  });
});

describe('learning and an aborted run', () => {
  it('records nothing for a call that returns after the run was aborted', async () => {
    const controller = new AbortController();
    const learning = createLearning();
    let returned = false;
    const { processor, evidence } = processorWith({
      learning,
      tools: {
        ...sampleTools(),
        getWeather: createTool({
          id: 'get-weather',
          description: 'Get the current weather (temperature, wind) for a city.',
          execute: async () => {
            controller.abort();
            returned = true;
            return { temperature: 21 };
          },
        }),
      },
    });
    const { agent } = createAgent({ processors: [processor], script: searchLoadCall() });
    await run(agent, 'generate', 'Umbrella?', {
      requestContext: threadContext('aborted'),
      abortSignal: controller.signal,
    }).catch(() => undefined);
    expect(returned).toBe(true);
    expect(evidence()).toEqual([]);
    processor.dispose();
    learning.dispose();
  });
});
