import { createToolSearch } from '@tool-search/ai-sdk';
import { generateText, jsonSchema, type ModelMessage, type Tool, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { generateCatalog } from '../synthetic/catalog';
import { type StepMeasureOptions, stepMeasureDefaults, timeRuns } from './step-timing';

export interface AiSdkStepRow {
  readonly adapter: 'ai-sdk';
  /** 'catalog': the tools are createToolSearch's catalog; 'request-tools': they are given per call (`forCall({ requestTools })`). */
  readonly mode: 'catalog' | 'request-tools';
  readonly tools: number;
  /** Tools the measured thread has loaded. */
  readonly loaded: number;
  /** Tools active in the measured step (meta-tools + loaded). */
  readonly bound: number;
  readonly iterations: number;
  /** What our `prepareStep` adds to one step of a call (the request is open): median and p99. */
  readonly medianMs: number;
  readonly p99Ms: number;
  /** A call's first step: `forCall()` (the call's tool set) plus `prepareStep` at step 0 (opens the request). */
  readonly firstStepMedianMs: number;
  readonly firstStepP99Ms: number;
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

type PrepareStep = (options: never) => Promise<unknown>;

/**
 * The time `@tool-search/ai-sdk` adds to one `generateText` / `streamText` step with `size`
 * synthetic tools (1,000 by default). The arguments our `prepareStep` receives are captured from
 * a real `generateText` run (driven by the SDK's `MockLanguageModelV4`), then the call's
 * `prepareStep` is timed on them, as the SDK calls it before each model call: read the thread's
 * loaded tools, run the filters, return the step's `activeTools` and `toolOrder`. The thread has
 * `loaded` tools loaded first, through a real `load_tool` call in that run.
 */
export async function measureAiSdkStep(options: StepMeasureOptions = {}): Promise<AiSdkStepRow> {
  const { mode, size, loaded: loadedCount, iterations, warmup, seed, now } = stepMeasureDefaults(options);

  const tools: Record<string, Tool> = {};
  for (const descriptor of generateCatalog({ size, seed })) {
    tools[descriptor.name] = tool({
      description: descriptor.description ?? '',
      inputSchema: jsonSchema(
        (descriptor.parameters ?? { type: 'object', properties: {} }) as Parameters<typeof jsonSchema>[0],
      ),
      execute: async () => 'ok',
    });
  }
  const toolSearch = createToolSearch<Record<string, Tool>>({ tools: mode === 'catalog' ? tools : {} });
  const forCall = () =>
    mode === 'catalog'
      ? toolSearch.forCall({ threadId: 'bench' })
      : toolSearch.forCall({ threadId: 'bench', requestTools: tools });

  // One real call: load `loaded` tools, then answer; capture what the SDK hands prepareStep.
  const toLoad = Object.keys(tools).slice(0, loadedCount);
  const captured: Array<Parameters<PrepareStep>[0]> = [];
  let turn = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async () =>
      turn++ === 0
        ? {
            content: [
              {
                type: 'tool-call',
                toolCallId: 'bench-load',
                toolName: 'load_tool',
                input: JSON.stringify({ toolNames: toLoad }),
              },
            ],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: 'text', text: 'done' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          },
  });
  const setup = forCall();
  const messages: ModelMessage[] = [{ role: 'user', content: 'book a flight and check the weather' }];
  await generateText({
    model,
    ...setup,
    prepareStep: async (stepOptions) => {
      captured.push(stepOptions as never);
      return setup.prepareStep(stepOptions);
    },
    stopWhen: () => false,
    messages,
  });
  const [firstArgs, laterArgs] = captured;
  if (firstArgs === undefined || laterArgs === undefined)
    throw new Error('the bench call did not take two steps');

  // Later steps of one call: the request is open.
  const call = forCall();
  const prepareStep = call.prepareStep as unknown as PrepareStep;
  await prepareStep(firstArgs);
  let bound = 0;
  const later = await timeRuns(
    async () => {
      const result = (await prepareStep(laterArgs)) as { activeTools: string[] };
      bound = result.activeTools.length;
    },
    { iterations, warmup, now },
  );
  if (bound !== 2 + loadedCount) throw new Error(`expected ${2 + loadedCount} active tools, got ${bound}`);

  // A call's first step: its tool set, then the step that opens the request.
  const first = await timeRuns(() => (forCall().prepareStep as unknown as PrepareStep)(firstArgs), {
    iterations: Math.max(1, Math.round(iterations / 10)),
    warmup: Math.round(warmup / 10),
    now,
  });

  await toolSearch.dispose();
  return {
    adapter: 'ai-sdk',
    mode,
    tools: size,
    loaded: loadedCount,
    bound,
    iterations,
    ...later,
    firstStepMedianMs: first.medianMs,
    firstStepP99Ms: first.p99Ms,
  };
}
