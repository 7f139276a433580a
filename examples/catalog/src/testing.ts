import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { PromptTokens } from './prompt-tokens';
import { demoRequests } from './requests';
import type { RequestTrace } from './trace';

/** The demo requests every example agent's test runs (one single-tool, one multi-tool). */
export const testedDemoRequests = demoRequests.filter((request) =>
  ['restaurant', 'trip'].includes(request.id),
);

/**
 * The checks each example agent's test makes of the trace of a demo request run with the offline
 * planner: it searched the request, loaded and called exactly the expected tools without an
 * error, the trace's "sent" lists are what the model was really given (`sentPerModelCall`, as the
 * framework recorded it), its messages' counts are those of the messages the model really received
 * (`promptPerModelCall`, counted from what the scripted model recorded), and tool search sent far
 * fewer tokens than the whole catalog, with or without all it added to the conversation.
 */
export function expectDemoTrace(
  trace: RequestTrace,
  request: { readonly text: string; readonly expectedTools: readonly string[] },
  sentPerModelCall: readonly (readonly string[] | undefined)[],
  promptPerModelCall: readonly PromptTokens[],
): void {
  const { text, expectedTools } = request;
  const steps = trace.steps;
  expect(steps[0]!.sent).toEqual(['search_tools', 'load_tool']);
  expect(steps[0]!.searches[0]!.query).toBe(text);
  expect(steps[0]!.searches[0]!.results.map((result) => result.name)).toEqual(
    expect.arrayContaining([...expectedTools]),
  );
  expect(steps.flatMap((step) => step.loads.flatMap((load) => load.loaded))).toEqual(expectedTools);
  expect(trace.toolsCalled).toEqual(expectedTools);
  expect(steps.flatMap((step) => step.calls).every((call) => call.error === undefined)).toBe(true);
  expect(trace.answer).toMatch(/^\[offline planner\]/);
  // The trace tells what the model was really sent, step by step.
  expect(sentPerModelCall).toEqual(steps.map((step) => step.sent));

  const { tokens } = trace;
  expect(tokens.modelCalls).toBe(steps.length);
  expect(tokens.wholeCatalogPerCall).toBeGreaterThan(10_000);
  expect(tokens.withToolSearch).toBeGreaterThan(0);
  expect(tokens.withToolSearch).toBeLessThan(tokens.wholeCatalog);
  expect(tokens.withToolSearch).toBeLessThan(tokens.wholeCatalogPerCall);

  // All that tool search added, from the messages each model call was given.
  expect(steps.map((step) => step.prompt)).toEqual(promptPerModelCall);
  const prompts = promptPerModelCall;
  expect(prompts[0]!.searchMessages).toBe(0);
  for (const prompt of prompts.slice(1)) expect(prompt.searchMessages).toBeGreaterThan(0);
  // The paragraph is really in the system messages of every call (with what joins it, at least its own tokens).
  for (const prompt of prompts)
    expect(prompt.instructions).toBeGreaterThanOrEqual(tokens.instructionsPerCall);
  const added = tokens.allAdded!;
  expect(added.extraCalls).toBe(tokens.modelCalls - tokens.modelCallsWithoutSearch);
  expect(added.definitions + tokens.modelCalls * tokens.instructionsPerCall).toBe(tokens.withToolSearch);
  expect(added.instructions).toBe(prompts.reduce((total, prompt) => total + prompt.instructions, 0));
  expect(added.searchMessages).toBe(prompts.reduce((total, prompt) => total + prompt.searchMessages, 0));
  const onlySearched = prompts.filter(
    (_, index) =>
      steps[index]!.calls.length === 0 &&
      steps[index]!.answer === undefined &&
      steps[index]!.denied.length === 0,
  );
  expect(added.extraCallMessages).toBe(
    onlySearched.reduce(
      (total, prompt) => total + prompt.messages - prompt.searchMessages - prompt.instructions,
      0,
    ),
  );
  expect(added.total).toBe(
    added.definitions + added.instructions + added.searchMessages + added.extraCallMessages,
  );
  expect(added.total).toBeGreaterThan(tokens.withToolSearch);
  expect(added.total).toBeLessThan(tokens.wholeCatalog / 10);
}

/**
 * A stand-in for OpenAI's API on a loopback port that refuses every call as a wrong API key does
 * (HTTP 401 with OpenAI's error body), for testing what a real-model run prints when the provider
 * fails. Point a run at it with `OPENAI_BASE_URL: provider.baseURL`; `close()` when done.
 */
export async function startRefusingProvider(): Promise<{
  readonly baseURL: string;
  /** How many calls it answered. */
  calls(): number;
  close(): Promise<void>;
}> {
  let calls = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      calls++;
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: {
            message: 'Incorrect API key provided: wrong-key.',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Runs a Node script as a child process without blocking this one (so a server in this process,
 * such as {@link startRefusingProvider}, can answer it): its exit code and output. Killed after
 * `timeoutMs`.
 */
export function runNode(
  args: readonly string[],
  options: { readonly env?: NodeJS.ProcessEnv; readonly cwd?: string; readonly timeoutMs?: number } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: options.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 120_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Runs an agent example's `main.ts` (`mainUrl`) against {@link startRefusingProvider} with two
 * requests, and checks what a user sees when the provider refuses every call: the banner
 * (`banner`) on stdout, each request's failure on one line of stderr, the count, exit code 1,
 * and no stack trace or request body.
 */
export async function expectOneLineFailures(mainUrl: URL, banner: RegExp): Promise<void> {
  const provider = await startRefusingProvider();
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      OPENAI_API_KEY: 'wrong-key',
      OPENAI_BASE_URL: provider.baseURL,
      NO_COLOR: '1',
    };
    delete env.ANTHROPIC_API_KEY;
    delete env.TOOL_SEARCH_MODEL;
    const run = await runNode(
      [
        '--conditions=@tool-search/source',
        '--import',
        createRequire(mainUrl).resolve('tsx'),
        fileURLToPath(mainUrl),
        '--',
        'weather in Oslo',
        'book a table for two in Rome',
      ],
      { env },
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(banner);
    expect(run.stderr).toMatch(/^"weather in Oslo" failed: [^\n]*Incorrect API key provided: wrong-key\./m);
    expect(run.stderr).toMatch(/^"book a table for two in Rome" failed: [^\n]*Incorrect API key provided/m);
    expect(run.stderr).toMatch(/^2 of 2 requests failed\.$/m);
    // No stack trace, and not the request body that the provider's error carries.
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toMatch(/requestBodyValues|search_tools/);
    expect(provider.calls()).toBeGreaterThanOrEqual(2);
  } finally {
    await provider.close();
  }
}

/**
 * The script of a model (an AI SDK language model's `doGenerate`, for `MockLanguageModelV4`)
 * that loads the forecast tool, then calls it with a city its schema refuses, then answers.
 */
export function badInputGenerate() {
  const usage = {
    inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 0, text: 0, reasoning: 0 },
  };
  const script = [
    {
      type: 'tool-call',
      toolCallId: 'c1',
      toolName: 'load_tool',
      input: '{"toolName":"get_weather_forecast"}',
    },
    { type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather_forecast', input: '{"city":42}' },
    { type: 'text', text: 'Sorry.' },
  ] as const;
  let call = 0;
  return async () => {
    const part = script[Math.min(call++, script.length - 1)]!;
    return {
      content: [part],
      finishReason: {
        unified: part.type === 'text' ? ('stop' as const) : ('tool-calls' as const),
        raw: undefined,
      },
      usage,
      warnings: [],
    };
  };
}
