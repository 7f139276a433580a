import { createMetaToolDefinitions, toolSearchInstructions } from '@tool-search/core';
import {
  createTraceRecorder,
  type ExampleAgent,
  type ExampleAgentOptions,
  type TraceRecorder,
} from '@tool-search/example-catalog';
import { toolSearchMiddleware } from '@tool-search/langchain';
import { createAgent, HumanMessage, toolErrorMiddleware } from 'langchain';
import { createCatalogTools } from './catalog-tools';
import { type ModelOption, resolveModel } from './model';

export type LangChainAgentOptions = ExampleAgentOptions<ModelOption>;

/**
 * A LangChain `createAgent` over the 224-tool example catalog with tool search: the catalog goes
 * to `toolSearchMiddleware` (the agent registers only the meta-tools), and every request returns
 * its trace.
 */
export async function createLangChainAgent(options: LangChainAgentOptions = {}): Promise<ExampleAgent> {
  const { model, label, offline } = await resolveModel(options.model);
  // One request at a time: the trace of the running request receives the events and tool runs.
  let active: TraceRecorder | undefined;
  const toolSearch = toolSearchMiddleware({
    tools: createCatalogTools((run) => active?.recordCall(run)),
    ranker: options.ranker,
    onEvent: (event) => active?.onEvent(event),
  });
  const agent = createAgent({
    model,
    systemPrompt: 'You are a helpful assistant with access to many tools.',
    middleware: [
      toolSearch,
      // A tool that throws (e.g. on arguments its schema rejects) answers the model with an error
      // message instead of ending the run.
      toolErrorMiddleware({
        onError: (error) => `Error: ${error instanceof Error ? error.message : String(error)}`,
      }),
    ],
  });
  let requests = 0;
  let queue: Promise<unknown> = Promise.resolve();

  const run = async (request: string, threadId: string) => {
    const recorder = createTraceRecorder({
      request,
      framework: 'LangChain',
      model: label,
      threadId,
      definitions: createMetaToolDefinitions(),
      instructions: toolSearchInstructions(),
    });
    active = recorder;
    const started = performance.now();
    try {
      const result = await agent.invoke(
        { messages: [new HumanMessage(request)] },
        // The middleware keeps each thread's loaded tools under `thread_id`.
        { configurable: { thread_id: threadId }, recursionLimit: 2 * (options.maxSteps ?? 10) + 1 },
      );
      const answer = result.messages.at(-1)?.text ?? '';
      return recorder.finish({ answer, durationMs: performance.now() - started });
    } finally {
      active = undefined;
    }
  };

  return {
    framework: 'LangChain',
    model: label,
    offline,
    ask(request, askOptions = {}) {
      const threadId = askOptions.threadId ?? `langchain-${++requests}`;
      const next = queue.then(() => run(request, threadId));
      queue = next.catch(() => undefined);
      return next;
    },
    dispose: async () => {
      await toolSearch.dispose();
    },
  };
}
