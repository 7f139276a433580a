import { createRequire } from 'node:module';
import type { ToolDescriptor } from '@tool-search/core';
import { generateText, jsonSchema, type Tool, tool, toolSearch } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

/** The installed `ai` version, for the report. */
export const AI_SDK_VERSION: string = (
  createRequire(import.meta.url)('ai/package.json') as { version: string }
).version;

export interface AiSdkToolSearchPeer {
  readonly name: 'ai-sdk-tool-search';
  readonly version: string;
  /** The names `toolSearch()` returns for each query, in its order (at most `maxResults`). */
  searchMany(queries: readonly string[]): Promise<string[][]>;
  search(query: string): Promise<string[]>;
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** Queries sent per generateText call (as parallel search calls in one step). */
const BATCH = 200;

/**
 * The AI SDK's built-in `toolSearch()` with its default ranking, driven the way a user drives it:
 * the descriptors become AI SDK tools with `deferLoading: true`, next to `search: toolSearch()`,
 * and a real `generateText` runs with the SDK's `MockLanguageModelV4` calling `search` with each
 * query. The names are read from the search tool's results. `maxResults` (default 10, for R@10)
 * only cuts the list; the SDK documents that it does not change matching or ranking.
 */
export function createAiSdkToolSearchPeer(
  descriptors: readonly ToolDescriptor[],
  options: { maxResults?: number } = {},
): AiSdkToolSearchPeer {
  const tools: Record<string, Tool> = {};
  for (const descriptor of descriptors) {
    const entry = tool({
      deferLoading: true,
      inputSchema: jsonSchema(
        (descriptor.parameters ?? { type: 'object', properties: {} }) as Parameters<typeof jsonSchema>[0],
      ),
      execute: async () => null,
      ...(descriptor.description === undefined ? {} : { description: descriptor.description }),
    });
    Object.defineProperty(tools, descriptor.name, { value: entry, enumerable: true, configurable: true });
  }
  const searchName = uniqueName('search', tools);
  Object.defineProperty(tools, searchName, {
    value: toolSearch({ maxResults: options.maxResults ?? 10 }),
    enumerable: true,
  });

  async function searchBatch(queries: readonly string[]): Promise<string[][]> {
    let step = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () =>
        step++ === 0
          ? {
              content: queries.map((query, index) => ({
                type: 'tool-call' as const,
                toolCallId: `q${index}`,
                toolName: searchName,
                input: JSON.stringify({ query }),
              })),
              finishReason: { unified: 'tool-calls' as const, raw: undefined },
              usage,
              warnings: [],
            }
          : { content: [], finishReason: { unified: 'stop' as const, raw: undefined }, usage, warnings: [] },
    });
    const result = await generateText({ model, tools, stopWhen: () => true, prompt: 'search' });
    const byCall = new Map<string, string[]>();
    for (const part of result.steps[0]!.content) {
      if (part.type === 'tool-result' && part.toolName === searchName) {
        byCall.set(
          part.toolCallId,
          (part.output as { tools: Array<{ name: string }> }).tools.map((hit) => hit.name),
        );
      } else if (part.type === 'tool-error') {
        byCall.set(part.toolCallId, []); // e.g. an empty query, which its input schema refuses
      }
    }
    return queries.map((_, index) => byCall.get(`q${index}`) ?? []);
  }

  return {
    name: 'ai-sdk-tool-search',
    version: AI_SDK_VERSION,
    async searchMany(queries) {
      const ranked: string[][] = [];
      for (let start = 0; start < queries.length; start += BATCH) {
        ranked.push(...(await searchBatch(queries.slice(start, start + BATCH))));
      }
      return ranked;
    },
    async search(query) {
      return (await searchBatch([query]))[0]!;
    },
  };
}

/** Ranked names for one query from the AI SDK's built-in `toolSearch()` (builds the tool set each time). */
export async function rankWithAiSdkToolSearch(
  descriptors: readonly ToolDescriptor[],
  query: string,
  options: { maxResults?: number } = {},
): Promise<string[]> {
  return createAiSdkToolSearchPeer(descriptors, options).search(query);
}

function uniqueName(base: string, taken: Record<string, unknown>): string {
  let name = base;
  for (let index = 2; Object.hasOwn(taken, name); index++) name = `${base}_${index}`;
  return name;
}
