import { createOpenAI } from '@ai-sdk/openai';
import { describe, expect, it } from 'vitest';
import { createOfflineModel } from './offline-model';
import { capturePrompts, type ProviderPrompt, toOpenAIChatMessages } from './prompt-capture';

const prompt: ProviderPrompt = [
  { role: 'system', content: 'You are helpful.\n\nSearch, then load.' },
  { role: 'user', content: [{ type: 'text', text: 'weather in Lisbon' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Searching.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'search_tools', input: { query: 'weather' } },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'search_tools',
        output: { type: 'json', value: { results: [{ name: 'get_weather_forecast', score: 0.8 }] } },
      },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'c2', toolName: 'load_tool', input: { toolName: 'x' } },
      { type: 'tool-call', toolCallId: 'c3', toolName: 'get_timezone', input: { city: 'Lisbon' } },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c2',
        toolName: 'load_tool',
        output: { type: 'text', value: 'loaded' },
      },
      {
        type: 'tool-result',
        toolCallId: 'c3',
        toolName: 'get_timezone',
        output: { type: 'error-text', value: 'city: unknown' },
      },
    ],
  },
];

describe('toOpenAIChatMessages', () => {
  it("is what @ai-sdk/openai's chat model sends for the same prompt", async () => {
    // The real provider, answered by a stand-in fetch: its request body's messages are what OpenAI receives.
    const bodies: { messages: unknown }[] = [];
    const openai = createOpenAI({
      apiKey: 'test',
      fetch: async (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return new Response(
          JSON.stringify({
            id: 'r1',
            created: 0,
            model: 'gpt-4o-mini',
            choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
          { headers: { 'content-type': 'application/json' } },
        );
      },
    });
    await openai.chat('gpt-4o-mini').doGenerate({ prompt });
    expect(bodies).toHaveLength(1);
    expect(toOpenAIChatMessages(prompt)).toEqual(bodies[0]!.messages);
  });

  it('capturePrompts reports each call’s messages before the model runs, and leaves the model as it is', async () => {
    const model = createOfflineModel();
    const seen: unknown[] = [];
    const captured = capturePrompts(model, (messages) => seen.push(messages));
    await captured.doGenerate({ prompt: prompt.slice(0, 2) });
    expect(seen).toEqual([
      [
        { role: 'system', content: 'You are helpful.\n\nSearch, then load.' },
        { role: 'user', content: 'weather in Lisbon' },
      ],
    ]);
    expect(model.doGenerateCalls[0]!.prompt).toEqual(prompt.slice(0, 2));
    expect(capturePrompts('openai/gpt-5-mini', () => undefined)).toBe('openai/gpt-5-mini');
  });
});
