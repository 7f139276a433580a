import { createToolSearch } from '@tool-search/ai-sdk';
import {
  createTraceRecorder,
  type ExampleAgent,
  type ExampleAgentOptions,
  type TraceRecorder,
} from '@tool-search/example-catalog';
import { generateText, isStepCount } from 'ai';
import { createCatalogTools } from './catalog-tools';
import { type ModelOption, resolveModel } from './model';

export type AiSdkAgentOptions = ExampleAgentOptions<ModelOption>;

/**
 * An AI SDK agent over the 224-tool example catalog with tool search: `generateText` is given
 * `toolSearch.forCall()` (the meta-tools, the catalog hidden until loaded, and a `prepareStep`
 * that picks each step's tools), and every request returns its trace.
 */
export async function createAiSdkAgent(options: AiSdkAgentOptions = {}): Promise<ExampleAgent> {
  const { model, label, offline } = await resolveModel(options.model);
  // One request at a time: the trace of the running request receives the events and tool runs.
  let active: TraceRecorder | undefined;
  const toolSearch = createToolSearch({
    tools: createCatalogTools((run) => active?.recordCall(run)),
    ranker: options.ranker,
    onEvent: (event) => active?.onEvent(event),
  });
  let requests = 0;
  let queue: Promise<unknown> = Promise.resolve();

  const run = async (request: string, threadId: string) => {
    const recorder = createTraceRecorder({
      request,
      framework: 'AI SDK',
      model: label,
      threadId,
      definitions: toolSearch.engine.metaTools,
      instructions: toolSearch.instructions,
    });
    active = recorder;
    const started = performance.now();
    try {
      const result = await generateText({
        model,
        ...toolSearch.forCall({ threadId }),
        instructions: `You are a helpful assistant with access to many tools.\n\n${toolSearch.instructions}`,
        stopWhen: isStepCount(options.maxSteps ?? 10),
        // ai 7 copies the whole tool set for telemetry on every step unless telemetry is off.
        telemetry: { isEnabled: false },
        prompt: request,
      });
      return recorder.finish({ answer: result.text, durationMs: performance.now() - started });
    } finally {
      active = undefined;
    }
  };

  return {
    framework: 'AI SDK',
    model: label,
    offline,
    ask(request, askOptions = {}) {
      const threadId = askOptions.threadId ?? `ai-sdk-${++requests}`;
      const next = queue.then(() => run(request, threadId));
      queue = next.catch(() => undefined);
      return next;
    },
    dispose: () => toolSearch.dispose(),
  };
}
