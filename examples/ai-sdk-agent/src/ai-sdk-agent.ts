import { createToolSearch } from '@tool-search/ai-sdk';
import {
  createTracedRequests,
  type ExampleAgent,
  type ExampleAgentOptions,
  type NativeProvider,
} from '@tool-search/example-catalog';
import { generateText, isStepCount } from 'ai';
import { createCatalogTools } from './catalog-tools';
import { type ModelOption, resolveModel } from './model';
import { capturePrompts } from './prompt-capture';

export interface AiSdkAgentOptions extends ExampleAgentOptions<ModelOption> {
  /**
   * Send the catalog behind this provider's own deferred loading (`createToolSearch`'s native
   * mode): every catalog tool deferred, `search_tools` refers what it found. Default: the default
   * mode (`activeTools`).
   */
  readonly native?: NativeProvider;
}

/**
 * An AI SDK agent over the 224-tool example catalog with tool search: `generateText` is given
 * `toolSearch.forCall()` (the meta-tools, the catalog hidden until loaded, and a `prepareStep`
 * that picks each step's tools), and every request returns its trace.
 */
export async function createAiSdkAgent(options: AiSdkAgentOptions = {}): Promise<ExampleAgent> {
  const { model, label, offline } = await resolveModel(options.model);
  // Each model call reports its messages to the trace, which counts what tool search added to them.
  const tracedModel = capturePrompts(model, (messages) => requests.active()?.recordPrompt(messages));
  const toolSearch = createToolSearch({
    tools: createCatalogTools((run) => requests.active()?.recordCall(run)),
    ranker: options.ranker,
    ...(options.native ? { native: options.native } : {}),
    onEvent: (event) => requests.active()?.onEvent(event),
  });
  const requests = createTracedRequests({
    framework: 'AI SDK',
    model: label,
    threadPrefix: 'ai-sdk',
    definitions: toolSearch.engine.metaTools,
    instructions: toolSearch.instructions,
    answer: async (request, threadId) => {
      const result = await generateText({
        model: tracedModel,
        ...toolSearch.forCall({ threadId }),
        // forCall()'s prepareStep adds toolSearch.instructions after these.
        instructions: 'You are a helpful assistant with access to many tools.',
        stopWhen: isStepCount(options.maxSteps ?? 10),
        // ai 7 copies the whole tool set for telemetry on every step unless telemetry is off.
        telemetry: { isEnabled: false },
        prompt: request,
      });
      return result.text;
    },
  });

  return {
    framework: 'AI SDK',
    model: label,
    offline,
    ask: requests.ask,
    dispose: () => toolSearch.dispose(),
  };
}
