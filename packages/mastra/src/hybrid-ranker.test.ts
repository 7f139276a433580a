import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModelRouterEmbeddingModel } from '@mastra/core/llm';
import { createAiSdkEmbedder } from '@tool-search/ai-sdk';
import { createHybridRanker } from '@tool-search/core';
import { conceptVectors } from '@tool-search/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAgent, run, say } from './__fixtures__/harness';
import { sampleTools } from './__fixtures__/tools';
import { ToolSearchProcessor } from './tool-search-processor';

// ai 7 serves Mastra's v2 embedding models in a compatibility mode, and says so once.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** Concept axes: texts about the same thing point the same way, whatever their words. */
const conceptVector = conceptVectors({ weather: 0, umbrella: 0, rain: 0, email: 1, message: 1 });

/**
 * An OpenAI-compatible embeddings endpoint on localhost (what Ollama, LM Studio or a gateway
 * serve), recording each request's inputs.
 */
function startEmbeddingServer(): Promise<{ server: Server; url: string; inputs: string[][] }> {
  const inputs: string[][] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const { input } = JSON.parse(body) as { input: string | string[] };
      const values = Array.isArray(input) ? input : [input];
      inputs.push(values);
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          object: 'list',
          data: values.map((value, index) => ({
            object: 'embedding',
            index,
            embedding: conceptVector(value),
          })),
          model: 'concepts',
          usage: { prompt_tokens: values.length, total_tokens: values.length },
        }),
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, inputs }),
    ),
  );
}

describe('ToolSearchProcessor with the hybrid ranker and a Mastra embedding model', () => {
  let endpoint: Awaited<ReturnType<typeof startEmbeddingServer>>;
  beforeAll(async () => {
    endpoint = await startEmbeddingServer();
  });
  afterAll(() => {
    endpoint.server.close();
  });

  it('finds a tool that shares no word with the request, through ModelRouterEmbeddingModel', async () => {
    const model = new ModelRouterEmbeddingModel({
      providerId: 'local',
      modelId: 'concepts',
      url: endpoint.url,
      apiKey: 'test',
    });
    const processor = new ToolSearchProcessor({
      tools: sampleTools(),
      ranker: createHybridRanker({ embedder: createAiSdkEmbedder({ model }), weight: 0.6 }),
    });
    const { agent } = createAgent({
      processors: [processor],
      script: [call('search_tools', { query: 'will I need an umbrella tomorrow?' }), say()],
    });
    const result = await run(agent, 'generate', 'Do I need an umbrella?');
    const search = result.toolRuns.find((entry) => entry.toolName === 'search_tools');
    const found = search?.result as { results: { name: string }[] } | undefined;
    expect(found?.results[0]?.name).toBe('getWeather');
    // The catalog in one request when the processor was built, then the search's texts.
    expect(endpoint.inputs[0]).toHaveLength(5);
    expect(endpoint.inputs.slice(1).flat()).toContain('will I need an umbrella tomorrow?');
    processor.dispose();
  });
});
