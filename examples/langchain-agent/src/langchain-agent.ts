import { createMetaToolDefinitions, toolSearchInstructions } from '@tool-search/core';
import {
  createTracedRequests,
  type ExampleAgent,
  type ExampleAgentOptions,
} from '@tool-search/example-catalog';
import { toolSearchMiddleware } from '@tool-search/langchain';
import { createAgent, HumanMessage } from 'langchain';
import { createCatalogTools } from './catalog-tools';
import { type ModelOption, resolveModel } from './model';
import { PromptCaptureHandler } from './prompt-capture';

export type LangChainAgentOptions = ExampleAgentOptions<ModelOption>;

/**
 * A LangChain `createAgent` over the 224-tool example catalog with tool search: the catalog goes
 * to `toolSearchMiddleware` (the agent registers only the meta-tools), and every request returns
 * its trace.
 */
export async function createLangChainAgent(options: LangChainAgentOptions = {}): Promise<ExampleAgent> {
  const { model, label, offline } = await resolveModel(options.model);
  const toolSearch = toolSearchMiddleware({
    tools: createCatalogTools((run) => requests.active()?.recordCall(run)),
    ranker: options.ranker,
    onEvent: (event) => requests.active()?.onEvent(event),
  });
  const agent = createAgent({
    model,
    systemPrompt: 'You are a helpful assistant with access to many tools.',
    // A tool that throws answers the model with an error message, as without tool search.
    middleware: [toolSearch],
  });
  // Each model call reports its messages to the trace, which counts what tool search added to them.
  const promptCapture = new PromptCaptureHandler((messages) => requests.active()?.recordPrompt(messages));
  const requests = createTracedRequests({
    framework: 'LangChain',
    model: label,
    threadPrefix: 'langchain',
    definitions: createMetaToolDefinitions(),
    instructions: toolSearchInstructions(),
    answer: async (request, threadId) => {
      const result = await agent.invoke(
        { messages: [new HumanMessage(request)] },
        // The middleware keeps each thread's loaded tools under `thread_id`.
        {
          configurable: { thread_id: threadId },
          recursionLimit: 2 * (options.maxSteps ?? 10) + 1,
          callbacks: [promptCapture],
        },
      );
      return result.messages.at(-1)?.text ?? '';
    },
  });

  return {
    framework: 'LangChain',
    model: label,
    offline,
    ask: requests.ask,
    dispose: async () => {
      await toolSearch.dispose();
    },
  };
}
