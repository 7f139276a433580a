import { Agent } from '@mastra/core/agent';
import { RequestContext } from '@mastra/core/request-context';
import { createMetaToolDefinitions, toolSearchInstructions } from '@tool-search/core';
import { type ModelOption, resolveModel } from '@tool-search/example-ai-sdk-agent';
import {
  createTraceRecorder,
  type ExampleAgent,
  type ExampleAgentOptions,
  type TraceRecorder,
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
  // One request at a time: the trace of the running request receives the events and tool runs.
  let active: TraceRecorder | undefined;
  const toolSearch = new ToolSearchProcessor({
    tools: createCatalogTools((run) => active?.recordCall(run)),
    ranker: options.ranker,
    onEvent: (event) => active?.onEvent(event),
  });
  const agent = new Agent({
    id: 'example-assistant',
    name: 'example-assistant',
    instructions: 'You are a helpful assistant with access to many tools.',
    // Mastra runs AI SDK provider models (LanguageModelV4) as they are.
    model: model as never,
    inputProcessors: [toolSearch],
  });
  let requests = 0;
  let queue: Promise<unknown> = Promise.resolve();

  const run = async (request: string, threadId: string) => {
    const recorder = createTraceRecorder({
      request,
      framework: 'Mastra',
      model: label,
      threadId,
      definitions: createMetaToolDefinitions(),
      instructions: toolSearchInstructions(),
    });
    active = recorder;
    const started = performance.now();
    try {
      // The processor reads the thread from `mastra__threadId` (or from the agent's memory thread).
      const requestContext = new RequestContext();
      requestContext.set('mastra__threadId', threadId);
      const result = await agent.generate(request, { requestContext, maxSteps: options.maxSteps ?? 10 });
      return recorder.finish({ answer: result.text, durationMs: performance.now() - started });
    } finally {
      active = undefined;
    }
  };

  return {
    framework: 'Mastra',
    model: label,
    offline,
    ask(request, askOptions = {}) {
      const threadId = askOptions.threadId ?? `mastra-${++requests}`;
      const next = queue.then(() => run(request, threadId));
      queue = next.catch(() => undefined);
      return next;
    },
    dispose: async () => {
      toolSearch.dispose();
    },
  };
}
