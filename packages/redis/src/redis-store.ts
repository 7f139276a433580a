import { createHash } from 'node:crypto';
import {
  type Clock,
  type LoadStateStore,
  type StoreStats,
  systemClock,
  ToolSearchError,
} from '@tool-search/core';

/**
 * The part of a node-redis client (`createClient()` from `redis` 5 or later) that the store
 * uses. A cluster client is not supported: its `sendCommand` takes different arguments.
 */
export interface RedisStoreClient {
  readonly isOpen: boolean;
  readonly isReady: boolean;
  sendCommand(args: readonly string[], options?: { abortSignal?: AbortSignal }): Promise<unknown>;
}

export interface RedisStoreOptions {
  /** A connected node-redis client (`await createClient({ url }).connect()`). The store never closes it. */
  readonly client: RedisStoreClient;
  /** Prepended to every thread id to form its key (default `'tool-search:'`; must not be empty). */
  readonly keyPrefix?: string;
  /** Milliseconds a thread lives after its last read or write, as the key's Redis expiry (default one hour; 0: no expiry). */
  readonly ttl?: number;
  /** Bound on each round trip before it fails with `STORE_TIMEOUT` (default 1,000 ms). */
  readonly commandTimeoutMs?: number;
  /** Source of "now" for `stats().oldestAccessTime` (default: the system clock). */
  readonly clock?: Pick<Clock, 'now'>;
}

/** The Redis store, with every optional capability. */
export interface RedisStore extends LoadStateStore {
  get(threadId: string): Promise<readonly string[]>;
  add(threadId: string, names: readonly string[]): Promise<readonly string[]>;
  delete(threadId: string): Promise<void>;
  remove(threadId: string, names: readonly string[]): Promise<readonly string[]>;
  /** Deletes every thread under this store's key prefix (SCAN + UNLINK, never KEYS). */
  clear(): Promise<void>;
  /** Counts the threads under this store's key prefix (SCAN + PTTL, never KEYS). */
  stats(): Promise<StoreStats>;
  /**
   * Always 0, without a round trip: Redis deletes a key when its expiry passes (and never
   * returns an expired one), so there is nothing left for a sweep to remove.
   */
  sweep(): Promise<number>;
  /** Stops the store; later calls fail with `DISPOSED`. Does not close the client. */
  dispose(): void;
}

export const DEFAULT_KEY_PREFIX = 'tool-search:';
export const DEFAULT_TTL = 3_600_000;
export const DEFAULT_COMMAND_TIMEOUT_MS = 1_000;
const SCAN_COUNT = '1000';

// One key per thread: a sorted set whose scores are the load order (1, 2, 3, ...). Each script
// is one round trip, atomic on the server, and refreshes the key's expiry when ARGV[1] > 0.
const GET_SCRIPT = `
local names = redis.call('ZRANGE', KEYS[1], 0, -1)
local ttl = tonumber(ARGV[1])
if ttl > 0 and #names > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
return names
`;

const ADD_SCRIPT = `
local key = KEYS[1]
local ttl = tonumber(ARGV[1])
local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
local score = 0
if #last == 2 then score = tonumber(last[2]) end
for i = 2, #ARGV do
  if redis.call('ZADD', key, 'NX', score + 1, ARGV[i]) == 1 then score = score + 1 end
end
if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
return redis.call('ZRANGE', key, 0, -1)
`;

const REMOVE_SCRIPT = `
local key = KEYS[1]
local ttl = tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZREM', key, ARGV[i]) end
if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
return redis.call('ZRANGE', key, 0, -1)
`;

interface Script {
  readonly source: string;
  readonly sha: string;
}

const script = (source: string): Script => ({ source, sha: createHash('sha1').update(source).digest('hex') });
const scripts = { get: script(GET_SCRIPT), add: script(ADD_SCRIPT), remove: script(REMOVE_SCRIPT) };

/** Escapes the glob characters of SCAN's MATCH pattern. */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

const toText = (value: unknown): string => (typeof value === 'string' ? value : String(value));

function toNames(reply: unknown, operation: string): readonly string[] {
  if (!Array.isArray(reply)) {
    throw new ToolSearchError('STORE_UNAVAILABLE', `Redis gave an unexpected reply to ${operation}`, {
      cause: reply,
    });
  }
  return reply.map(toText);
}

const isNoScript = (error: unknown) =>
  error instanceof Error && typeof error.message === 'string' && error.message.startsWith('NOSCRIPT');

/**
 * Load state in Redis, shared by every process that serves an agent. One sorted set per thread
 * (`keyPrefix + threadId`), scored by load order; adds and removes run as Lua scripts, so two
 * processes loading into one thread at once lose nothing and duplicate nothing; the TTL is the
 * key's own expiry (PEXPIRE), refreshed by every read and write, so nothing sweeps. `get`, `add`,
 * `remove` and `delete` are one round trip each. Every call is bounded: an unreachable or
 * reconnecting client fails at once with `STORE_UNAVAILABLE`, a slow one after
 * `commandTimeoutMs` with `STORE_TIMEOUT` (the pending command is withdrawn from node-redis's
 * offline queue if it was not sent yet).
 */
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  const client = options?.client;
  const keyPrefix = options?.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const ttl = options?.ttl ?? DEFAULT_TTL;
  const commandTimeoutMs = options?.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const clock = options?.clock ?? systemClock;

  if (!client || typeof client.sendCommand !== 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'client must be a node-redis client (createClient() from redis)',
    );
  }
  if (typeof keyPrefix !== 'string' || keyPrefix.length === 0) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'keyPrefix must be a non-empty string (clear() deletes every thread key under it)',
    );
  }
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `ttl must be a finite number of milliseconds >= 0, got ${ttl}`,
    );
  }
  if (typeof commandTimeoutMs !== 'number' || !Number.isFinite(commandTimeoutMs) || commandTimeoutMs <= 0) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `commandTimeoutMs must be a finite number of milliseconds > 0, got ${commandTimeoutMs}`,
    );
  }

  const ttlArgument = String(Math.ceil(ttl));
  const pattern = `${escapeGlob(keyPrefix)}*`;
  const keyOf = (threadId: string) => keyPrefix + String(threadId);
  let disposed = false;

  /**
   * Runs one round trip (or, for a script the server has not cached yet, two) under one deadline.
   * Every failure becomes a ToolSearchError; nothing waits longer than commandTimeoutMs.
   */
  async function call<T>(operation: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (disposed) throw new ToolSearchError('DISPOSED', `The Redis store is disposed (${operation})`);
    if (!client.isOpen) {
      throw new ToolSearchError(
        'STORE_UNAVAILABLE',
        `Redis ${operation} failed: the client is not connected (call await client.connect() first)`,
      );
    }
    if (!client.isReady) {
      throw new ToolSearchError('STORE_UNAVAILABLE', `Redis ${operation} failed: the client is reconnecting`);
    }
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A wall-clock bound on network I/O, so not the injected clock; unref'd, cleared on settle.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(
          new ToolSearchError(
            'STORE_TIMEOUT',
            `Redis ${operation} got no answer within ${commandTimeoutMs} ms`,
          ),
        );
      }, commandTimeoutMs);
      timer.unref?.();
    });
    try {
      return await Promise.race([work(controller.signal), deadline]);
    } catch (error) {
      if (ToolSearchError.isInstance(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new ToolSearchError('STORE_UNAVAILABLE', `Redis ${operation} failed: ${reason}`, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  const send = (args: readonly string[], signal: AbortSignal) =>
    client.sendCommand(args, { abortSignal: signal });

  async function evaluate(script: Script, key: string, args: readonly string[], signal: AbortSignal) {
    const tail = ['1', key, ttlArgument, ...args];
    try {
      return await send(['EVALSHA', script.sha, ...tail], signal);
    } catch (error) {
      // First use on this server (or after a restart / SCRIPT FLUSH): send the source once.
      if (!isNoScript(error)) throw error;
      return await send(['EVAL', script.source, ...tail], signal);
    }
  }

  const names = (list: readonly string[]) => {
    if (!Array.isArray(list)) throw new ToolSearchError('INVALID_INPUT', 'names must be an array of strings');
    return list.filter((name): name is string => typeof name === 'string');
  };

  /** Walks every thread key of this prefix, one SCAN page per round trip. */
  async function scan(
    operation: string,
    page: (keys: readonly string[], signal: AbortSignal) => Promise<void>,
  ) {
    let cursor = '0';
    do {
      cursor = await call(operation, async (signal) => {
        const reply = await send(
          ['SCAN', cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT, 'TYPE', 'zset'],
          signal,
        );
        if (!Array.isArray(reply) || reply.length !== 2 || !Array.isArray(reply[1])) {
          throw new ToolSearchError(
            'STORE_UNAVAILABLE',
            `Redis gave an unexpected reply to SCAN (${operation})`,
          );
        }
        const keys = (reply[1] as unknown[]).map(toText);
        if (keys.length > 0) await page(keys, signal);
        return toText(reply[0]);
      });
    } while (cursor !== '0');
  }

  return {
    async get(threadId) {
      return call('get', async (signal) =>
        toNames(await evaluate(scripts.get, keyOf(threadId), [], signal), 'get'),
      );
    },
    async add(threadId, list) {
      const added = names(list);
      return call('add', async (signal) =>
        toNames(await evaluate(scripts.add, keyOf(threadId), added, signal), 'add'),
      );
    },
    async remove(threadId, list) {
      const removed = names(list);
      return call('remove', async (signal) =>
        toNames(await evaluate(scripts.remove, keyOf(threadId), removed, signal), 'remove'),
      );
    },
    async delete(threadId) {
      await call('delete', (signal) => send(['UNLINK', keyOf(threadId)], signal));
    },
    async clear() {
      await scan('clear', async (keys, signal) => {
        await send(['UNLINK', ...keys], signal);
      });
    },
    async stats() {
      let threadCount = 0;
      let oldestAccessTime: number | null = null;
      await scan('stats', async (keys, signal) => {
        // Sent together, so node-redis writes them as one pipeline: one round trip per page.
        const remaining = await Promise.all(keys.map((key) => send(['PTTL', key], signal)));
        const now = clock.now();
        for (const value of remaining) {
          const pttl = Number(value);
          if (pttl === -2) continue; // expired between SCAN and PTTL
          threadCount++;
          if (pttl < 0 || ttl === 0) continue; // no expiry: the last access is not recorded
          // The expiry was set to `ttl` at the last access, so that access was `ttl - pttl` ago.
          const lastAccess = Math.min(now, now - (ttl - pttl));
          if (oldestAccessTime === null || lastAccess < oldestAccessTime) oldestAccessTime = lastAccess;
        }
      });
      return { threadCount, oldestAccessTime };
    },
    async sweep() {
      if (disposed) throw new ToolSearchError('DISPOSED', 'The Redis store is disposed (sweep)');
      return 0;
    },
    dispose() {
      disposed = true;
    },
  };
}
