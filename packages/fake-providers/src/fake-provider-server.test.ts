import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount, streamText, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type FakeProviderServer, type FakeScript, startFakeProviderServer } from './fake-provider-server';
import { lastUserText, sentToolAdditions, sentToolResults, sentTools } from './read-request';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: FakeScript) {
  server = await startFakeProviderServer({ script });
  return server;
}

const weather = tool({
  description: 'Current weather for a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, forecast: 'sunny' }),
  providerOptions: { anthropic: { deferLoading: true }, openai: { deferLoading: true } },
});

function modelFor(provider: 'anthropic' | 'openai', fake: FakeProviderServer) {
  return provider === 'anthropic'
    ? createAnthropic({ baseURL: fake.anthropicBaseURL, apiKey: 'test' })('claude-sonnet-4-5')
    : createOpenAI({ baseURL: fake.openaiBaseURL, apiKey: 'test' }).responses('gpt-5.4');
}

describe.each(['anthropic', 'openai'] as const)('%s wire format', (provider) => {
  const script = [
    { text: 'Looking.', toolCalls: [{ toolName: 'weather', input: { city: 'Paris' } }] },
    'Sunny in Paris.',
  ];

  it.each(['generateText', 'streamText'] as const)(
    'drives a tool loop through %s and records each body',
    async (call) => {
      const fake = await start(script);
      const settings = {
        model: modelFor(provider, fake),
        tools: { weather },
        stopWhen: isStepCount(3),
        prompt: 'Weather in Paris?',
      };
      const text =
        call === 'generateText'
          ? (await generateText(settings)).text
          : await (async () => {
              const result = streamText({ ...settings, onError: () => {} });
              return result.text;
            })();
      expect(text).toBe('Sunny in Paris.');
      expect(fake.failures).toEqual([]);
      expect(fake.requests.map((request) => [request.provider, request.stream])).toEqual([
        [provider, call === 'streamText'],
        [provider, call === 'streamText'],
      ]);
      const [first, second] = fake.requests;
      expect(JSON.parse(first!.raw)).toEqual(first!.body);
      expect(sentTools(first!)).toMatchObject([{ name: 'weather', deferred: true }]);
      expect(lastUserText(first!)).toBe('Weather in Paris?');
      expect(sentToolResults(second!)).toEqual([
        expect.objectContaining({
          toolName: 'weather',
          text: expect.stringContaining('sunny'),
          references: [],
        }),
      ]);
      expect(sentToolAdditions(second!)).toEqual([]);
    },
  );

  it('answers a function of the request, and an error status once the queue is empty', async () => {
    const fake = await start((request) => `echo: ${lastUserText(request)}`);
    const result = await generateText({ model: modelFor(provider, fake), prompt: 'hello' });
    expect(result.text).toBe('echo: hello');

    const empty = await startFakeProviderServer({ script: [] });
    try {
      await expect(
        generateText({ model: modelFor(provider, empty), prompt: 'x', maxRetries: 0 }),
      ).rejects.toThrow(/no reply left/);
      expect(empty.failures).toEqual([expect.stringContaining('no reply left')]);
    } finally {
      await empty.close();
    }
  });
});

describe('provider-native shapes the readers understand', () => {
  it('Anthropic: tool_reference blocks in a result and tool_addition system messages', async () => {
    const fake = await start([{ toolCalls: [{ toolName: 'finder', input: {} }] }, 'done']);
    const finder = tool({
      description: 'finds',
      inputSchema: z.object({}),
      execute: async () => ({ found: ['weather'] }),
      toModelOutput: () => ({
        type: 'content',
        value: [
          { type: 'text', text: 'found weather' },
          { type: 'custom', providerOptions: { anthropic: { type: 'tool-reference', toolName: 'weather' } } },
        ],
      }),
    });
    await generateText({
      model: modelFor('anthropic', fake),
      tools: { finder, weather },
      stopWhen: isStepCount(3),
      allowSystemInMessages: true,
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'system',
          content: '',
          providerOptions: { anthropic: { toolChanges: [{ type: 'tool_addition', toolName: 'weather' }] } },
        },
      ],
    });
    expect(fake.failures).toEqual([]);
    const [first, second] = fake.requests;
    expect(sentToolAdditions(first!)).toEqual([{ position: 1, names: ['weather'] }]);
    expect(sentToolResults(second!)).toEqual([
      expect.objectContaining({ toolName: 'finder', text: 'found weather', references: ['weather'] }),
    ]);
  });

  it('OpenAI: additional_tools items and a client-executed tool_search round trip', async () => {
    const { openai } = await import('@ai-sdk/openai');
    const fake = await start([{ toolSearchCalls: [{ arguments: { query: 'weather' } }] }, 'done']);
    const definition = {
      type: 'function',
      name: 'weather',
      parameters: { type: 'object' },
      defer_loading: true,
    };
    await generateText({
      model: modelFor('openai', fake),
      tools: {
        tool_search: openai.tools.toolSearch({
          execution: 'client',
          description: 'search tools',
          parameters: { type: 'object', properties: { query: { type: 'string' } } },
          execute: async () => ({ tools: [definition] }),
        }),
        weather,
      },
      stopWhen: isStepCount(3),
      allowSystemInMessages: true,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'system', content: '', providerOptions: { openai: { additionalTools: [definition] } } },
      ],
    });
    expect(fake.failures).toEqual([]);
    const [first, second] = fake.requests;
    expect(sentTools(first!).map((sent) => sent.name)).toEqual(['tool_search', 'weather']);
    expect(sentToolAdditions(first!)).toEqual([{ position: 1, names: ['weather'] }]);
    expect(sentToolResults(second!)).toEqual([
      expect.objectContaining({ toolName: 'tool_search', references: ['weather'] }),
    ]);
  });
});
