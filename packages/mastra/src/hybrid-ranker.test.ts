import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModelRouterEmbeddingModel } from '@mastra/core/llm';
import { createAiSdkEmbedder } from '@tool-search/ai-sdk';
import { createHybridRanker, type Embedder } from '@tool-search/core';
import { conceptVectors } from '@tool-search/core/testing';
import { MockEmbeddingModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAgent, type Mode, run, say } from './__fixtures__/harness';
import { sampleTools } from './__fixtures__/tools';
import { createMastraEmbedder } from './mastra-embedder';
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

const REQUEST = 'will I need an umbrella tomorrow?';

/** The first tool `search_tools` finds for REQUEST in a real Agent whose processor ranks with `embedder`. */
async function firstFound(embedder: Embedder, mode: Mode): Promise<string | undefined> {
  const processor = new ToolSearchProcessor({
    tools: sampleTools(),
    ranker: createHybridRanker({ embedder, weight: 0.6 }),
  });
  const { agent } = createAgent({
    processors: [processor],
    script: [call('search_tools', { query: REQUEST }), say()],
  });
  const result = await run(agent, mode, 'Do I need an umbrella?');
  processor.dispose();
  const search = result.toolRuns.find((entry) => entry.toolName === 'search_tools');
  return (search?.result as { results: { name: string }[] } | undefined)?.results[0]?.name;
}

describe('ToolSearchProcessor with the hybrid ranker and a Mastra embedding model', () => {
  let endpoint: Awaited<ReturnType<typeof startEmbeddingServer>>;
  const routerModel = () =>
    new ModelRouterEmbeddingModel({
      providerId: 'local',
      modelId: 'concepts',
      url: endpoint.url,
      apiKey: 'test',
    });
  beforeAll(async () => {
    endpoint = await startEmbeddingServer();
  });
  afterAll(() => {
    endpoint.server.close();
  });

  it('finds a tool that shares no word with the request, through ModelRouterEmbeddingModel and the AI SDK', async () => {
    const before = endpoint.inputs.length;
    expect(await firstFound(createAiSdkEmbedder({ model: routerModel() }), 'generate')).toBe('getWeather');
    // The catalog in one request when the processor was built, then the search's texts.
    const calls = endpoint.inputs.slice(before);
    expect(calls[0]).toHaveLength(5);
    expect(calls.slice(1).flat()).toContain(REQUEST);
  });

  it('does the same through createMastraEmbedder, without the AI SDK, in batches the model accepts', async () => {
    const model = routerModel();
    model.maxEmbeddingsPerCall = 2;
    const before = endpoint.inputs.length;
    expect(await firstFound(createMastraEmbedder({ model }), 'stream')).toBe('getWeather');
    // The five tools in calls of at most two texts, then the request.
    const calls = endpoint.inputs.slice(before);
    expect(calls.slice(0, 3).map((values) => values.length)).toEqual([2, 2, 1]);
    expect(calls.flat()).toContain(REQUEST);
  });
});

describe('ToolSearchProcessor with the hybrid ranker and an AI SDK embedding model with a byte limit', () => {
  it.each(['generate', 'stream'] as const)(
    '%s: createMastraEmbedder keeps every call within the model’s maxInputBytesPerCall, as embedMany does',
    async (mode) => {
      // OpenAI's embedding models accept at most 300,000 bytes of input per call (their
      // `maxInputBytesPerCall`), far fewer than 2,048 long tool texts: one call with all of them
      // failed on every search, and the hybrid ranker never ranked.
      const limit = 120;
      const model = new MockEmbeddingModelV4({
        maxEmbeddingsPerCall: 2048,
        maxInputBytesPerCall: limit,
        doEmbed: async ({ values }) => {
          const bytes = values.reduce((sum, value) => sum + Buffer.byteLength(value), 0);
          if (values.length > 1 && bytes > limit) throw new Error(`input too large: ${bytes} bytes`);
          return { embeddings: values.map(conceptVector), warnings: [] };
        },
      });
      const errors: unknown[] = [];
      const processor = new ToolSearchProcessor({
        tools: sampleTools(),
        ranker: createHybridRanker({
          embedder: createMastraEmbedder({ model }),
          weight: 0.6,
          onError: (error) => errors.push(error),
        }),
      });
      const { agent } = createAgent({
        processors: [processor],
        script: [call('search_tools', { query: REQUEST }), say()],
      });
      const result = await run(agent, mode, 'Do I need an umbrella?');
      processor.dispose();
      expect(errors).toEqual([]);
      const search = result.toolRuns.find((entry) => entry.toolName === 'search_tools');
      expect(search?.result).toMatchObject({ results: [{ name: 'getWeather' }] });
      // The five tools' texts (each under the limit) in several calls, every one within it.
      expect(model.doEmbedCalls.length).toBeGreaterThan(2);
      for (const { values } of model.doEmbedCalls) {
        expect(values.reduce((sum, value) => sum + Buffer.byteLength(value), 0)).toBeLessThanOrEqual(limit);
      }
    },
  );
});
