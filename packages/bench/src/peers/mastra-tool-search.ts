import { createRequire } from 'node:module';
import { MessageList } from '@mastra/core/agent';
import { type ProcessInputStepArgs, ToolSearchProcessor } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { createTool } from '@mastra/core/tools';
import type { ToolDescriptor } from '@tool-search/core';

process.env.MASTRA_TELEMETRY_DISABLED ??= '1';

/** The installed `@mastra/core` version, for the report. */
export const MASTRA_VERSION: string = (
  createRequire(import.meta.url)('@mastra/core/package.json') as { version: string }
).version;

type MastraTool = ReturnType<typeof createTool>;
type SearchToolsResult = { results?: { name: string; score: number }[] };
type SearchTool = { execute?: (input: never, context: never) => Promise<unknown> };

/**
 * Mastra tools for the descriptors, as a user writes them: `createTool({ id, description, execute })`.
 * No input schema: Mastra's search reads only the id and the description, and a schema per tool
 * would only slow the set-up of a 100k-tool catalog.
 */
export function toMastraTools(descriptors: readonly ToolDescriptor[]): Record<string, MastraTool> {
  const tools: Record<string, MastraTool> = {};
  for (const descriptor of descriptors) {
    const entry = createTool({
      id: descriptor.name,
      description: descriptor.description ?? '',
      execute: async () => null,
    });
    Object.defineProperty(tools, descriptor.name, { value: entry, enumerable: true, configurable: true });
  }
  return tools;
}

/** The arguments an Agent hands `processInputStep` at the first step of a thread's request. */
export function firstStepArgs(options: { threadId: string; text: string; tools?: Record<string, unknown> }) {
  const requestContext = new RequestContext();
  requestContext.set('mastra__threadId', options.threadId);
  const messageList = new MessageList({ threadId: options.threadId });
  messageList.add({ role: 'user', content: options.text }, 'input');
  return {
    messageList,
    messages: messageList.get.all.db(),
    requestContext,
    stepNumber: 0,
    steps: [],
    systemMessages: [],
    state: {},
    retryCount: 0,
    tools: options.tools ?? {},
    abort: (() => {
      throw new Error('the bench does not abort');
    }) as never,
  } as unknown as ProcessInputStepArgs;
}

export interface MastraToolSearchPeer {
  readonly name: 'mastra-tool-search';
  readonly version: string;
  /** The names Mastra's `search_tools` returns for the query, in its order (at most `topK`). */
  search(query: string): Promise<string[]>;
}

/**
 * Mastra's own `ToolSearchProcessor` (`@mastra/core/processors`) driven as its Agent drives it:
 * built over the catalog (`new ToolSearchProcessor({ tools, search: { topK } })`, which builds its
 * BM25 index), one `processInputStep` with the arguments of a thread's first step, then the
 * `search_tools` tool it returns is executed with each query, as the model's tool call would be.
 */
export async function createMastraToolSearchPeer(
  descriptors: readonly ToolDescriptor[],
  options: { topK?: number; tools?: Record<string, MastraTool> } = {},
): Promise<MastraToolSearchPeer & { readonly processor: ToolSearchProcessor }> {
  const processor = new ToolSearchProcessor({
    tools: options.tools ?? toMastraTools(descriptors),
    search: { topK: options.topK ?? 10 },
  });
  return { ...(await searchToolOf(processor)), processor };
}

/** The search of an already built processor (so the build can be timed apart from the step). */
export async function searchToolOf(processor: ToolSearchProcessor): Promise<MastraToolSearchPeer> {
  const step = await processor.processInputStep(firstStepArgs({ threadId: 'bench', text: 'find me a tool' }));
  const searchTool = step.tools.search_tools as unknown as SearchTool;
  if (typeof searchTool?.execute !== 'function') throw new Error('Mastra did not return a search_tools tool');
  const execute = searchTool.execute;
  return {
    name: 'mastra-tool-search',
    version: MASTRA_VERSION,
    async search(query) {
      const output = (await execute({ query } as never, {} as never)) as SearchToolsResult;
      return (output.results ?? []).map((result) => result.name);
    },
  };
}
