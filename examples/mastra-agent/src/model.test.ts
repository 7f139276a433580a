import { describe, expect, it } from 'vitest';
import { resolveModel } from './model';

const providerOf = (model: unknown) => (model as { provider: string }).provider;

describe('the model', () => {
  it('is the offline planner (a stand-in for an LLM) without a key, or when asked for', async () => {
    const none = await resolveModel('auto', {});
    expect(none.offline).toBe(true);
    expect(none.label).toMatch(/offline planner \(a stand-in for an LLM/);
    expect((await resolveModel('offline', { OPENAI_API_KEY: 'sk-test' })).offline).toBe(true);
  });

  it('is OpenAI with OPENAI_API_KEY, else Anthropic with ANTHROPIC_API_KEY; TOOL_SEARCH_MODEL picks the model', async () => {
    const openai = await resolveModel('auto', { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'test' });
    expect(openai).toMatchObject({ offline: false, label: 'OpenAI gpt-5-mini' });
    expect(providerOf(openai.model)).toMatch(/^openai\./);
    const anthropic = await resolveModel('auto', {
      ANTHROPIC_API_KEY: 'test',
      TOOL_SEARCH_MODEL: 'claude-sonnet-4-5',
    });
    expect(anthropic).toMatchObject({ offline: false, label: 'Anthropic claude-sonnet-4-5' });
    expect(providerOf(anthropic.model)).toMatch(/^anthropic\./);
  });
});
