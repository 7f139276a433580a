import {
  type Clock,
  checkOptionNames,
  checkRemoveOptions,
  isWellFormedText,
  type LoadStateStore,
  type OptionNamesOf,
  type StoreRemoveOptions,
  type StoreStats,
  systemClock,
  ToolSearchError,
} from '@tool-search/core';
import {
  checkRedisOptions,
  createRedisCommands,
  escapeGlob,
  luaScript,
  type RedisStoreClient,
  SEPARATOR,
  separatedKey,
  toText,
} from './redis-commands';

export interface RedisStoreOptions {
  /** A connected node-redis client (`await createClient({ url }).connect()`). The store never closes it. */
  readonly client: RedisStoreClient;
  /**
   * Starts every thread's key, followed by a NUL and the thread id (default `'tool-search:'`; must
   * not be empty or contain a NUL). `clear()` and `stats()` cover this prefix's threads only.
   */
  readonly keyPrefix?: string;
  /** Milliseconds a thread lives after its last read or write, as the key's Redis expiry (default one hour; 0: no expiry). */
  readonly ttl?: number;
  /** Bound on each round trip before it fails with `STORE_TIMEOUT` (default 1,000 ms). */
  readonly commandTimeoutMs?: number;
  /** Source of "now" for `stats().oldestAccessTime` (default: the system clock). */
  readonly clock?: Pick<Clock, 'now'>;
}

const REDIS_STORE_OPTION_NAMES = {
  client: true,
  keyPrefix: true,
  ttl: true,
  commandTimeoutMs: true,
  clock: true,
} as const satisfies OptionNamesOf<RedisStoreOptions>;

/** The Redis store, with every optional capability. */
export interface RedisStore extends LoadStateStore {
  get(threadId: string): Promise<readonly string[]>;
  add(threadId: string, names: readonly string[]): Promise<readonly string[]>;
  delete(threadId: string): Promise<void>;
  /**
   * Removes the names in the order given, in one script; with `keep`, stops as soon as the thread
   * holds `keep` names or fewer. Answers the names left.
   */
  remove(
    threadId: string,
    names: readonly string[],
    options?: StoreRemoveOptions,
  ): Promise<readonly string[]>;
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

// One key per thread: a sorted set whose scores are the load order (1, 2, 3, ...). Each script
// is one round trip, atomic on the server, and refreshes the key's expiry when ARGV[1] > 0.
// PEXPIRE gets ARGV[1] itself, the ttl's digits: a Lua number could be printed as '1e+18'.
const GET_SCRIPT = `
local names = redis.call('ZRANGE', KEYS[1], 0, -1)
local ttl = tonumber(ARGV[1])
if ttl > 0 and #names > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
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
if ttl > 0 then redis.call('PEXPIRE', key, ARGV[1]) end
return redis.call('ZRANGE', key, 0, -1)
`;

// ARGV[2] is `keep` (-1: remove every name): the names go in the order given until the thread
// holds `keep` or fewer, so two processes evicting at once never take it below the cap.
const REMOVE_SCRIPT = `
local key = KEYS[1]
local ttl = tonumber(ARGV[1])
local keep = tonumber(ARGV[2])
local count = redis.call('ZCARD', key)
for i = 3, #ARGV do
  if keep >= 0 and count <= keep then break end
  count = count - redis.call('ZREM', key, ARGV[i])
end
if ttl > 0 then redis.call('PEXPIRE', key, ARGV[1]) end
return redis.call('ZRANGE', key, 0, -1)
`;

const scripts = { get: luaScript(GET_SCRIPT), add: luaScript(ADD_SCRIPT), remove: luaScript(REMOVE_SCRIPT) };

function toNames(reply: unknown, operation: string): readonly string[] {
  if (!Array.isArray(reply)) {
    throw new ToolSearchError('STORE_UNAVAILABLE', `Redis gave an unexpected reply to ${operation}`, {
      cause: reply,
    });
  }
  return reply.map(toText);
}

/**
 * Load state in Redis, shared by every process that serves an agent. One sorted set per thread
 * (`keyPrefix`, a NUL, `threadId`), scored by load order; adds and removes run as Lua scripts, so two
 * processes loading into one thread at once lose nothing and duplicate nothing; the TTL is the
 * key's own expiry (PEXPIRE), refreshed by every read and write, so nothing sweeps. `get`, `add`,
 * `remove` and `delete` are one round trip each. Every call is bounded: an unreachable or
 * reconnecting client fails at once with `STORE_UNAVAILABLE`, a slow one after
 * `commandTimeoutMs` with `STORE_TIMEOUT` (the pending command is withdrawn from node-redis's
 * offline queue if it was not sent yet).
 */
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  if (typeof options === 'object' && options !== null)
    checkOptionNames(options, REDIS_STORE_OPTION_NAMES, 'createRedisStore');
  const { client, keyPrefix, ttl, commandTimeoutMs } = checkRedisOptions(options, {
    keyPrefix: DEFAULT_KEY_PREFIX,
    ttl: DEFAULT_TTL,
  });
  const clock = options.clock ?? systemClock;
  const { call, send, evaluate, scan, throwIfDisposed, dispose } = createRedisCommands({
    client,
    commandTimeoutMs,
    label: 'Redis store',
  });
  const ttlArgument = String(Math.ceil(ttl));
  // Exactly this store's keys: a longer prefix ('chat:admin:' beside 'chat:') has no NUL there.
  const threads = { match: `${escapeGlob(keyPrefix)}${SEPARATOR}*`, type: 'zset' };
  const keyOf = separatedKey(keyPrefix);

  const names = (list: readonly string[]) => {
    if (!Array.isArray(list)) throw new ToolSearchError('INVALID_INPUT', 'names must be an array of strings');
    const strings = list.filter((name): name is string => typeof name === 'string');
    // Redis keeps a name as UTF-8, where 'a\ud800' and 'a\udc00' are both 'a\ufffd': refuse it
    // rather than merge two names (the core does not take such a name as a tool name either).
    const index = strings.findIndex((name) => !isWellFormedText(name));
    if (index !== -1) {
      throw new ToolSearchError(
        'INVALID_INPUT',
        `names must be well-formed Unicode: ${JSON.stringify(strings[index])} has a lone surrogate`,
      );
    }
    return strings;
  };

  return {
    async get(threadId) {
      return call('get', async (signal) =>
        toNames(await evaluate(scripts.get, [keyOf(threadId)], [ttlArgument], signal), 'get'),
      );
    },
    async add(threadId, list) {
      const added = names(list);
      return call('add', async (signal) =>
        toNames(await evaluate(scripts.add, [keyOf(threadId)], [ttlArgument, ...added], signal), 'add'),
      );
    },
    async remove(threadId, list, options) {
      const removed = names(list);
      const keep = checkRemoveOptions(options);
      const keepArgument = keep === undefined ? '-1' : String(keep);
      return call('remove', async (signal) =>
        toNames(
          await evaluate(scripts.remove, [keyOf(threadId)], [ttlArgument, keepArgument, ...removed], signal),
          'remove',
        ),
      );
    },
    async delete(threadId) {
      await call('delete', (signal) => send(['UNLINK', keyOf(threadId)], signal));
    },
    async clear() {
      await scan('clear', threads, async (keys, signal) => {
        await send(['UNLINK', ...keys], signal);
      });
    },
    async stats() {
      let threadCount = 0;
      let oldestAccessTime: number | null = null;
      await scan('stats', threads, async (keys, signal) => {
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
      throwIfDisposed('sweep');
      return 0;
    },
    dispose,
  };
}
