import { MessageList } from '@mastra/core/agent/message-list';
import { ToolSearchProcessor as MastraToolSearchProcessor } from '@mastra/core/processors';
import { createTool } from '@mastra/core/tools';
import { isMetaToolName } from '@tool-search/core';
import { createFakeClock } from '@tool-search/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { call, createAgent, isPrefixChain, run, say } from './__fixtures__/harness';
import {
  activeToolsOption,
  approval,
  approvalOfEveryCall,
  autoLoad,
  autoLoadRefused,
  badMetaToolInput,
  contextFromMemory,
  contextFromMessages,
  contextLoadInLaterRequest,
  filterOnAgentTool,
  filterPhases,
  forgedUserMessage,
  injectedCatalog,
  keyAndId,
  LONG_DESCRIPTION,
  loadRevoked,
  malformedMemoryContext,
  memoryThread,
  metaToolAnswers,
  metaToolNameCollision,
  numericThreads,
  ordering,
  ownToolAfterLoad,
  type ProcessorFactory,
  repeatedAutoLoadSearch,
  resolvedTools,
  resultBeyondItsCall,
  searchAlone,
  searchedNames,
  searchLoadCall,
  threadContext,
  threads,
  twoCallers,
  withTokenLimiter,
} from './__fixtures__/scenarios';
import { sampleTools } from './__fixtures__/tools';
import { ToolSearchProcessor } from './tool-search-processor';

/**
 * The same end-to-end scenarios, run with ours and with Mastra's own
 * `ToolSearchProcessor` (from `@mastra/core/processors`, 1.71). Where the two
 * agree, both are asserted; where they differ, each side's behaviour is
 * asserted, so a change in either shows up here. The README's
 * table of differences from Mastra's processor is written from this file.
 */
const ours: ProcessorFactory = (options) => new ToolSearchProcessor(options);
const mastra: ProcessorFactory = (options) => new MastraToolSearchProcessor(options);
const S = 'search_tools';
const L = 'load_tool';

afterEach(() => {
  vi.useRealTimers();
});

describe('compatibility with Mastra’s ToolSearchProcessor: where both agree', () => {
  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])('%s: search → load → call, in generate and in stream', async (_, factory) => {
    for (const mode of ['generate', 'stream'] as const) {
      const { steps, log } = await searchLoadCall(factory, mode);
      expect(steps).toEqual([
        [S, L],
        [S, L],
        [S, L, 'getWeather'],
        [S, L, 'getWeather'],
      ]);
      expect(log).toEqual([{ tool: 'getWeather', input: { city: 'Rome' } }]);
    }
  });

  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])('%s: state per thread across calls, threads apart (mastra__threadId and memory)', async (_, factory) => {
    const outcome = await threads(factory, 'generate');
    expect(outcome.sameThread[0]).toEqual([S, L, 'getWeather']);
    expect(outcome.otherThread[0]).toEqual([S, L]);
    expect(outcome.log).toEqual([{ tool: 'getWeather', input: { city: 'Oslo' } }]);
    const memory = await memoryThread(factory, 'generate');
    expect(memory.sameThread).toEqual([[S, L, 'getWeather']]);
    expect(memory.otherThread).toEqual([[S, L]]);
  });

  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])('%s: numeric thread ids in mastra__threadId keep their threads apart', async (_, factory) => {
    // Ours put every numeric id on the shared 'default' thread: one user's loads reached all.
    for (const mode of ['generate', 'stream'] as const) {
      const outcome = await numericThreads(factory, mode);
      expect(outcome.otherThread).toEqual([[S, L]]);
      expect(outcome.sameThread).toEqual([[S, L, 'getWeather']]);
    }
  });

  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])('%s: order is meta-tools, agent tools, loaded tools; the next call keeps it', async (_, factory) => {
    const { first, next } = await ordering(factory, 'generate');
    expect(first.at(-1)).toEqual([S, L, 'clock', 'getWeather', 'sendEmail']);
    expect(next[0]).toEqual([S, L, 'clock', 'getWeather', 'sendEmail']);
    expect(isPrefixChain([...first, ...next])).toBe(true);
  });

  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])("%s: 'context' storage from messages passed in, unloaded when the result leaves", async (_, factory) => {
    const { restoredSteps, trimmedSteps, log } = await contextFromMessages(factory, 'generate');
    expect(restoredSteps[0]).toEqual([S, L, 'getWeather']);
    expect(trimmedSteps[0]).toEqual([S, L]);
    expect(log).toEqual([{ tool: 'getWeather', input: { city: 'Cairo' } }]);
  });

  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])('%s: the three filter phases on catalog tools (the filter sees the tool id)', async (_, factory) => {
    const outcome = await filterPhases(factory, 'generate');
    expect(searchedNames(outcome.hidden.toolRuns)).toEqual([[]]);
    expect(outcome.refused.toolRuns[0]!.result).toMatchObject({ success: false });
    expect(outcome.proSteps.at(-1)).toEqual([S, L, 'premiumReport']);
    expect(outcome.downgradedSteps[0]).toEqual([S, L]);
    expect(outcome.log).toEqual([{ tool: 'premiumReport', input: { quarter: 'Q1' } }]);
    expect(outcome.seen.some((item) => item.toolName === 'premiumReport')).toBe(false);
    expect(searchedNames(outcome.throwing.toolRuns)).toEqual([[]]);
  });

  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])(
    '%s: includeResolvedTools with a dynamic tools function and an MCP-style toolset',
    async (_, factory) => {
      const { steps, log } = await resolvedTools(factory, 'generate');
      expect(steps[0]).toEqual([S, L]);
      expect(steps.at(-1)).toEqual([S, L, 'lookupAccount', 'crm_open_ticket', 'getWeather']);
      expect(log.map((item) => item.tool)).toEqual(['lookupAccount@ada', 'crm_open_ticket', 'getWeather']);
    },
  );

  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])('%s: two callers with the same tool name each get their own instance', async (_, factory) => {
    const { alice, bob } = await twoCallers(factory);
    expect({ alice, bob }).toEqual({ alice: 'alice', bob: 'bob' });
  });

  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])('%s: with TokenLimiter after it', async (_, factory) => {
    const { steps, log } = await withTokenLimiter(factory, 'generate');
    expect(steps.at(-1)).toEqual([S, L, 'sendEmail']);
    expect(log.map((item) => item.tool)).toEqual(['sendEmail']);
  });

  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])('%s: a loaded tool that needs approval runs once approved', async (_, factory) => {
    const outcome = await approval(factory);
    expect(outcome.suspended).toBe('suspended');
    expect(outcome.logBeforeApproval).toEqual([]);
    expect(outcome.log).toEqual(['r1']);
  });

  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])(
    '%s: requireToolApproval: true asks approval for the meta-tools too; a function can exempt them',
    async (_, factory) => {
      const every = await approvalOfEveryCall(factory, true);
      expect(every).toMatchObject({ finishReason: 'suspended', waiting: L, log: [] });
      const exempt = await approvalOfEveryCall(factory, ({ toolName }) => !isMetaToolName(toolName));
      expect(exempt).toMatchObject({ finishReason: 'suspended', waiting: 'getWeather', log: [] });
      expect(exempt.ran).toContain(L);
    },
  );

  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])(
    "%s: a run's activeTools applies after the processor: a loaded tool it does not name is never sent",
    async (_, factory) => {
      const { steps, log } = await activeToolsOption(factory);
      expect(steps).toEqual([
        [S, L, 'clock'],
        [S, L, 'clock'],
        [S, L, 'clock'],
      ]);
      expect(log).toEqual([]);
    },
  );

  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])('%s: an allow-list filter of catalog tools never hides the agent’s own tools', async (_, factory) => {
    const { steps, log } = await filterOnAgentTool(factory, 'generate');
    expect(steps[0]).toEqual([S, L, 'clock']);
    expect(log.map((item) => item.tool)).toEqual(['clock']);
  });
});

describe('compatibility with Mastra’s ToolSearchProcessor: the meta-tools’ answers', () => {
  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])(
    '%s: a long description cut to 147 characters and "...", "loaded successfully", the empty toolNames text',
    async (_, factory) => {
      for (const mode of ['generate', 'stream'] as const) {
        const [search, load, empty] = (await metaToolAnswers(factory, mode)).answers;
        const [found] = (search as { results: { name: string; description: string }[] }).results;
        expect(found).toMatchObject({
          name: 'archiveRecords',
          description: `${LONG_DESCRIPTION.slice(0, 147)}...`,
        });
        expect(load).toMatchObject({
          success: true,
          toolName: 'archiveRecords',
          message: expect.stringContaining('loaded successfully'),
        });
        expect(empty).toEqual({ success: false, message: 'toolNames array must not be empty.' });
      }
    },
  );

  it.each([
    ['ours', ours],
    ['mastra', mastra],
  ])(
    '%s: autoLoad: a search finding a tool it loaded before says it was already loaded',
    async (_, factory) => {
      for (const mode of ['generate', 'stream'] as const) {
        const { answers } = await repeatedAutoLoadSearch(factory, mode);
        expect(answers[0]!.message).toContain('loaded');
        expect(answers[0]!.message).not.toContain('already loaded');
        expect(answers[1]!.message).toContain('already loaded');
      }
    },
  );

  it('ours: the repeated search also lists it under alreadyLoaded, and says it can be called now', async () => {
    const { steps, answers } = await repeatedAutoLoadSearch(ours, 'generate');
    expect(steps[1]).toEqual([S, 'getWeather']);
    expect(answers[1]).toMatchObject({
      message:
        'Found 1 tool(s): getWeather. getWeather was already loaded: call it now. Use these exact names.',
      loaded: ['getWeather'],
      alreadyLoaded: ['getWeather'],
    });
  });
});

describe('compatibility with Mastra’s ToolSearchProcessor: where they differ', () => {
  it('search results: Mastra names a tool by its id (and scores are unbounded); ours by its key, scored 0..1', async () => {
    const theirs = await searchLoadCall(mastra, 'generate');
    const mine = await searchLoadCall(ours, 'generate');
    const [theirResult] = theirs.result.toolRuns;
    const [myResult] = mine.result.toolRuns;
    expect(searchedNames(theirs.result.toolRuns)).toEqual([['get-weather']]);
    expect(searchedNames(mine.result.toolRuns)).toEqual([['getWeather']]);
    expect((theirResult!.result as { results: { score: number }[] }).results[0]!.score).toBeGreaterThan(1);
    const myScore = (myResult!.result as { results: { score: number }[] }).results[0]!.score;
    expect(myScore).toBeGreaterThan(0);
    expect(myScore).toBeLessThanOrEqual(1);
  });

  it('injectCatalog: both list the catalog and the model loads without searching; Mastra lists ids and a tool it cannot load, ours keys and only what it can load', async () => {
    const theirs = await injectedCatalog(mastra, 'generate');
    const mine = await injectedCatalog(ours, 'generate');
    for (const side of [theirs, mine]) {
      expect(side.steps[1]).toEqual([S, L, 'getWeather']);
      expect(side.log).toEqual([{ tool: 'getWeather', input: { city: 'Rome' } }]);
      expect(side.systems[0]).toContain('Available tools:');
      expect(side.systems[0]).not.toContain('translate');
    }
    expect(theirs.systems[0]).toContain('- `get-weather`: Get the current weather');
    expect(theirs.systems[0]).toContain('- `premium_report`: Build a premium sales report');
    expect(mine.systems[0]).toContain('- `getWeather`: Get the current weather');
    expect(mine.systems[0]).not.toContain('premium');
    theirs.processor.clearAllState();
    (mine.processor as ToolSearchProcessor).dispose();
  });

  it('autoLoad: Mastra sends the loaded tool under its id; ours under its key', async () => {
    const theirs = await autoLoad(mastra, 'generate');
    const mine = await autoLoad(ours, 'generate');
    expect(theirs.steps[1]).toEqual([S, 'get-weather']);
    expect(mine.steps[1]).toEqual([S, 'getWeather']);
    // Both run the tool when the model calls the name it was sent.
    expect(theirs.log.map((item) => item.tool)).toEqual(['getWeather']);
    expect(mine.log.map((item) => item.tool)).toEqual(['getWeather']);
  });

  it('a tool loaded by key and by id: Mastra sends it twice, ours once', async () => {
    const theirs = await keyAndId(mastra, 'generate');
    const mine = await keyAndId(ours, 'generate');
    expect(theirs.steps[1]).toEqual([S, L, 'getWeather', 'get-weather']);
    expect(mine.steps[1]).toEqual([S, L, 'getWeather']);
  });

  it("a loaded tool marked for the provider's deferred loading: Mastra sends it still deferred; ours without it", async () => {
    const sentOptions = async (factory: ProcessorFactory) => {
      const catalog = sampleTools();
      const deferred = createTool({
        id: 'get-weather',
        description: catalog.getWeather!.description,
        inputSchema: z.object({ city: z.string() }),
        providerOptions: { anthropic: { deferLoading: true } },
        execute: async () => 'sunny',
      });
      const { agent, definitions } = createAgent({
        processors: [factory({ tools: { ...catalog, getWeather: deferred } })],
        script: [call(L, { toolName: 'getWeather' }), say()],
      });
      await run(agent, 'generate', 'weather?', { requestContext: threadContext('deferred') });
      return definitions[1]!.find((definition) => definition.name === 'getWeather')?.providerOptions;
    };
    expect(await sentOptions(mastra)).toEqual({ anthropic: { deferLoading: true } });
    expect(await sentOptions(ours)).toEqual({ anthropic: {} });
  });

  it("'context' storage: in Mastra a search alone loads its results; in ours only a load does", async () => {
    expect((await searchAlone(mastra, 'generate')).steps[1]).toEqual([S, L, 'get-weather']);
    expect((await searchAlone(ours, 'generate')).steps[1]).toEqual([S, L]);
    // So after search + load, Mastra sends the tool twice (by id from the search, by key from the load).
    const theirs = await contextFromMemory(mastra, 'generate');
    const mine = await contextFromMemory(ours, 'generate');
    expect(theirs.restoredSteps[0]).toEqual([S, L, 'get-weather', 'getWeather']);
    expect(mine.restoredSteps[0]).toEqual([S, L, 'getWeather']);
  });

  it("'context' storage: a user message imitating a load result activates the tool in Mastra, not in ours", async () => {
    const theirs = await forgedUserMessage(mastra, 'generate');
    const mine = await forgedUserMessage(ours, 'generate');
    expect(theirs.steps[0]).toEqual([S, L, 'getWeather']);
    expect(theirs.log.map((item) => item.tool)).toEqual(['getWeather']);
    expect(mine.steps[0]).toEqual([S, L]);
    expect(mine.log).toEqual([]);
  });

  it("a thread's loaded catalog tool and the agent's own tool of that name: Mastra runs the catalog's in a later call; ours the agent's, and says so", async () => {
    const theirs = await ownToolAfterLoad(mastra);
    const mine = await ownToolAfterLoad(ours);
    expect(theirs.log.map((item) => item.tool)).toEqual(['sendEmail']);
    expect(mine.log.map((item) => item.tool)).toEqual(['own sendEmail']);
    expect(mine.events.filter((event) => event.type === 'tool-rejected')).toEqual([
      expect.objectContaining({ toolName: 'sendEmail', reason: 'duplicate-name' }),
    ]);
  });

  it('an agent tool named search_tools replaces Mastra’s meta-tool; ours keeps the real one', async () => {
    const theirs = await metaToolNameCollision(mastra, 'generate');
    const mine = await metaToolNameCollision(ours, 'generate');
    expect(theirs.log).toEqual([{ tool: 'impostor', input: { query: 'weather' } }]);
    expect(mine.log).toEqual([]);
    expect(searchedNames(mine.result.toolRuns)).toEqual([['getWeather']]);
  });

  it('a malformed memory context fails the run in Mastra; ours runs on the default thread', async () => {
    const theirs = await malformedMemoryContext(mastra, 'generate');
    const mine = await malformedMemoryContext(ours, 'generate');
    expect(theirs).toMatchObject({
      ok: false,
      error: expect.stringContaining('Invalid MemoryRequestContext'),
    });
    expect(mine).toMatchObject({ ok: true, text: 'hello' });
  });

  it('malformed meta-tool input and prototype names', async () => {
    const theirs = await badMetaToolInput(mastra, 'generate');
    const mine = await badMetaToolInput(ours, 'generate');
    const results = (outcome: typeof theirs) =>
      outcome.result.toolRuns.map((item) => item.result as Record<string, unknown>);
    const [theirEmpty, theirString, , theirProto] = results(theirs);
    const [myEmpty, myString, , myProto] = results(mine);
    // An empty query.
    expect(theirEmpty!.message).toContain('No tools found matching ""');
    expect(myEmpty!.message).toContain('The query is empty');
    // toolNames given as one string.
    expect(theirString).toMatchObject({ error: true, message: expect.stringContaining('validation failed') });
    expect(myString).toMatchObject({ success: true, loaded: ['getWeather'] });
    // "constructor": Mastra finds Object.prototype.constructor and sends it to the model as a tool.
    expect(theirProto).toMatchObject({ success: true, toolName: 'constructor' });
    expect(theirs.steps.at(-1)).toEqual([S, L, 'constructor']);
    expect(myProto).toMatchObject({ success: false, notFound: ['constructor'] });
  });

  it('an unknown option: Mastra ignores it; ours refuses it, naming the closest option', () => {
    // A misspelt `filter` left every tool unfiltered, and a top-level `topK` the default of 5.
    expect(
      () => new MastraToolSearchProcessor({ tools: sampleTools(), filtre: () => false } as never),
    ).not.toThrow();
    expect(() => new MastraToolSearchProcessor({ tools: sampleTools(), topK: 2 } as never)).not.toThrow();
    expect(() => new ToolSearchProcessor({ tools: sampleTools(), filtre: () => false } as never)).toThrow(
      'unknown option `filtre` of ToolSearchProcessor; did you mean `filter`?',
    );
    expect(() => new ToolSearchProcessor({ tools: sampleTools(), topK: 2 } as never)).toThrow(
      'unknown option `topK` of ToolSearchProcessor; did you mean `search.topK`?',
    );
  });

  it('minScore above 1: Mastra takes it (its scores are unbounded); ours refuses it at construction', () => {
    expect(
      () => new MastraToolSearchProcessor({ tools: sampleTools(), search: { minScore: 5 } }),
    ).not.toThrow();
    expect(() => new ToolSearchProcessor({ tools: sampleTools(), search: { minScore: 5 } })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });

  it("a loaded tool whose 'load' the filter refuses in a later request: Mastra sends it and runs it; ours withholds it", async () => {
    const theirs = await loadRevoked(mastra, 'generate');
    const mine = await loadRevoked(ours, 'generate');
    expect(theirs.steps[0]).toEqual([S, L, 'premiumReport']);
    expect(theirs.log).toEqual([{ tool: 'premiumReport', input: { quarter: 'Q3' } }]);
    expect(mine.steps[0]).toEqual([S, L]);
    expect(mine.log).toEqual([]);
  });

  it("autoLoad and a filter refusing 'load': Mastra's search loads the tool anyway; ours neither lists nor loads it", async () => {
    const theirs = await autoLoadRefused(mastra, 'generate');
    const mine = await autoLoadRefused(ours, 'generate');
    expect(searchedNames(theirs.result.toolRuns)).toEqual([['premium_report']]);
    expect(theirs.steps[1]).toEqual([S, 'premium_report']);
    expect(theirs.log.map((item) => item.tool)).toEqual(['premiumReport']);
    expect(searchedNames(mine.result.toolRuns)[0]).not.toContain('premiumReport');
    expect(mine.steps[1]).not.toContain('premiumReport');
    expect(mine.log).toEqual([]);
  });

  it("'context' storage: a load result naming more than its call asked for: Mastra activates every name; ours only the one asked for", async () => {
    const theirs = await resultBeyondItsCall(mastra, 'generate');
    const mine = await resultBeyondItsCall(ours, 'generate');
    expect(theirs.steps[0]).toEqual([S, L, 'sendEmail', 'getWeather']);
    expect(theirs.log.map((item) => item.tool)).toEqual(['getWeather']);
    expect(mine.steps[0]).toEqual([S, L, 'sendEmail']);
    expect(mine.log).toEqual([]);
  });

  it("'context' storage: a call ends right after a load, and the thread's next call does not send that history: Mastra still sends the tool; ours does not", async () => {
    const theirs = await contextLoadInLaterRequest(mastra, 'generate');
    const mine = await contextLoadInLaterRequest(ours, 'generate');
    expect(theirs.steps[0]).toEqual([S, L, 'getWeather']);
    expect(theirs.log.map((item) => item.tool)).toEqual(['getWeather']);
    expect(mine.steps[0]).toEqual([S, L]);
    expect(mine.log).toEqual([]);
  });

  it('a loaded tool as the step returns it: Mastra returns the tool itself; ours a copy whose execute is guarded, running the tool', async () => {
    const sent = async (factory: ProcessorFactory) => {
      const log: { tool: string; input: unknown }[] = [];
      const tools = sampleTools(log);
      const processor = factory({ tools });
      const step = () =>
        processor.processInputStep!({
          messageList: new MessageList({}),
          requestContext: threadContext('sent-tool'),
          tools: {},
        } as never) as Promise<{ tools: Record<string, { execute: (input: unknown) => Promise<unknown> }> }>;
      await (await step()).tools[L]!.execute({ toolName: 'sendEmail' });
      const loaded = (await step()).tools.sendEmail!;
      await loaded.execute({ to: 'ada@example.com', subject: 'Hi', body: 'Hello' });
      return { same: loaded === (tools.sendEmail as unknown), log };
    };
    expect(await sent(mastra)).toMatchObject({ same: true, log: [{ tool: 'sendEmail' }] });
    expect(await sent(ours)).toMatchObject({ same: false, log: [{ tool: 'sendEmail' }] });
  });

  it('names that collide: Mastra accepts them silently; ours refuses them at construction', () => {
    const tools = sampleTools();
    const clash = { ...tools, 'get-weather': tools.sendEmail };
    expect(() => new MastraToolSearchProcessor({ tools: clash })).not.toThrow();
    expect(() => new ToolSearchProcessor({ tools: clash })).toThrow(/get-weather/);
  });

  it('TTL: Mastra reads Date.now and its timer cannot be stopped; ours takes a clock and disposes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const theirs = new MastraToolSearchProcessor({ tools: sampleTools(), ttl: 60_000 });
    const clock = createFakeClock();
    const mine = new ToolSearchProcessor({ tools: sampleTools(), ttl: 60_000, clock });
    for (const processor of [theirs, mine]) {
      const { agent } = createAgent({
        processors: [processor],
        script: [call('load_tool', { toolName: 'getWeather' }), say()],
      });
      await run(agent, 'generate', 'load', { requestContext: threadContext('ttl') });
    }
    expect(theirs.getStateStats().threadCount).toBe(1);
    expect(mine.getStateStats().threadCount).toBe(1);
    vi.setSystemTime(new Date('2026-01-01T00:01:01Z'));
    expect(theirs.cleanupNow()).toBe(1);
    clock.advance(61_000);
    expect(mine.getStateStats().threadCount).toBe(0);
    expect('dispose' in theirs).toBe(false);
    mine.dispose();
    expect(clock.pendingTimers()).toBe(0);
  });
});
