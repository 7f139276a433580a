import {
  createTraceRecorder,
  type ExampleAgent,
  type TraceRecorder,
  type TraceRecorderOptions,
} from './trace';

export interface TracedRequestsOptions extends Omit<TraceRecorderOptions, 'request' | 'threadId'> {
  /** A request asked without a thread gets a new one: `${threadPrefix}-1`, `${threadPrefix}-2`, ... */
  readonly threadPrefix: string;
  /** Runs one request through the framework and returns the model's final answer. */
  readonly answer: (request: string, threadId: string) => Promise<string>;
}

export interface TracedRequests {
  /** The recorder of the request running now (none between requests): the engine's events and the tool runs go to it. */
  active(): TraceRecorder | undefined;
  /** {@link ExampleAgent.ask}: requests are queued and run one at a time, each returning its trace. */
  readonly ask: ExampleAgent['ask'];
}

/**
 * What the example agents share around their framework call: one request at a time (so the
 * running request's trace receives the events and tool runs), a thread per request unless one
 * is given, and the trace finished with the answer and the time taken.
 */
export function createTracedRequests(options: TracedRequestsOptions): TracedRequests {
  const { threadPrefix, answer, ...recorderOptions } = options;
  let active: TraceRecorder | undefined;
  let requests = 0;
  let queue: Promise<unknown> = Promise.resolve();

  const run = async (request: string, threadId: string) => {
    const recorder = createTraceRecorder({ ...recorderOptions, request, threadId });
    active = recorder;
    const started = performance.now();
    try {
      const text = await answer(request, threadId);
      return recorder.finish({ answer: text, durationMs: performance.now() - started });
    } finally {
      active = undefined;
    }
  };

  return {
    active: () => active,
    ask(request, askOptions = {}) {
      const threadId = askOptions.threadId ?? `${threadPrefix}-${++requests}`;
      const next = queue.then(() => run(request, threadId));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
