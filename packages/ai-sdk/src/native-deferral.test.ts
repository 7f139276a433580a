// Native mode against the real provider packages (@ai-sdk/anthropic, @ai-sdk/openai), talking to
// the local fake provider server: every assertion is on the request bodies they sent.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { ToolFilter, ToolSearchEvent } from '@tool-search/core';
import {
  type FakeProviderServer,
  type FakeReply,
  type RecordedRequest,
  sentToolAdditions,
  sentToolResults,
  sentTools,
  startFakeProviderServer,
} from '@tool-search/fake-providers';
import {
  generateText,
  isStepCount,
  type LanguageModel,
  type ModelMessage,
  streamText,
  type Tool,
  tool,
} from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createToolSearch } from './create-tool-search';

type Provider = 'anthropic' | 'openai';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function catalog() {
  const executed = {
    getWeather: vi.fn(async ({ city }: { city: string }) => ({ city, forecast: 'sunny' })),
    getForecast: vi.fn(async () => ({ days: 3 })),
    send_email: vi.fn(async () => ({ sent: true })),
    refund_payment: vi.fn(async () => ({ refunded: true })),
  };
  const tools = {
    getWeather: tool({
      description: 'Current weather for a city',
      inputSchema: z.object({ city: z.string() }),
      execute: executed.getWeather,
    }),
    getForecast: tool({
      description: 'Weather forecast for the next days',
      inputSchema: z.object({ city: z.string() }),
      execute: executed.getForecast,
    }),
    send_email: tool({
      description: 'Send an email message',
      inputSchema: z.object({ to: z.string() }),
      execute: executed.send_email,
    }),
    refund_payment: tool({
      description: 'Refund a card payment',
      inputSchema: z.object({ id: z.string() }),
      execute: executed.refund_payment,
      // The app's own provider options are kept beside the deferral.
      providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
    }),
  };
  return { tools, executed };
}
const CATALOG_NAMES = ['getWeather', 'getForecast', 'send_email', 'refund_payment'];

const getTime = tool({
  description: 'The current time',
  inputSchema: z.object({}),
  execute: async () => '12:00',
});

function modelFor(provider: Provider, fake: FakeProviderServer): LanguageModel {
  return provider === 'anthropic'
    ? createAnthropic({ baseURL: fake.anthropicBaseURL, apiKey: 'test' })('claude-sonnet-4-5')
    : createOpenAI({ baseURL: fake.openaiBaseURL, apiKey: 'test' }).responses('gpt-5.4');
}

/** The scripted model's search: a search_tools call (Anthropic) or a client tool_search call (OpenAI). */
function search(provider: Provider, query: string): FakeReply {
  return provider === 'anthropic'
    ? { toolCalls: [{ toolName: 'search_tools', input: { query } }] }
    : { toolSearchCalls: [{ arguments: { query } }] };
}
const call = (toolName: string, input: unknown): FakeReply => ({ toolCalls: [{ toolName, input }] });

type Run = 'generateText' | 'streamText';

/** One call, by generateText or streamText (the settings' tool types are the tool search's own). */
async function run(how: Run, given: object): Promise<{ text: string; messages: ModelMessage[] }> {
  const settings = given as Parameters<typeof generateText>[0];
  if (how === 'generateText') {
    const result = await generateText(settings);
    return { text: result.text, messages: result.responseMessages };
  }
  const result = streamText({ ...(settings as Parameters<typeof streamText>[0]), onError: () => {} });
  return { text: await result.text, messages: await result.responseMessages };
}

const catalogTools = (request: RecordedRequest) =>
  sentTools(request).filter((sent) => CATALOG_NAMES.includes(sent.name));

describe.each(['anthropic', 'openai'] as const)('native mode with %s', (provider) => {
  it.each(['generateText', 'streamText'] as const)(
    'keeps the tool list byte-identical, refers exactly the allowed found tools and restores them in the next call (%s)',
    async (how) => {
      const fake = (server = await startFakeProviderServer({
        script: [
          search(provider, 'weather forecast'),
          call('getWeather', { city: 'Paris' }),
          'Sunny in Paris.',
          'You are welcome.',
        ],
      }));
      const events: ToolSearchEvent[] = [];
      // getForecast may be searched but not loaded: it is never referred.
      const filter: ToolFilter = ({ toolName, phase }) => !(toolName === 'getForecast' && phase === 'load');
      const { tools, executed } = catalog();
      const toolSearch = createToolSearch({
        tools,
        alwaysOn: { getTime },
        native: 'auto',
        filter,
        onEvent: (event) => events.push(event),
      });
      const model = modelFor(provider, fake);
      const first = await run(how, {
        model,
        ...toolSearch.forCall({ threadId: 'thread-1', model }),
        stopWhen: isStepCount(5),
        prompt: 'Weather in Paris?',
      });
      expect(first.text).toBe('Sunny in Paris.');
      expect(executed.getWeather).toHaveBeenCalledTimes(1);
      const second = await run(how, {
        model,
        ...toolSearch.forCall({ threadId: 'thread-1', model }),
        stopWhen: isStepCount(5),
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          ...first.messages,
          { role: 'user', content: 'Thanks' },
        ],
      });
      expect(second.text).toBe('You are welcome.');
      expect(fake.failures).toEqual([]);
      const requests = fake.requests;
      expect(requests).toHaveLength(4);
      expect(requests.every((request) => request.stream === (how === 'streamText'))).toBe(true);

      // Every catalog tool deferred, the search tool and the agent's own tool not; one list, byte for byte.
      for (const request of requests) {
        expect(catalogTools(request).map(({ name, deferred }) => [name, deferred])).toEqual(
          CATALOG_NAMES.map((name) => [name, true]),
        );
        const others = sentTools(request).filter((sent) => !CATALOG_NAMES.includes(sent.name));
        expect(others.map(({ name, deferred }) => [name, deferred])).toEqual([
          [provider === 'anthropic' ? 'search_tools' : 'tool_search', false],
          ['getTime', false],
        ]);
        expect(JSON.stringify(request.body.tools)).toBe(JSON.stringify(requests[0]!.body.tools));
      }
      if (provider === 'anthropic') {
        const refund = catalogTools(requests[0]!).find((sent) => sent.name === 'refund_payment')!;
        expect(refund.definition.cache_control).toEqual({ type: 'ephemeral' });
      } else {
        expect(sentTools(requests[0]!)[0]!.definition).toMatchObject({
          type: 'tool_search',
          execution: 'client',
        });
      }

      // The search's result refers getWeather (found and allowed), never getForecast (found, not loadable).
      const [searchResult] = sentToolResults(requests[1]!);
      expect(searchResult!.references).toEqual(['getWeather']);
      expect(sentToolAdditions(requests[1]!)).toEqual([]);
      // In the next call, the earlier load comes back as a tool addition, the tool list untouched.
      const additions = sentToolAdditions(requests[3]!);
      expect(additions.map((addition) => addition.names)).toEqual([['getWeather']]);
      expect(
        events
          .filter((event) => event.type === 'mode')
          .map((event) => [event.mode, event.provider, event.reason]),
      ).toEqual([
        ['native', provider, 'supported-provider'],
        ['native', provider, 'supported-provider'],
      ]);
      toolSearch.dispose();
    },
  );

  it('refuses a call to a deferred tool the thread never found, before its execute', async () => {
    const fake = (server = await startFakeProviderServer({
      script: [call('refund_payment', { id: 'p1' }), 'I could not refund it.'],
    }));
    const events: ToolSearchEvent[] = [];
    const { tools, executed } = catalog();
    const toolSearch = createToolSearch({ tools, native: provider, onEvent: (event) => events.push(event) });
    const model = modelFor(provider, fake);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 't' }),
      stopWhen: isStepCount(3),
      prompt: 'Refund p1',
    });
    expect(fake.failures).toEqual([]);
    expect(executed.refund_payment).not.toHaveBeenCalled();
    const [refusal] = sentToolResults(fake.requests[1]!);
    expect(refusal!.text).toMatch(
      /Tool \\?"refund_payment\\?" is not loaded, so it was not run\. Call search_tools/,
    );
    expect(events.filter((event) => event.type === 'deny')).toMatchObject([
      { toolName: 'refund_payment', reason: 'not-loaded' },
    ]);
    expect(events.find((event) => event.type === 'mode')).toMatchObject({
      mode: 'native',
      provider,
      reason: 'requested',
    });
    toolSearch.dispose();
  });

  it('refers at most maxLoadedTools tools', async () => {
    const fake = (server = await startFakeProviderServer({
      script: [search(provider, 'weather forecast email refund'), 'done'],
    }));
    const { tools } = catalog();
    const toolSearch = createToolSearch({ tools, native: provider, maxLoadedTools: 2 });
    const model = modelFor(provider, fake);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 't' }),
      stopWhen: isStepCount(3),
      prompt: 'all',
    });
    expect(fake.failures).toEqual([]);
    const [searchResult] = sentToolResults(fake.requests[1]!);
    expect(searchResult!.references).toHaveLength(2);
    expect(await toolSearch.getLoadedToolNames('t')).toEqual(searchResult!.references);
    toolSearch.dispose();
  });

  it("works with 'context' storage: the next call restores and runs what the history loaded", async () => {
    const fake = (server = await startFakeProviderServer({
      script: [
        search(provider, 'weather'),
        'Found it.',
        call('getWeather', { city: 'Oslo' }),
        'Rain in Oslo.',
      ],
    }));
    const { tools, executed } = catalog();
    const options = { tools, native: provider, storage: 'context', signingSecret: 'secret' } as const;
    const model = modelFor(provider, fake);
    const first = await generateText({
      model,
      ...createToolSearch(options).forCall({ threadId: 't' }),
      stopWhen: isStepCount(3),
      prompt: 'Find weather',
    });
    // Another tool search (another process): all it knows is the history.
    const second = await generateText({
      model,
      ...createToolSearch(options).forCall({ threadId: 't' }),
      stopWhen: isStepCount(3),
      messages: [
        { role: 'user', content: 'Find weather' },
        ...first.responseMessages,
        { role: 'user', content: 'Oslo?' },
      ],
    });
    expect(second.text).toBe('Rain in Oslo.');
    expect(fake.failures).toEqual([]);
    expect(executed.getWeather).toHaveBeenCalledTimes(1);
    const [found] = sentToolResults(fake.requests[1]!);
    expect(found!.references).toContain('getWeather');
    expect(sentToolAdditions(fake.requests[2]!).map((addition) => addition.names)).toEqual([
      found!.references,
    ]);
  });
});

describe('native mode: when it does not apply', () => {
  it('keeps the default mode for a model without deferred loading, and says so', async () => {
    const fake = (server = await startFakeProviderServer({ script: ['hello'] }));
    const events: ToolSearchEvent[] = [];
    const { tools } = catalog();
    const toolSearch = createToolSearch({ tools, native: 'auto', onEvent: (event) => events.push(event) });
    const model = createOpenAI({ baseURL: fake.openaiBaseURL, apiKey: 'test' }).chat('gpt-5.4');
    await expect(
      generateText({ model, ...toolSearch.forCall({ model }), prompt: 'hi', maxRetries: 0 }),
    ).rejects.toThrow();
    expect(events.find((event) => event.type === 'mode')).toMatchObject({
      mode: 'default',
      provider: undefined,
      modelProvider: 'openai.chat',
      reason: 'unsupported-provider',
    });
    const settings = toolSearch.forCall({ model });
    expect(settings.activeTools).toEqual(['search_tools', 'load_tool']);
    expect((settings.tools as Record<string, Tool>).getWeather!.providerOptions).toBeUndefined();
    toolSearch.dispose();
  });

  it("refuses native: 'auto' without the call's model, and an unknown provider", () => {
    const { tools } = catalog();
    expect(() => createToolSearch({ tools, native: 'auto' }).forCall({})).toThrow(
      /pass it to forCall\(\{ model \}\)/,
    );
    expect(() => createToolSearch({ tools, native: 'gemini' as never })).toThrow(
      /native must be 'auto', 'anthropic' or 'openai', got "gemini"/,
    );
  });
});
