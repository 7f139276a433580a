import { createHash } from 'node:crypto';
import {
  checkOptionNames,
  checkVectorStoreArguments,
  isWellFormedText,
  type OptionNamesOf,
  ToolSearchError,
  type VectorStore,
  type VectorStoreEntry,
  vectorOfEntry,
} from '@tool-search/core';
import {
  checkRedisOptions,
  createRedisCommands,
  escapeGlob,
  luaScript,
  type RedisStoreClient,
} from './redis-commands';

export interface RedisVectorStoreOptions {
  /** A connected node-redis client (`await createClient({ url }).connect()`). The store never closes it. */
  readonly client: RedisStoreClient;
  /**
   * Prepended to each vector's key (default `'tool-search-vectors:'`; must not be empty). Keep it
   * apart from the load-state store's prefix: that store's `clear()` deletes its prefix's threads.
   */
  readonly keyPrefix?: string;
  /** Milliseconds a vector is kept after it was last written or read, as the key's Redis expiry (default 30 days; 0: no expiry). */
  readonly ttl?: number;
  /** Bound on each call's round trip before it fails with `STORE_TIMEOUT` (default 1,000 ms). */
  readonly commandTimeoutMs?: number;
}

const REDIS_VECTOR_STORE_OPTION_NAMES = {
  client: true,
  keyPrefix: true,
  ttl: true,
  commandTimeoutMs: true,
} as const satisfies OptionNamesOf<RedisVectorStoreOptions>;

/** The Redis {@link VectorStore}. */
export interface RedisVectorStore extends VectorStore {
  get(namespace: string, texts: readonly string[]): Promise<readonly (Float32Array | undefined)[]>;
  set(namespace: string, entries: readonly VectorStoreEntry[]): Promise<void>;
  /** Deletes every vector under this store's key prefix (SCAN + UNLINK, never KEYS). */
  clear(): Promise<void>;
  /** Stops the store; later calls fail with `DISPOSED`. Does not close the client. */
  dispose(): void;
}

export const DEFAULT_VECTOR_KEY_PREFIX = 'tool-search-vectors:';
export const DEFAULT_VECTOR_TTL = 30 * 24 * 3_600_000;
/** Starts what is hashed for a namespace or text that is not well-formed Unicode (never in UTF-8). */
const ILL_FORMED_MARKER = Buffer.from([0xff]);
/** Keys per script: a larger batch is sent as several scripts, pipelined in one round trip. */
const CHUNK_SIZE = 1_000;

// One string key per (namespace, text). Each script answers a whole chunk of keys; reading
// refreshes each found key's expiry when ARGV[1] > 0. A key of another type (never written by
// this store) reads as missing rather than failing the batch.
const GET_SCRIPT = `
local ttl = tonumber(ARGV[1])
local values = {}
for i = 1, #KEYS do
  local value = redis.pcall('GET', KEYS[i])
  if type(value) == 'string' then
    if ttl > 0 then redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
  else
    value = false
  end
  values[i] = value
end
return values
`;

const SET_SCRIPT = `
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS do
  if ttl > 0 then
    redis.call('SET', KEYS[i], ARGV[i + 1], 'PX', ARGV[1])
  else
    redis.call('SET', KEYS[i], ARGV[i + 1])
  end
end
return #KEYS
`;

const scripts = { get: luaScript(GET_SCRIPT), set: luaScript(SET_SCRIPT) };

/** Whether this machine stores a float32 little-endian, so its bytes can be copied as they are. */
const LITTLE_ENDIAN = new Uint8Array(Float32Array.of(1).buffer)[3] === 0x3f;

/** The vector's float32 values, little-endian, as base64 (node-redis answers with strings). */
function encode(vector: Float32Array): string {
  if (LITTLE_ENDIAN)
    return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
  const bytes = Buffer.allocUnsafe(vector.length * 4);
  for (let index = 0; index < vector.length; index++) bytes.writeFloatLE(vector[index]!, index * 4);
  return bytes.toString('base64');
}

/** The vector a kept value holds, or undefined for a missing or damaged one (never throws). */
function decode(value: unknown): Float32Array | undefined {
  const text = typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('latin1') : '';
  if (text.length === 0 || text.length % 4 !== 0) return undefined;
  // Node's decoder skips what is not base64; a value that does not encode back to itself is
  // damaged (far cheaper than matching a pattern over every character of every vector).
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0 || bytes.toString('base64') !== text) return undefined;
  const vector = new Float32Array(bytes.length / 4);
  if (LITTLE_ENDIAN) new Uint8Array(vector.buffer).set(bytes);
  else for (let index = 0; index < vector.length; index++) vector[index] = bytes.readFloatLE(index * 4);
  return vector;
}

function chunked<T>(items: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK_SIZE) {
    chunks.push(items.slice(start, start + CHUNK_SIZE));
  }
  return chunks;
}

/**
 * Embedding vectors in Redis, so that a process start or a serverless cold start does not send
 * the whole catalog to the embedding API again (see `createStoredEmbedder`). One string key per
 * (namespace, text): `keyPrefix` + the SHA-256 of both, so keys are short whatever the texts
 * hold; the value is the vector's float32 bytes as base64. A value that is not a vector reads as
 * missing. `get` and `set` are one round trip each (Lua scripts of up to 1,000 keys, pipelined),
 * bounded by `commandTimeoutMs`; the TTL is each key's own expiry, refreshed when it is read, so
 * the vectors of a catalog in use never expire.
 */
export function createRedisVectorStore(options: RedisVectorStoreOptions): RedisVectorStore {
  if (typeof options === 'object' && options !== null)
    checkOptionNames(options, REDIS_VECTOR_STORE_OPTION_NAMES, 'createRedisVectorStore');
  const { client, keyPrefix, ttl, commandTimeoutMs } = checkRedisOptions(options, {
    keyPrefix: DEFAULT_VECTOR_KEY_PREFIX,
    ttl: DEFAULT_VECTOR_TTL,
  });
  const { call, send, evaluate, scan, throwIfDisposed, dispose } = createRedisCommands({
    client,
    commandTimeoutMs,
    label: 'Redis vector store',
  });
  const ttlArgument = String(Math.ceil(ttl));
  // Exactly this store's keys: the prefix and 64 hex digits, string-typed.
  const vectorKeys = { match: `${escapeGlob(keyPrefix)}${'[0-9a-f]'.repeat(64)}`, type: 'string' };
  /**
   * Unambiguous whatever the namespace and text contain: the namespace's length goes first. Both
   * well-formed: the hash of their UTF-8, as it always was. Otherwise UTF-8 would turn a lone
   * surrogate into U+FFFD (so 'q\ud800' and 'q\udc00' would share a vector): the hash is of the
   * byte 0xFF, which no UTF-8 holds, then their UTF-16 code units.
   */
  const keyOf = (namespace: string, text: string) => {
    const hash = createHash('sha256');
    if (isWellFormedText(namespace) && isWellFormedText(text)) {
      hash.update(`${namespace.length}:${namespace}`).update(text);
    } else {
      hash
        .update(ILL_FORMED_MARKER)
        .update(`${namespace.length}:`)
        .update(Buffer.from(namespace, 'utf16le'))
        .update(Buffer.from(text, 'utf16le'));
    }
    return keyPrefix + hash.digest('hex');
  };

  return {
    async get(namespace, texts) {
      checkVectorStoreArguments(namespace, texts, 'texts');
      const keys = texts.map((text) => keyOf(namespace, String(text)));
      const distinct = [...new Set(keys)];
      if (distinct.length === 0) {
        throwIfDisposed('get vectors');
        return [];
      }
      const values = await call('get vectors', async (signal) => {
        const found = new Map<string, unknown>();
        const chunks = chunked(distinct);
        const replies = await Promise.all(
          chunks.map((chunk) => evaluate(scripts.get, chunk, [ttlArgument], signal)),
        );
        replies.forEach((reply, index) => {
          const chunk = chunks[index]!;
          if (!Array.isArray(reply) || reply.length !== chunk.length) {
            throw new ToolSearchError('STORE_UNAVAILABLE', 'Redis gave an unexpected reply to get vectors', {
              cause: reply,
            });
          }
          for (const [position, key] of chunk.entries()) found.set(key, reply[position]);
        });
        return found;
      });
      // Decoded per position: a text asked twice gets two arrays, neither shared.
      return keys.map((key) => decode(values.get(key)));
    },
    async set(namespace, entries) {
      checkVectorStoreArguments(namespace, entries, 'entries');
      const values = new Map<string, string>();
      entries.forEach((entry, index) => {
        values.set(keyOf(namespace, String(entry?.text)), encode(vectorOfEntry(entry, index)));
      });
      if (values.size === 0) {
        throwIfDisposed('set vectors');
        return;
      }
      const chunks = chunked([...values]);
      await call('set vectors', (signal) =>
        Promise.all(
          chunks.map((chunk) =>
            evaluate(
              scripts.set,
              chunk.map(([key]) => key),
              [ttlArgument, ...chunk.map(([, value]) => value)],
              signal,
            ),
          ),
        ),
      );
    },
    async clear() {
      await scan('clear vectors', vectorKeys, async (keys, signal) => {
        await send(['UNLINK', ...keys], signal);
      });
    },
    dispose,
  };
}
