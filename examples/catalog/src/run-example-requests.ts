import { type ExampleAgent, oneLine, renderTrace } from './trace';

export interface RunExampleRequestsOptions {
  /** Print in colour. */
  readonly color?: boolean;
  /** Where traces go (default: `console.log`). */
  readonly write?: (text: string) => void;
  /** Where a failed request is said (default: `console.error`). */
  readonly writeError?: (text: string) => void;
}

/**
 * What each agent example's `start` runs: every request in turn, printing its trace. A request
 * that fails (a wrong API key, a provider that is down, a run past its steps) is said on one line
 * (`"<request>" failed: <message>`, no stack trace) and the next request runs; the agent is
 * disposed at the end. Returns the process exit code: 1 when a request failed, else 0.
 */
export async function runExampleRequests(
  agent: ExampleAgent,
  requests: readonly string[],
  options: RunExampleRequestsOptions = {},
): Promise<number> {
  const write = options.write ?? ((text: string) => console.log(text));
  const writeError = options.writeError ?? ((text: string) => console.error(text));
  let failed = 0;
  try {
    for (const request of requests) {
      try {
        write(`${renderTrace(await agent.ask(request), { color: options.color })}\n`);
      } catch (error) {
        failed++;
        writeError(`"${oneLine(request, 200)}" failed: ${errorMessage(error)}\n`);
      }
    }
  } finally {
    await agent.dispose();
  }
  if (failed > 0 && requests.length > 1) writeError(`${failed} of ${requests.length} requests failed.`);
  return failed > 0 ? 1 : 0;
}

function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return oneLine(message, 500).trim() || (error instanceof Error ? error.name : 'unknown error');
}
