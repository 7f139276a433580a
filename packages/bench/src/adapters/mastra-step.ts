import { MessageList } from '@mastra/core/agent/message-list';
import {
  ToolSearchProcessor as MastraToolSearchProcessor,
  type ProcessInputStepArgs,
} from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { createTool } from '@mastra/core/tools';
import { ToolSearchProcessor, type ToolSearchProcessorOptions } from '@tool-search/mastra';
import { generateCatalog } from '../synthetic/catalog';
import { type StepMeasureOptions, stepMeasureDefaults, timeRuns } from './step-timing';

export interface MastraStepRow {
  readonly adapter: 'mastra';
  /** 'tool-search': ours (`@tool-search/mastra`); 'mastra': Mastra's own (`@mastra/core/processors`). */
  readonly processor: 'tool-search' | 'mastra';
  /** 'catalog': the tools are the processor's catalog; 'request-tools': they are the request's tools under includeResolvedTools. */
  readonly mode: 'catalog' | 'request-tools';
  readonly tools: number;
  /** Tools the measured thread has loaded. */
  readonly loaded: number;
  /** Tools the step sends to the model (meta-tools + loaded). */
  readonly sent: number;
  readonly iterations: number;
  /** What `processInputStep` takes for a step within a request: median and p99. */
  readonly medianMs: number;
  readonly p99Ms: number;
  /** The first step of a new request (fresh per-request state and, in 'request-tools', fresh tool objects): median. */
  readonly firstStepMedianMs: number;
}

type AnyProcessor = {
  processInputStep(args: ProcessInputStepArgs): Promise<{ tools?: Record<string, unknown> }>;
};

interface Built {
  readonly processor: AnyProcessor & { dispose?: () => unknown };
  readonly label: MastraStepRow['processor'];
}

/**
 * The time `processInputStep` adds to one step of a Mastra agent, for our processor and for
 * Mastra's own, side by side, with `size` synthetic tools (1,000 by default).
 *
 * 'catalog': the tools are the processor's `tools`; the agent passes none of its own.
 * 'request-tools': the processor has no catalog and `includeResolvedTools`; the tools arrive in
 * `args.tools` each step, shaped as the Agent hands them over (converted tools whose
 * `parameters` carry a JSON Schema), as a dynamic tools function or MCP toolset would give them.
 *
 * Before timing, the thread loads `loaded` tools through the processor's own `load_tool`. Each
 * measured call gets the arguments the Agent gives a step: the message list, the stored messages,
 * a request context carrying the thread id, the step's tools and the per-request `state`.
 * `medianMs` times a step within a request (the same state and tools every step);
 * `firstStepMedianMs` times the first step of a new request (fresh state; in 'request-tools'
 * also fresh tool objects, as each Agent request converts its tools anew).
 */
export async function measureMastraStep(
  options: StepMeasureOptions & { firstStepIterations?: number } = {},
): Promise<MastraStepRow[]> {
  process.env.MASTRA_TELEMETRY_DISABLED ??= '1';
  const {
    mode,
    size,
    loaded: loadedCount,
    iterations,
    warmup,
    seed,
    now,
  } = stepMeasureDefaults(options, {
    iterations: 1_000,
    warmup: 100,
  });
  const firstStepIterations = options.firstStepIterations ?? 50;

  const descriptors = generateCatalog({ size, seed });
  const execute = async () => ({ ok: true });
  // The processor's catalog: Mastra tools, as a user writes them.
  const catalogTools = Object.fromEntries(
    descriptors.map((descriptor) => [
      descriptor.name,
      createTool({
        id: descriptor.name,
        description: descriptor.description ?? '',
        inputSchema: (descriptor.parameters ?? { type: 'object', properties: {} }) as never,
        execute,
      }),
    ]),
  ) as unknown as ToolSearchProcessorOptions['tools'];
  // A request's tools as the Agent passes them to processInputStep: already converted.
  const requestTools = () =>
    Object.fromEntries(
      descriptors.map((descriptor) => [
        descriptor.name,
        {
          type: 'function',
          id: descriptor.name,
          description: descriptor.description ?? '',
          parameters: { jsonSchema: descriptor.parameters ?? { type: 'object', properties: {} } },
          execute,
        },
      ]),
    );

  const processorOptions =
    mode === 'catalog' ? { tools: catalogTools } : { tools: {}, includeResolvedTools: true as const };
  const built: Built[] = [
    { label: 'tool-search', processor: new ToolSearchProcessor(processorOptions) },
    {
      label: 'mastra',
      // Our options type now also takes lazy tools, which Mastra's own processor does not: these are Mastra tools.
      processor: new MastraToolSearchProcessor(
        processorOptions as ConstructorParameters<typeof MastraToolSearchProcessor>[0],
      ) as unknown as AnyProcessor,
    },
  ];

  const threadId = 'bench-thread';
  const requestContext = new RequestContext();
  requestContext.set('mastra__threadId', threadId);
  const messageList = new MessageList({ threadId, resourceId: 'bench-user' });
  messageList.add(
    [
      { role: 'user', content: 'Book a flight to Rome and tell me the weather there.' },
      { role: 'assistant', content: 'Let me find the right tools.' },
    ],
    'input',
  );
  const stepArgs = (state: Record<string, unknown>, tools: Record<string, unknown>): ProcessInputStepArgs =>
    ({
      messages: messageList.get.all.db(),
      messageList,
      requestContext,
      stepNumber: 1,
      steps: [],
      systemMessages: [],
      state,
      tools,
      retryCount: 0,
      abort: () => {
        throw new Error('abort');
      },
    }) as unknown as ProcessInputStepArgs;

  const toLoad = descriptors.slice(0, loadedCount).map((descriptor) => descriptor.name);
  const rows: MastraStepRow[] = [];
  for (const { label, processor } of built) {
    const tools = mode === 'catalog' ? {} : requestTools();
    const state: Record<string, unknown> = {};
    const first = await processor.processInputStep(stepArgs(state, tools));
    const loadTool = first.tools?.load_tool as
      | { execute?: (input: unknown, context: unknown) => Promise<unknown> }
      | undefined;
    const loadResult = (await loadTool?.execute?.({ toolNames: toLoad }, {})) as
      | { success?: boolean }
      | undefined;
    if (!loadResult?.success)
      throw new Error(`loading the bench tools failed for ${label}: ${JSON.stringify(loadResult)}`);

    let sent = 0;
    const step = async (stepState: Record<string, unknown>, stepTools: Record<string, unknown>) => {
      const result = await processor.processInputStep(stepArgs(stepState, stepTools));
      sent = Object.keys(result.tools ?? {}).length;
    };
    const later = await timeRuns(() => step(state, tools), { iterations, warmup, now });
    const firstStep = await timeRuns((freshTools) => step({}, freshTools), {
      iterations: firstStepIterations,
      warmup: 0,
      now,
      before: () => (mode === 'catalog' ? {} : requestTools()),
    });
    await processor.dispose?.();
    if (sent !== 2 + loadedCount) throw new Error(`${label} sent ${sent} tools, expected ${2 + loadedCount}`);
    rows.push({
      adapter: 'mastra',
      processor: label,
      mode,
      tools: size,
      loaded: loadedCount,
      sent,
      iterations,
      ...later,
      firstStepMedianMs: firstStep.medianMs,
    });
  }
  return rows;
}
