import { Agent } from '@mastra/core/agent';
import { RequestContext } from '@mastra/core/request-context';
import { createMetaToolDefinitions, toolSearchInstructions } from '@tool-search/core';
import { capturePrompts, type ModelOption, resolveModel } from '@tool-search/example-ai-sdk-agent';
import {
  createTracedRequests,
  type ExampleAgent,
  type ExampleAgentOptions,
} from '@tool-search/example-catalog';
import { ToolSearchProcessor } from '@tool-search/mastra';
import { createCatalogTools } from './catalog-tools';

// An offline example sends no usage telemetry (Mastra's is on by default); set it to 0 to allow it.
process.env.MASTRA_TELEMETRY_DISABLED ??= '1';

export type MastraAgentOptions = ExampleAgentOptions<ModelOption>;

/**
 * A Mastra `Agent` over the 224-tool example catalog with tool search: the catalog goes to
 * `ToolSearchProcessor` (hidden until loaded), the agent keeps no tools of its own, and every
 * request returns its trace.
 */
export async function createMastraAgent(options: MastraAgentOptions = {}): Promise<ExampleAgent> {
  const { model, label, offline } = await resolveModel(options.model);
  const toolSearch = new ToolSearchProcessor({
    tools: createCatalogTools((run) => requests.active()?.recordCall(run)),
    ranker: options.ranker,
    onEvent: (event) => requests.active()?.onEvent(event),
  });
  const agent = new Agent({
    id: 'example-assistant',
    name: 'example-assistant',
    instructions: 'You are a helpful assistant with access to many tools.',
    // Mastra runs AI SDK provider models (LanguageModelV4) as they are. Each model call reports its
    // messages to the trace, which counts what tool search added to them.
    model: capturePrompts(model, (messages) => requests.active()?.recordPrompt(messages)) as never,
    inputProcessors: [toolSearch],
  });
  const requests = createTracedRequests({
    framework: 'Mastra',
    model: label,
    threadPrefix: 'mastra',
    definitions: createMetaToolDefinitions(),
    instructions: toolSearchInstructions(),
    answer: async (request, threadId) => {
      // The processor reads the thread from `mastra__threadId` (or from the agent's memory thread).
      const requestContext = new RequestContext();
      requestContext.set('mastra__threadId', threadId);
      const result = await agent.generate(request, { requestContext, maxSteps: options.maxSteps ?? 10 });
      return result.text;
    },
  });

  return {
    framework: 'Mastra',
    model: label,
    offline,
    ask: requests.ask,
    dispose: async () => {
      toolSearch.dispose();
    },
  };
}
