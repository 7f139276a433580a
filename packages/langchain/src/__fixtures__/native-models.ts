import { ChatAnthropic } from '@langchain/anthropic';
import { ChatOpenAI } from '@langchain/openai';
import type { FakeProviderServer } from '@tool-search/fake-providers';

export type Provider = 'anthropic' | 'openai';

/** The provider's real chat model, talking to the local fake provider server (OpenAI: Responses API). */
export function chatModel(provider: Provider, server: FakeProviderServer, streaming = false) {
  return provider === 'anthropic'
    ? new ChatAnthropic({
        model: 'claude-sonnet-4-5',
        apiKey: 'test',
        anthropicApiUrl: server.url,
        streaming,
        maxRetries: 0,
      })
    : new ChatOpenAI({
        model: 'gpt-5.4',
        apiKey: 'test',
        useResponsesApi: true,
        configuration: { baseURL: server.openaiBaseURL },
        streaming,
        maxRetries: 0,
      });
}
