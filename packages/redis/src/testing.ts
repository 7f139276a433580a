import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisStoreClient } from './redis-commands';

/**
 * `@tool-search/redis/testing`: a real, throwaway `redis-server` on a free loopback port, in its
 * own temporary directory, for tests, examples and benchmarks. Needs the `redis-server` binary;
 * when it is missing, `startRedisServer` rejects and says how to install it.
 */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGTERM, or SIGKILL for a crash) and waits for it to exit. */
  stop(options?: { signal?: 'SIGTERM' | 'SIGKILL' }): Promise<void>;
  /** Starts it again on the same port and directory (so with `appendonly` its data comes back). */
  restart(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open but nothing answers, like a stalled server. */
  freeze(): void;
  /** Undoes `freeze` (SIGCONT). */
  thaw(): void;
  /** Stops the server and removes its directory. */
  dispose(): Promise<void>;
}

export interface RedisServerOptions {
  /** Appends every write to disk before acknowledging it (`appendfsync always`), so a crash loses nothing. */
  readonly appendonly?: boolean;
  readonly requirepass?: string;
}

const MISSING =
  'redis-server is not installed: install it (Debian/Ubuntu: apt-get install -y redis-server), ' +
  'or point the program at a running Redis.';

const running = new Set<ChildProcess>();
let exitHookInstalled = false;
/** Servers still running when the process exits are killed (installed on first launch: no import side effect). */
function killOnExit(child: ChildProcess): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const server of running) server.kill('SIGKILL');
    });
  }
  running.add(child);
  child.once('exit', () => running.delete(child));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not find a free port'));
      });
    });
  });
}

function launch(port: number, dir: string, options: RedisServerOptions): Promise<ChildProcess> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--daemonize',
    'no',
    '--protected-mode',
    'yes',
    '--loglevel',
    'notice',
  ];
  if (options.appendonly) args.push('--appendonly', 'yes', '--appendfsync', 'always');
  else args.push('--appendonly', 'no');
  if (options.requirepass) args.push('--requirepass', options.requirepass);

  return new Promise((resolve, reject) => {
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not become ready within 10 s:\n${log}`));
    }, 10_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        killOnExit(child);
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new Error(MISSING, { cause: error }) : error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited before it was ready (code ${code}, signal ${signal}):\n${log}`));
    });
  });
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts a `redis-server` (no snapshots; `appendonly` only when asked) and resolves once it accepts connections. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;
  // Another process may take the free port between our probe and the launch: try a few ports.
  for (let attempt = 0; attempt < 5 && !child; attempt++) {
    port = await freePort();
    try {
      child = await launch(port, dir, options);
    } catch (error) {
      if (attempt === 4 || (error instanceof Error && error.message === MISSING)) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
  let current = child!;

  const stop: RedisServer['stop'] = async ({ signal = 'SIGTERM' } = {}) => {
    current.kill('SIGCONT');
    current.kill(signal);
    await waitForExit(current);
  };

  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    async restart() {
      if (current.exitCode === null && current.signalCode === null) await stop();
      current = await launch(port, dir, options);
    },
    freeze: () => current.kill('SIGSTOP'),
    thaw: () => current.kill('SIGCONT'),
    async dispose() {
      await stop({ signal: 'SIGKILL' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Wraps a client to count round trips (each sendCommand is one request and its answer). */
export function countRoundTrips(client: RedisStoreClient) {
  const commands: string[] = [];
  const counted: RedisStoreClient = {
    get isOpen() {
      return client.isOpen;
    },
    get isReady() {
      return client.isReady;
    },
    sendCommand(args, options) {
      commands.push(String(args[0]).toUpperCase());
      return client.sendCommand(args, options);
    },
  };
  return { client: counted, commands, reset: () => commands.splice(0) };
}

/** Counts the commands the server has executed (INFO commandstats), by command name. */
export async function commandStats(client: {
  info(section: string): Promise<unknown>;
}): Promise<Map<string, number>> {
  const info = String(await client.info('commandstats'));
  const stats = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) stats.set(match[1]!, Number(match[2]));
  return stats;
}
