import {
  createTraceRecorder,
  type RequestTrace,
  type ToolDefinitionForTokens,
  type TraceRecorder,
} from '@tool-search/example-catalog';
import type { CallerConnection, ListingCost, UnavailableServer } from './connections';

/** Who is asking: the caller's bearer token goes to every server; a new thread unless one is given. */
export interface McpAskOptions {
  readonly token: string;
  readonly threadId?: string;
}

/** A request's trace, plus what the framework's MCP client listed for it and which servers were missing. */
export interface McpRequestTrace extends RequestTrace {
  readonly unavailable: readonly UnavailableServer[];
  /** What the framework's client listed eagerly for this request (every schema of every server). */
  readonly listing: ListingCost;
}

/** An MCP example agent: like the other examples' `ExampleAgent`, asked with the caller's token. */
export interface McpExampleAgent {
  readonly framework: string;
  readonly model: string;
  readonly offline: boolean;
  ask(request: string, options: McpAskOptions): Promise<McpRequestTrace>;
  dispose(): Promise<void>;
}

export interface TracedMcpRequestsOptions<TOOLS> {
  readonly framework: string;
  readonly model: string;
  readonly threadPrefix: string;
  /** The meta-tools' definitions (the trace counts their tokens). */
  readonly metaTools: readonly ToolDefinitionForTokens[];
  readonly instructions: string;
  /** Connects to every server with the caller's token (the framework's MCP client). */
  readonly connect: (token: string) => Promise<CallerConnection<TOOLS>>;
  /** Runs the request with this caller's tools and returns the model's answer. */
  readonly answer: (
    request: string,
    threadId: string,
    connection: CallerConnection<TOOLS>,
  ) => Promise<string>;
}

/**
 * Per request: connect with the caller's token, run the framework with the tools it was given,
 * close the connections, and return the trace. Requests run one at a time, so the engine's events
 * and the tool runs go to the running request's trace.
 */
export function createTracedMcpRequests<TOOLS>(options: TracedMcpRequestsOptions<TOOLS>) {
  let active: TraceRecorder | undefined;
  let requests = 0;
  let queue: Promise<unknown> = Promise.resolve();

  const run = async (request: string, threadId: string, token: string): Promise<McpRequestTrace> => {
    const started = performance.now();
    const connection = await options.connect(token);
    try {
      const recorder = createTraceRecorder({
        request,
        framework: options.framework,
        model: options.model,
        threadId,
        definitions: [...options.metaTools, ...connection.definitions],
        instructions: options.instructions,
      });
      active = recorder;
      const answer = await options.answer(request, threadId, connection);
      const trace = recorder.finish({ answer, durationMs: performance.now() - started });
      return { ...trace, unavailable: connection.unavailable, listing: connection.listing };
    } finally {
      active = undefined;
      await connection.close();
    }
  };

  return {
    active: () => active,
    ask(request: string, askOptions: McpAskOptions): Promise<McpRequestTrace> {
      const threadId = askOptions.threadId ?? `${options.threadPrefix}-${++requests}`;
      const next = queue.then(() => run(request, threadId, askOptions.token));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
