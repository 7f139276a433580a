import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { type LangChainTool, toolSearchMiddleware } from '@tool-search/langchain';
import { createAgent, fakeModel } from 'langchain';
import { generateCatalog } from '../synthetic/catalog';
import { type StepMeasureOptions, stepMeasureDefaults, timeRuns } from './step-timing';

export interface LangChainStepRow {
  readonly adapter: 'langchain';
  /** 'catalog': the tools are the middleware's catalog; 'request-tools': they are the agent's own tools under includeResolvedTools. */
  readonly mode: 'catalog' | 'request-tools';
  readonly tools: number;
  /** Tools the measured thread has loaded. */
  readonly loaded: number;
  /** Tools bound to the model in the measured call (meta-tools + loaded). */
  readonly bound: number;
  readonly iterations: number;
  /** What `wrapModelCall` adds to one model call, beyond the model itself: median and p99. */
  readonly medianMs: number;
  readonly p99Ms: number;
}

// The middleware hooks are typed for LangChain's own request objects; the bench builds plain ones.
type Hook = (request: unknown, handler: (request: never) => unknown) => Promise<unknown>;

/**
 * The time `toolSearchMiddleware` adds to one `createAgent` model call with `size` synthetic tools
 * (1,000 by default). The request our `wrapModelCall` receives is captured from a real
 * `createAgent` run (driven by LangChain's `fakeModel()`, on a thread given by `configurable.thread_id`), in which
 * the model first loads `loaded` tools through a real `load_tool` call. Then the hook is timed on
 * that request as LangChain calls it before each model call, with a handler that answers at once:
 * the figure is our work per model call (read the thread's loaded tools, run the filters, resolve
 * the tools to bind, add the instructions), not the model's.
 */
export async function measureLangChainStep(options: StepMeasureOptions = {}): Promise<LangChainStepRow> {
  const { mode, size, loaded: loadedCount, iterations, warmup, seed, now } = stepMeasureDefaults(options);

  const tools: LangChainTool[] = generateCatalog({ size, seed }).map((descriptor) =>
    tool(async () => 'ok', {
      name: descriptor.name,
      description: descriptor.description ?? '',
      schema: (descriptor.parameters ?? { type: 'object', properties: {} }) as { type: 'object' },
    }),
  );
  const middleware =
    mode === 'catalog'
      ? toolSearchMiddleware({ tools })
      : toolSearchMiddleware({ includeResolvedTools: true });
  const wrapModelCall = middleware.wrapModelCall as unknown as Hook;
  let captured: unknown;
  const capturing = Object.assign(Object.create(middleware) as typeof middleware, {
    wrapModelCall: ((request, handler) => {
      captured = request;
      return wrapModelCall(request, handler);
    }) as typeof middleware.wrapModelCall,
  });

  const toLoad = tools.slice(0, loadedCount).map((entry) => entry.name);
  const model = fakeModel()
    .respondWithTools([{ name: 'load_tool', args: { toolNames: toLoad } }])
    .respond(new AIMessage('loaded'));
  const agent = createAgent({
    model,
    tools: mode === 'catalog' ? [] : tools,
    middleware: [capturing],
  });
  const result = await agent.invoke(
    { messages: [new HumanMessage('book a flight and check the weather')] },
    { configurable: { thread_id: 'bench' } },
  );
  const loadResult = result.messages.find((message) => ToolMessage.isInstance(message));
  if (!loadResult || (loadResult as ToolMessage).status === 'error') {
    throw new Error(`loading the bench tools failed: ${String(loadResult?.content)}`);
  }

  let bound = 0;
  const answer = new AIMessage('done');
  const handler = async (sent: unknown) => {
    bound = (sent as { tools: unknown[] }).tools.length;
    return answer;
  };
  const timed = await timeRuns(() => wrapModelCall(captured, handler), { iterations, warmup, now });
  await middleware.dispose();
  return {
    adapter: 'langchain',
    mode,
    tools: size,
    loaded: loadedCount,
    bound,
    iterations,
    ...timed,
  };
}
