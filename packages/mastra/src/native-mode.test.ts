// Native mode with the real provider packages: a Mastra Agent whose model is an @ai-sdk/anthropic
// or @ai-sdk/openai model talking to a local server that records every request body.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { Agent } from '@mastra/core/agent';
import { MockMemory } from '@mastra/core/memory';
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
import { afterEach, describe, expect, it } from 'vitest';
import { run } from './__fixtures__/harness';
import { type ExecutionLog, sampleTools } from './__fixtures__/tools';
import { ToolSearchProcessor, type ToolSearchStorage } from './tool-search-processor';

type Provider = 'anthropic' | 'openai';

const servers: FakeProviderServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(script: readonly FakeReply[]): Promise<FakeProviderServer> {
  const server = await startFakeProviderServer({ script });
  servers.push(server);
  return server;
}

function providerModel(provider: Provider, server: FakeProviderServer) {
  return provider === 'anthropic'
    ? createAnthropic({ baseURL: server.anthropicBaseURL, apiKey: 'test' })('claude-sonnet-4-5')
    : createOpenAI({ baseURL: server.openaiBaseURL, apiKey: 'test' }).responses('gpt-5.4');
}

/** Refuses premiumReport at load (search may list it, never refer it). */
const refusePremium = ({ name, phase }: { name: string; phase: string }) =>
  !(name === 'premiumReport' && phase !== 'search');

const CATALOG = ['getWeather', 'sendEmail', 'createIssue', 'premiumReport', 'translateText'];

function agentWith(
  provider: Provider,
  server: FakeProviderServer,
  processor: ToolSearchProcessor<ToolSearchStorage>,
  memory?: MockMemory,
) {
  return new Agent({
    id: 'native-agent',
    name: 'native-agent',
    instructions: 'You are a test agent.',
    model: providerModel(provider, server) as never,
    ...(memory ? { memory } : {}),
    inputProcessors: [processor],
  });
}

function toolArrays(server: FakeProviderServer): string[] {
  return server.requests.map((request) => JSON.stringify(request.body.tools));
}

function resultFor(request: RecordedRequest, toolName: string) {
  return sentToolResults(request).filter((result) => result.toolName === toolName);
}

/** The model's search: a search_tools call (Anthropic), a client-executed tool_search_call (OpenAI). */
function searchReply(provider: Provider): FakeReply {
  return provider === 'anthropic'
    ? { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather report' }, id: 'call_s' }] }
    : { toolSearchCalls: [{ arguments: { query: 'weather report' }, id: 'call_s' }] };
}

/** The name the recorded search result answers: search_tools, or OpenAI's tool_search. */
const searchName = (provider: Provider) => (provider === 'anthropic' ? 'search_tools' : 'tool_search');

const searchThenCall = (provider: Provider): FakeReply[] => [
  searchReply(provider),
  { toolCalls: [{ toolName: 'getWeather', input: { city: 'Rome' }, id: 'call_w' }] },
  'Sunny in Rome.',
];

describe.each<Provider>(['anthropic', 'openai'])('a Mastra Agent in native mode (%s)', (provider) => {
  it.each(['generate', 'stream'] as const)(
    'defers the catalog, refers found tools and refuses a never-found one (%s)',
    async (mode) => {
      const server = await serve([
        ...searchThenCall(provider),
        {
          toolCalls: [{ toolName: 'sendEmail', input: { to: 'bob', subject: 's', body: 'b' }, id: 'call_e' }],
        },
        'Not sent.',
      ]);
      const log: ExecutionLog = [];
      const events: ToolSearchEvent[] = [];
      const processor = new ToolSearchProcessor({
        tools: sampleTools(log),
        native: 'auto',
        filter: refusePremium,
        onEvent: (event) => events.push(event),
      });
      // With memory: the second call holds the first one's search result and its references.
      const agent = agentWith(provider, server, processor, new MockMemory());
      const memory = { thread: 'thread-1', resource: 'user-1' };
      await run(agent, mode, 'Weather in Rome?', { memory });
      await run(agent, mode, 'Email Bob', { memory });
      expect(server.failures).toEqual([]);
      expect(server.requests).toHaveLength(5);
      // One tools array, byte for byte, on every step of both calls: search_tools, then the catalog deferred.
      expect(new Set(toolArrays(server)).size).toBe(1);
      expect(sentTools(server.requests[0]!).map((tool) => [tool.name, tool.deferred])).toEqual([
        [searchName(provider), false],
        ...CATALOG.map((name) => [name, true]),
      ]);
      // The search refers exactly the allowed tools it found, and the model calls one in the same turn.
      const [search] = resultFor(server.requests[1]!, searchName(provider));
      expect(search?.references).toContain('getWeather');
      expect(search?.references).not.toContain('premiumReport');
      expect(log).toEqual([{ tool: 'getWeather', input: { city: 'Rome' } }]);
      // A deferred tool the thread never found does not run: the model gets the guard's message.
      const [refused] = resultFor(server.requests[4]!, 'sendEmail');
      expect(refused?.text).toMatch(/search_tools/);
      const modes = events.filter((event) => event.type === 'mode');
      expect(modes.length).toBeGreaterThan(0);
      expect(modes.every((event) => event.mode === 'native' && event.provider === provider)).toBe(true);
      processor.dispose();
    },
  );

  it('keeps the references of earlier calls in a thread with memory', async () => {
    const server = await serve([
      ...searchThenCall(provider),
      { toolCalls: [{ toolName: 'getWeather', input: { city: 'Oslo' } }] },
      'Rainy.',
    ]);
    const log: ExecutionLog = [];
    const processor = new ToolSearchProcessor({
      tools: sampleTools(log),
      native: 'auto',
      filter: refusePremium,
    });
    const agent = agentWith(provider, server, processor, new MockMemory());
    const memory = { thread: 'thread-1', resource: 'user-1' };
    await run(agent, 'generate', 'Weather in Rome?', { memory });
    await run(agent, 'generate', 'And Oslo?', { memory });
    expect(server.failures).toEqual([]);
    const last = server.requests.at(-1)!;
    expect(resultFor(last, searchName(provider))[0]?.references).toContain('getWeather');
    expect(new Set(toolArrays(server)).size).toBe(1);
    expect(log.map((entry) => entry.tool)).toEqual(['getWeather', 'getWeather']);
    processor.dispose();
  });
});

describe.each<Provider>(['anthropic', 'openai'])(
  "a Mastra Agent in native mode with 'context' storage (%s)",
  (provider) => {
    it('reads the referred tools back from the search result in memory', async () => {
      const server = await serve([
        ...searchThenCall(provider),
        { toolCalls: [{ toolName: 'getWeather', input: { city: 'Oslo' } }] },
        'Rainy.',
      ]);
      const log: ExecutionLog = [];
      const processor = new ToolSearchProcessor({
        tools: sampleTools(log),
        native: 'auto',
        storage: 'context',
        filter: refusePremium,
      });
      const agent = agentWith(provider, server, processor, new MockMemory());
      const memory = { thread: 'thread-ctx', resource: 'user-1' };
      await run(agent, 'generate', 'Weather in Rome?', { memory });
      await run(agent, 'generate', 'And Oslo?', { memory });
      expect(server.failures).toEqual([]);
      expect(new Set(toolArrays(server)).size).toBe(1);
      expect(log.map((entry) => entry.input)).toEqual([{ city: 'Rome' }, { city: 'Oslo' }]);
      processor.dispose();
    });
  },
);

describe('a Mastra Agent in native mode, a later call without the history', () => {
  it('sends the earlier load undeferred for that call (Mastra cannot add a tool mid-conversation)', async () => {
    const server = await serve([
      ...searchThenCall('anthropic'),
      { toolCalls: [{ toolName: 'getWeather', input: { city: 'Oslo' } }] },
      'Rainy.',
    ]);
    const log: ExecutionLog = [];
    const processor = new ToolSearchProcessor({
      tools: sampleTools(log),
      native: 'anthropic',
      filter: refusePremium,
    });
    const agent = agentWith('anthropic', server, processor);
    await run(agent, 'generate', 'Weather in Rome?');
    await run(agent, 'generate', 'And Oslo?');
    expect(server.failures).toEqual([]);
    const later = sentTools(server.requests[3]!);
    expect(later.find((tool) => tool.name === 'getWeather')?.deferred).toBe(false);
    expect(later.filter((tool) => tool.deferred).map((tool) => tool.name)).toEqual(
      CATALOG.filter((name) => name !== 'getWeather'),
    );
    expect(sentToolAdditions(server.requests[3]!)).toEqual([]);
    expect(log.map((entry) => entry.tool)).toEqual(['getWeather', 'getWeather']);
    processor.dispose();
  });
});
