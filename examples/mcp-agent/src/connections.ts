import { countToolDefinitionTokens, type ToolDefinitionForTokens } from '@tool-search/example-catalog';

/** A server this request could not use, and why, in words a user (and a model) can act on. */
export interface UnavailableServer {
  readonly server: string;
  readonly message: string;
}

/** What listing every tool of every server eagerly cost for one request (the framework client's way). */
export interface ListingCost {
  /** Tools listed, over the servers that answered. */
  readonly tools: number;
  /** Bytes of the `tools/list` results as JSON (names, descriptions and every input schema). */
  readonly bytes: number;
  /** Tokens of those definitions as a model would be sent them: what each model call costs without tool search. */
  readonly tokens: number;
  /** Time to connect to the servers and list their tools. */
  readonly ms: number;
}

/** One request's connections, made with the caller's token. */
export interface CallerConnection<TOOLS> {
  /** The framework's tools for this caller, from the servers that answered. */
  readonly tools: TOOLS;
  /** Their definitions (name, description, input schema), for the trace's token figures. */
  readonly definitions: readonly ToolDefinitionForTokens[];
  readonly unavailable: readonly UnavailableServer[];
  readonly listing: ListingCost;
  close(): Promise<void>;
}

/** An error's message, also for the plain objects some clients hand over in place of an `Error`. */
function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
}

/** A failure to reach a server, said plainly: a refused token, a server that is down, or the error's own message. */
export function describeConnectError(error: unknown): string {
  const chain: string[] = [];
  for (let cause = error, depth = 0; cause !== undefined && cause !== null && depth < 5; depth += 1) {
    const { name, code } = cause as { name?: unknown; code?: unknown };
    chain.push(`${String(name ?? '')} ${messageOf(cause)} ${String(code ?? '')}`);
    cause = (cause as { cause?: unknown }).cause;
  }
  const text = chain.join(' ');
  if (/\b401\b|unauthori[sz]ed|revoked|invalid_token/i.test(text))
    return 'refused the caller\u2019s token (HTTP 401): access was revoked or never granted';
  if (/ECONNREFUSED|fetch failed|ECONNRESET|socket hang up|other side closed/i.test(text))
    return 'is down (connection refused)';
  return messageOf(error).slice(0, 300);
}

/** The paragraph the model is given when some servers could not be reached this request. */
export function unavailableInstructions(unavailable: readonly UnavailableServer[]): string | undefined {
  if (unavailable.length === 0) return undefined;
  const lines = unavailable.map(({ server, message }) => `- ${server}: ${message}`);
  return [
    'These tool servers are unavailable for this request, so none of their tools can be found or called; say so if the user needs one:',
    ...lines,
  ].join('\n');
}

/**
 * Connects to every server with `connect` (one at a time would add their latencies: all at once),
 * keeping the ones that answered and saying why the others did not. `tools` joins the answers.
 */
export async function connectEach<SERVER, TOOLS>(options: {
  readonly urls: Readonly<Record<string, string>>;
  readonly connect: (server: string, url: string) => Promise<SERVER>;
  readonly describe: (server: SERVER) => { definitions: readonly ToolDefinitionForTokens[]; bytes: number };
  readonly join: (servers: readonly { name: string; server: SERVER }[]) => TOOLS;
  readonly close: (server: SERVER) => Promise<void>;
}): Promise<CallerConnection<TOOLS>> {
  const started = performance.now();
  const settled = await Promise.allSettled(
    Object.entries(options.urls).map(async ([name, url]) => ({
      name,
      server: await options.connect(name, url),
    })),
  );
  const ms = performance.now() - started;
  const connected: { name: string; server: SERVER }[] = [];
  const unavailable: UnavailableServer[] = [];
  settled.forEach((result, index) => {
    if (result.status === 'fulfilled') connected.push(result.value);
    else
      unavailable.push({
        server: Object.keys(options.urls)[index]!,
        message: describeConnectError(result.reason),
      });
  });
  const described = connected.map(({ server }) => options.describe(server));
  const definitions = described.flatMap((entry) => entry.definitions);
  return {
    tools: options.join(connected),
    definitions,
    unavailable,
    listing: {
      tools: definitions.length,
      bytes: described.reduce((sum, entry) => sum + entry.bytes, 0),
      tokens: countToolDefinitionTokens(definitions),
      ms,
    },
    close: async () => {
      await Promise.allSettled(connected.map(({ server }) => options.close(server)));
    },
  };
}
