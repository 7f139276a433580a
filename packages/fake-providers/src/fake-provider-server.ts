// The server: one loopback HTTP listener for both providers' routes, a record of every request,
// and the script that answers each one.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicError, anthropicEvents, anthropicMessage, type SseEvent } from './anthropic-wire';
import { type FakeReply, normalizeReply } from './fake-reply';
import { openaiError, openaiEvents, openaiResponse } from './openai-wire';

export type FakeProvider = 'anthropic' | 'openai';

/** One request the server received, as it arrived. */
export interface RecordedRequest {
  /** 0 for the first request the server received. */
  readonly index: number;
  readonly provider: FakeProvider;
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body exactly as sent. */
  readonly raw: string;
  /** The body parsed as JSON (`undefined` when it is not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: a wire body, read by tests field by field.
  readonly body: any;
  /** Whether the client asked for an SSE stream (`"stream": true`). */
  readonly stream: boolean;
  /**
   * The OpenAI output items this server answered before, by id: what an `item_reference` in
   * `input` stands for (the OpenAI provider sends references while `store` is on).
   */
  readonly servedItems: ReadonlyMap<string, unknown>;
}

/**
 * What answers each request: a queue of replies taken in order (across both providers), or a
 * function of the request (the demo's offline planner).
 */
export type FakeScript =
  | readonly FakeReply[]
  | ((request: RecordedRequest) => FakeReply | Promise<FakeReply>);

export interface FakeProviderServerOptions {
  readonly script: FakeScript;
  /** Answered as the model's id. Default: the request's `model`. */
  readonly model?: string;
}

export interface FakeProviderServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The `baseURL` for `createAnthropic` (`<url>/v1`). */
  readonly anthropicBaseURL: string;
  /** The `baseURL` for `createOpenAI` (`<url>/v1`). */
  readonly openaiBaseURL: string;
  /** Every request received, oldest first (requests that failed to parse too). */
  readonly requests: readonly RecordedRequest[];
  /** Failures the server answered with an error status (script exhausted, a throwing script…). */
  readonly failures: readonly string[];
  close(): Promise<void>;
}

const ROUTES: Readonly<Record<string, FakeProvider>> = {
  '/v1/messages': 'anthropic',
  '/v1/responses': 'openai',
};

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function sendEvents(response: ServerResponse, events: readonly SseEvent[]): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const { event, data } of events) response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  response.end();
}

/** Starts the server on a free loopback port. Close it in the test's teardown. */
export async function startFakeProviderServer(
  options: FakeProviderServerOptions,
): Promise<FakeProviderServer> {
  const requests: RecordedRequest[] = [];
  const servedItems = new Map<string, unknown>();
  const failures: string[] = [];
  const queue = typeof options.script === 'function' ? undefined : [...options.script];
  const script = typeof options.script === 'function' ? options.script : undefined;
  let idCounter = 0;
  const nextId = () => `call_${++idCounter}`;

  async function replyFor(recorded: RecordedRequest): Promise<FakeReply> {
    if (script !== undefined) return script(recorded);
    const next = queue?.shift();
    if (next === undefined) throw new Error(`the script has no reply left for request ${recorded.index}`);
    return next;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const provider = ROUTES[path];
    const raw = await readBody(request);
    if (request.method !== 'POST' || provider === undefined) {
      failures.push(`${request.method} ${path}: no such route`);
      sendJson(response, 404, {
        error: { type: 'not_found_error', message: `no route ${request.method} ${path}` },
      });
      return;
    }
    const body = parseJson(raw) as RecordedRequest['body'];
    const recorded: RecordedRequest = {
      index: requests.length,
      provider,
      path,
      headers: headersOf(request),
      raw,
      body,
      stream: body?.stream === true,
      servedItems,
    };
    requests.push(recorded);
    const model = options.model ?? (typeof body?.model === 'string' ? body.model : 'fake-model');
    const error = provider === 'anthropic' ? anthropicError : openaiError;
    let reply: ReturnType<typeof normalizeReply>;
    try {
      reply = normalizeReply(await replyFor(recorded), nextId, raw.length);
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      failures.push(message);
      sendJson(response, 500, error('api_error', `fake provider server: ${message}`));
      return;
    }
    const id = `${provider === 'anthropic' ? 'msg' : 'resp'}_${recorded.index + 1}`;
    try {
      if (provider === 'anthropic') {
        if (recorded.stream) sendEvents(response, anthropicEvents(reply, id, model));
        else sendJson(response, 200, anthropicMessage(reply, id, model));
      } else {
        const answer = openaiResponse(reply, id, model);
        for (const item of answer.output) servedItems.set(item.id, item);
        if (recorded.stream) sendEvents(response, openaiEvents(reply, id, model));
        else sendJson(response, 200, answer);
      }
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      failures.push(message);
      sendJson(response, 400, error('invalid_request_error', `fake provider server: ${message}`));
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((cause: unknown) => {
      failures.push(String(cause));
      if (!response.headersSent)
        sendJson(response, 500, { error: { type: 'api_error', message: String(cause) } });
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    anthropicBaseURL: `${url}/v1`,
    openaiBaseURL: `${url}/v1`,
    requests,
    failures,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((cause) => (cause ? reject(cause) : resolve()));
      }),
  };
}
