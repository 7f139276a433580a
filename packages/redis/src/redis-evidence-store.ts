import {
  checkOptionNames,
  DEFAULT_MAX_STORED_USES,
  type EvidenceStore,
  type OptionNamesOf,
  readStoredUse,
  type StoredToolUse,
  sizeOption,
  ToolSearchError,
} from '@tool-search/core';
import {
  checkRedisOptions,
  createRedisCommands,
  luaScript,
  type RedisStoreClient,
  separatedKey,
  toText,
} from './redis-commands';

export interface RedisEvidenceStoreOptions {
  /** A connected node-redis client (`await createClient({ url }).connect()`). The store never closes it. */
  readonly client: RedisStoreClient;
  /**
   * Starts every catalog's keys, followed by a NUL and the catalog id (default
   * `'tool-search-evidence:'`; must not be empty or contain a NUL). Keep it apart from the
   * load-state store's prefix.
   */
  readonly keyPrefix?: string;
  /** Uses kept per catalog (default 10,000, as in memory); past it the oldest added go first. */
  readonly maxUses?: number;
  /**
   * Milliseconds a catalog's evidence is kept after its last write, as its keys' Redis expiry
   * (default 90 days: three of the learning's default half-lives, after which a use weighs 1/8; 0: no expiry).
   */
  readonly ttl?: number;
  /** Bound on each round trip before it fails with `STORE_TIMEOUT` (default 1,000 ms). */
  readonly commandTimeoutMs?: number;
}

const REDIS_EVIDENCE_STORE_OPTION_NAMES = {
  client: true,
  keyPrefix: true,
  maxUses: true,
  ttl: true,
  commandTimeoutMs: true,
} as const satisfies OptionNamesOf<RedisEvidenceStoreOptions>;

/** The Redis {@link EvidenceStore}, with every optional capability. */
export interface RedisEvidenceStore extends EvidenceStore {
  add(catalogId: string, uses: readonly StoredToolUse[]): Promise<void>;
  list(catalogId: string): Promise<readonly StoredToolUse[]>;
  /** Deletes the catalog's evidence (its two keys). */
  clear(catalogId: string): Promise<void>;
  /** Stops the store; later calls fail with `DISPOSED`. Does not close the client. */
  dispose(): void;
}

export const DEFAULT_EVIDENCE_KEY_PREFIX = 'tool-search-evidence:';
export const DEFAULT_EVIDENCE_TTL = 90 * 24 * 3_600_000;
/** Uses per script: a larger add is sent as several scripts, one after another, each atomic. */
const CHUNK_SIZE = 1_000;

// Two keys per catalog: a list of use ids in the order added (`…\0order`) and a hash of the uses
// by id (`…\0uses`, each a JSON text). A use id is the hash's field as JSON, so that an id with a
// lone surrogate is kept apart from its U+FFFD twin. The add script keeps the first use of each
// id, then drops the oldest ids past ARGV[1] (in chunks: Lua's unpack has a bounded stack), and
// refreshes both keys' expiry when ARGV[2] > 0 (PEXPIRE gets the ttl's digits, never '1e+18').
const ADD_SCRIPT = `
local order, uses = KEYS[1], KEYS[2]
local max = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
for i = 3, #ARGV, 2 do
  if redis.call('HSETNX', uses, ARGV[i], ARGV[i + 1]) == 1 then redis.call('RPUSH', order, ARGV[i]) end
end
local excess = redis.call('LLEN', order) - max
while excess > 0 do
  local count = math.min(excess, 1000)
  local dropped = redis.call('LRANGE', order, 0, count - 1)
  redis.call('LTRIM', order, count, -1)
  redis.call('HDEL', uses, unpack(dropped))
  excess = excess - count
end
if ttl > 0 then
  redis.call('PEXPIRE', order, ARGV[2])
  redis.call('PEXPIRE', uses, ARGV[2])
end
return 1
`;

// The uses in the order added, read in one script so that an add in between cannot tear it.
const LIST_SCRIPT = `
local ids = redis.call('LRANGE', KEYS[1], 0, -1)
local out = {}
for start = 1, #ids, 1000 do
  local values = redis.call('HMGET', KEYS[2], unpack(ids, start, math.min(start + 999, #ids)))
  for i = 1, #values do out[#out + 1] = values[i] end
end
return out
`;

const scripts = { add: luaScript(ADD_SCRIPT), list: luaScript(LIST_SCRIPT) };

/** A use's own fields (as given: the learning cuts a query, not its store). */
const ownFields = (use: StoredToolUse): StoredToolUse => ({
  id: use.id,
  query: use.query,
  toolName: use.toolName,
  time: use.time,
  ...(use.thread === undefined ? {} : { thread: use.thread }),
});

/**
 * A stored value read back, as untrusted input (another program may have written the key): kept
 * when it is a use as the core reads one (`readStoredUse`), with its fields as they were stored.
 */
function decodeUse(value: unknown): StoredToolUse | undefined {
  if (value === null || value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(toText(value));
  } catch {
    return undefined;
  }
  return readStoredUse(parsed) === undefined ? undefined : ownFields(parsed as StoredToolUse);
}

/**
 * Evidence of use in Redis, per catalog, shared by every process that serves an agent and kept
 * across restarts. Each add is one Lua script per 1,000 uses (atomic: two processes adding at
 * once lose nothing and keep one use per id), bounded to `maxUses` per catalog, the oldest added
 * dropped first; each list is one script. The caps per tool and per thread and the decay of old
 * uses are the learning's (`createLearning` in `@tool-search/core`), applied to what this store
 * lists. Every call is bounded: an unreachable or reconnecting client fails at once with
 * `STORE_UNAVAILABLE`, a slow one after `commandTimeoutMs` with `STORE_TIMEOUT`; the learning
 * then ranks without the store's evidence and says so with a `store-error` event.
 */
export function createRedisEvidenceStore(options: RedisEvidenceStoreOptions): RedisEvidenceStore {
  if (typeof options === 'object' && options !== null)
    checkOptionNames(options, REDIS_EVIDENCE_STORE_OPTION_NAMES, 'createRedisEvidenceStore');
  const { client, keyPrefix, ttl, commandTimeoutMs } = checkRedisOptions(options, {
    keyPrefix: DEFAULT_EVIDENCE_KEY_PREFIX,
    ttl: DEFAULT_EVIDENCE_TTL,
  });
  const maxUses = Math.max(1, sizeOption(options.maxUses, 'maxUses', DEFAULT_MAX_STORED_USES));
  const { call, send, evaluate, dispose } = createRedisCommands({
    client,
    commandTimeoutMs,
    label: 'Redis evidence store',
  });
  const ttlArgument = String(Math.ceil(ttl));
  const maxArgument = String(maxUses);
  const catalogKey = separatedKey(keyPrefix);
  const keysOf = (catalogId: unknown): [string | Buffer, string | Buffer] => {
    if (typeof catalogId !== 'string') {
      throw new ToolSearchError('INVALID_INPUT', `catalogId must be a string, got ${typeof catalogId}`);
    }
    const base = catalogKey(catalogId);
    const part = (name: string) =>
      typeof base === 'string' ? `${base}\0${name}` : Buffer.concat([base, Buffer.from(`\0${name}`)]);
    return [part('order'), part('uses')];
  };

  return {
    async add(catalogId, uses) {
      const keys = keysOf(catalogId);
      if (!Array.isArray(uses))
        throw new ToolSearchError('INVALID_INPUT', 'uses must be an array of stored uses');
      const bad = uses.findIndex((use) => readStoredUse(use) === undefined);
      if (bad !== -1) throw new ToolSearchError('INVALID_INPUT', `uses[${bad}] is not a stored use`);
      const checked = uses.map(ownFields);
      for (let start = 0; start < checked.length; start += CHUNK_SIZE) {
        const argv = [maxArgument, ttlArgument];
        for (const use of checked.slice(start, start + CHUNK_SIZE))
          argv.push(JSON.stringify(use.id), JSON.stringify(use));
        await call('evidence add', (signal) => evaluate(scripts.add, keys, argv, signal));
      }
    },
    async list(catalogId) {
      const keys = keysOf(catalogId);
      const reply = await call('evidence list', (signal) => evaluate(scripts.list, keys, [], signal));
      if (!Array.isArray(reply)) {
        throw new ToolSearchError('STORE_UNAVAILABLE', 'Redis gave an unexpected reply to evidence list', {
          cause: reply,
        });
      }
      const listed: StoredToolUse[] = [];
      for (const value of reply) {
        const use = decodeUse(value);
        if (use !== undefined) listed.push(use);
      }
      return listed;
    },
    async clear(catalogId) {
      const keys = keysOf(catalogId);
      await call('evidence clear', (signal) => send(['UNLINK', ...keys], signal));
    },
    dispose,
  };
}
