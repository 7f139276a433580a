import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createToolSearchEngine, type LoadToolOutput, type ToolSearchEvent } from '@tool-search/core';
import { sampleCatalog } from '@tool-search/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../src/redis-store';
import { countRoundTrips, type RedisServer, startRedisServer } from '../src/testing';
import { closeClients, connectClient, type TestClient } from './clients';

// Two engines in two processes (this test's and a child's), one Redis: what a load balancer in
// front of several servers does to a thread. What one process loads, the other shows next step.
const keyPrefix = 'two-processes:';
const metaTools = ['search_tools', 'load_tool'];

let server: RedisServer;
let client: TestClient;
let child: ChildProcess;
let nextId = 0;
const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

/** Sends one command to the other process and waits for its answer. */
function other(command: {
  op: 'load';
  threadId: string;
  toolNames: string[];
  maxLoadedTools?: number;
}): Promise<LoadToolOutput>;
function other(command: {
  op: 'step';
  threadId: string;
  maxLoadedTools?: number;
}): Promise<{ visible: string[]; degraded: boolean }>;
function other(command: { op: 'events' }): Promise<ToolSearchEvent[]>;
function other(command: object): Promise<unknown> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    child.stdin!.write(`${JSON.stringify({ id, ...command })}\n`);
  });
}

function startChild(url: string): Promise<void> {
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  const script = fileURLToPath(new URL('./engine-process.ts', import.meta.url));
  child = spawn(process.execPath, [tsx, '--conditions=@tool-search/source', script, url, keyPrefix], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    // Generous: tsx compiles the engine and the core from source first, which on a busy two-core
    // machine (the whole suite running beside it) once took longer than 15 s.
    const timer = setTimeout(() => reject(new Error(`the engine process did not start:\n${stderr}`)), 60_000);
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, newline)) as {
          ready?: true;
          id?: number;
          result?: unknown;
          error?: string;
        };
        buffer = buffer.slice(newline + 1);
        if (message.ready) {
          clearTimeout(timer);
          resolve();
          continue;
        }
        const waiter = pending.get(message.id!);
        pending.delete(message.id!);
        if (message.error !== undefined) waiter?.reject(new Error(message.error));
        else waiter?.resolve(message.result);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      const error = new Error(`the engine process exited (code ${code}):\n${stderr}`);
      reject(error);
      for (const waiter of pending.values()) waiter.reject(error);
    });
  });
}

beforeAll(async () => {
  server = await startRedisServer();
  client = await connectClient(server.url);
  await startChild(server.url);
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin!.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  await closeClients();
  await server?.dispose();
});

function engineHere(
  options: {
    onEvent?: (event: ToolSearchEvent) => void;
    commandTimeoutMs?: number;
    maxLoadedTools?: number;
  } = {},
) {
  const counted = countRoundTrips(client);
  const engine = createToolSearchEngine({
    catalog: sampleCatalog(),
    storage: createRedisStore({
      client: counted.client,
      keyPrefix,
      commandTimeoutMs: options.commandTimeoutMs ?? 5_000,
    }),
    onEvent: options.onEvent,
    maxLoadedTools: options.maxLoadedTools,
  });
  return { engine, counted };
}

describe('two engines in two processes sharing a thread through Redis', () => {
  it('shows on the next step what the other process loaded, in load order', async () => {
    const { engine, counted } = engineHere();
    const request = engine.startRequest({ threadId: 'shared-thread' });
    expect((await request.prepareStep()).visible).toEqual(metaTools);
    expect(await other({ op: 'step', threadId: 'shared-thread' })).toEqual({
      visible: metaTools,
      degraded: false,
    });

    const loaded = await other({ op: 'load', threadId: 'shared-thread', toolNames: ['getWeather'] });
    expect(loaded.success).toBe(true);

    counted.reset();
    const plan = await request.prepareStep();
    expect(plan.visible).toEqual([...metaTools, 'getWeather']);
    expect(plan.degraded).toBe(false);
    expect(plan.loaded.map((entry) => entry.descriptor.name)).toEqual(['getWeather']);
    expect(counted.reset()).toEqual(['EVALSHA']); // one round trip for the step
    expect((await request.guard('getWeather')).allowed).toBe(true);

    expect((await request.loadTool({ toolName: 'send_email' })).success).toBe(true);
    expect(await other({ op: 'step', threadId: 'shared-thread' })).toEqual({
      visible: [...metaTools, 'getWeather', 'send_email'],
      degraded: false,
    });
    // A thread nobody loaded into stays bare in both processes.
    expect((await engine.startRequest({ threadId: 'elsewhere' }).prepareStep()).visible).toEqual(metaTools);
    expect((await other({ op: 'step', threadId: 'elsewhere' })).visible).toEqual(metaTools);
    await engine.dispose();
  });

  it('loses and duplicates nothing when both processes load into one thread at once', async () => {
    const { engine } = engineHere();
    const names = sampleCatalog().map((entry) => entry.descriptor.name);
    const here = [...names];
    const there = [...names].reverse();
    // Every name is loaded by both processes, each in its own order, all requests in flight together.
    const results = await Promise.all([
      ...here.map((name) => engine.startRequest({ threadId: 'race' }).loadTool({ toolName: name })),
      ...there.map((name) => other({ op: 'load', threadId: 'race', toolNames: [name] })),
    ]);
    expect(results.every((result) => result.success)).toBe(true);
    const mine = (await engine.startRequest({ threadId: 'race' }).prepareStep()).visible;
    const theirs = (await other({ op: 'step', threadId: 'race' })).visible;
    expect(mine).toEqual(theirs);
    expect(mine.slice(0, 2)).toEqual(metaTools);
    expect([...mine.slice(2)].sort()).toEqual([...names].sort());
    // Every name was reported loaded by at least one of the two processes. (Both may say "loaded":
    // the engine tells loaded from already-loaded by a read before its add, so that report is not
    // atomic across processes; the stored state above is.)
    const newlyLoaded = new Set(results.flatMap((result) => result.loaded ?? []));
    expect([...newlyLoaded].sort()).toEqual([...names].sort());
    await engine.dispose();
  });

  it('holds maxLoadedTools across both processes loading into one thread at once: never more shown, or held once the loads settle', async () => {
    const maxLoadedTools = 3;
    const events: ToolSearchEvent[] = [];
    const { engine } = engineHere({ maxLoadedTools, onEvent: (event) => events.push(event) });
    await other({ op: 'events' }); // only this test's events from here on
    const names = sampleCatalog().map((entry) => entry.descriptor.name);
    const here = names.slice(0, 6);
    const there = names.slice(6);
    const results = await Promise.all([
      ...here.map((name) => engine.startRequest({ threadId: 'capped' }).loadTool({ toolName: name })),
      ...there.map((name) => other({ op: 'load', threadId: 'capped', toolNames: [name], maxLoadedTools })),
    ]);
    expect(results.every((result) => result.success)).toBe(true);
    const held = await client.zRange(`${keyPrefix}\0capped`, 0, -1);
    // Each eviction removes what its own add saw past the cap, and stops once the thread is at the
    // cap (another process may have evicted meanwhile), so once every load has settled the thread
    // holds exactly the cap, each name once, and both processes show exactly that.
    expect(held).toHaveLength(maxLoadedTools);
    expect(new Set(held).size).toBe(held.length);
    const mine = (await engine.startRequest({ threadId: 'capped' }).prepareStep()).visible;
    const theirs = (await other({ op: 'step', threadId: 'capped', maxLoadedTools })).visible;
    expect(mine).toEqual([...metaTools, ...held]);
    expect(theirs).toEqual(mine);
    // Each name was loaded once, by one process, and is now held or was evicted, never both (a
    // name both processes asked to evict is reported by each: it is gone from both answers).
    const evicted = [...events, ...(await other({ op: 'events' }))]
      .filter((event) => event.type === 'evict' && event.threadId === 'capped')
      .flatMap((event) => (event as Extract<ToolSearchEvent, { type: 'evict' }>).toolNames);
    expect(held.filter((name) => evicted.includes(name))).toEqual([]);
    expect(new Set([...evicted, ...held])).toEqual(new Set(names));
    await engine.dispose();
  });

  it('turns a Redis outage into a degraded step (meta-tools only, an event), then recovers', async () => {
    const events: ToolSearchEvent[] = [];
    const { engine } = engineHere({ onEvent: (event) => events.push(event), commandTimeoutMs: 200 });
    await other({ op: 'load', threadId: 'outage', toolNames: ['getForecast'] });
    const request = engine.startRequest({ threadId: 'outage' });
    expect((await request.prepareStep()).visible).toEqual([...metaTools, 'getForecast']);

    server.freeze();
    let plan: Awaited<ReturnType<typeof request.prepareStep>>;
    try {
      plan = await request.prepareStep();
    } finally {
      server.thaw();
    }
    expect(plan.degraded).toBe(true);
    expect(plan.visible).toEqual(metaTools);
    const failure = events.find((event) => event.type === 'store-error');
    expect(failure).toMatchObject({ type: 'store-error', operation: 'get', threadId: 'outage' });
    expect((failure as { error: { code: string } }).error.code).toBe('STORE_TIMEOUT');
    // Nothing was lost: the next step shows the thread's tools again.
    expect(await request.prepareStep()).toMatchObject({
      visible: [...metaTools, 'getForecast'],
      degraded: false,
    });
    await engine.dispose();
  });
});
