import { createHash } from 'node:crypto';
import { isWellFormedText, MAX_TIMER_DELAY_MS, ToolSearchError } from '@tool-search/core';

/**
 * The part of a node-redis client (`createClient()` from `redis` 5 or later, or a pool from
 * `createClientPool()`) that the stores use. A cluster client (`createCluster()`), a Sentinel
 * client (`createSentinel()`) and a legacy-mode client (`client.legacy()`) are refused with
 * `INVALID_OPTIONS`: their `sendCommand` takes other arguments.
 */
export interface RedisStoreClient {
  readonly isOpen: boolean;
  /**
   * False while the client reconnects (calls then fail at once). A pool has none: a call it cannot
   * serve fails after `commandTimeoutMs`.
   */
  readonly isReady?: boolean;
  /**
   * node-redis's own `keyPrefix` option (redis 6), which it puts before every key it sends: the
   * stores put it before theirs too (node-redis does not, for the raw commands they send).
   */
  readonly options?: { readonly keyPrefix?: unknown };
  /**
   * Arguments are strings, or Buffers for keys that are not UTF-8 (a thread id that is not
   * well-formed Unicode). `typeMapping` asks for some replies as Buffers (SCAN's keys).
   */
  sendCommand(
    args: readonly (string | Buffer)[],
    options?: { abortSignal?: AbortSignal; typeMapping?: { readonly [respType: number]: unknown } },
  ): Promise<unknown>;
}

export const DEFAULT_COMMAND_TIMEOUT_MS = 1_000;
const SCAN_COUNT = '1000';
/**
 * node-redis's `typeMapping` for "bulk strings as Buffers" (`RESP_TYPES.BLOB_STRING`, the byte
 * `$`), written out so that this package loads nothing from `redis` at run time.
 */
export const BLOB_STRINGS_AS_BUFFERS = { 36: Buffer } as const;

/** The options every Redis store takes, as given. */
export interface RedisOptions {
  readonly client: RedisStoreClient;
  readonly keyPrefix?: string;
  readonly ttl?: number;
  readonly commandTimeoutMs?: number;
}

/** The options every Redis store takes, checked, with the store's defaults filled in. */
export interface CheckedRedisOptions {
  readonly client: RedisStoreClient;
  readonly keyPrefix: string;
  readonly ttl: number;
  readonly commandTimeoutMs: number;
}

/** Checks a store's options (`INVALID_OPTIONS` for a bad one) and fills in its defaults. */
export function checkRedisOptions(
  options: RedisOptions | undefined,
  defaults: { readonly keyPrefix: string; readonly ttl: number },
): CheckedRedisOptions {
  const client = options?.client;
  const keyPrefix = options?.keyPrefix ?? defaults.keyPrefix;
  const ttl = options?.ttl ?? defaults.ttl;
  const commandTimeoutMs = options?.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;

  if (!client || typeof client.sendCommand !== 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'client must be a node-redis client (createClient() from redis)',
    );
  }
  checkClientKind(client);
  if (typeof keyPrefix !== 'string' || keyPrefix.length === 0) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      "keyPrefix must be a non-empty string (clear() deletes the store's keys under it)",
    );
  }
  if (!isWellFormedText(keyPrefix)) {
    // Redis gets UTF-8, which turns a lone surrogate into U+FFFD: two prefixes would share keys.
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'keyPrefix must be well-formed Unicode (it has a lone surrogate, which Redis cannot keep apart)',
    );
  }
  if (keyPrefix.includes('\0')) {
    // The load-state store puts a NUL between its prefix and each thread id, so that no prefix's
    // keys are another's ('chat:' and 'chat:admin:'); a NUL inside a prefix would undo that. The
    // vector store's keys then hold no NUL at all, so they never meet the load-state store's.
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'keyPrefix must not contain NUL ("\\0"): the Redis store puts one between the prefix and each thread id, so that no two prefixes share a key',
    );
  }
  if (typeof ttl !== 'number' || Number.isNaN(ttl) || ttl < 0) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `ttl must be a number of milliseconds >= 0 (0: keys never expire), got ${ttl}`,
    );
  }
  // A larger ttl was accepted and then failed every write: Redis refuses an expiry past 2^63 - 1
  // ms or written with an exponent (Lua printed 1e18 as '1e+18'), and above 2^53 - 1 a number
  // is not exact in ms anyway. No expiry at all is `ttl: 0`. A fraction is rounded up to whole ms.
  if (ttl > Number.MAX_SAFE_INTEGER) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `ttl must be at most ${Number.MAX_SAFE_INTEGER} ms (Number.MAX_SAFE_INTEGER, about 285,000 years), ` +
        `got ${ttl}; for keys that never expire, pass ttl: 0`,
    );
  }
  if (typeof commandTimeoutMs !== 'number' || !Number.isFinite(commandTimeoutMs) || commandTimeoutMs <= 0) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `commandTimeoutMs must be a finite number of milliseconds > 0, got ${commandTimeoutMs}`,
    );
  }
  // A longer timer fires after 1 ms in Node: every command would fail at once.
  if (commandTimeoutMs > MAX_TIMER_DELAY_MS) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `commandTimeoutMs must be at most ${MAX_TIMER_DELAY_MS} ms (2^31 - 1, about 24.8 days: ` +
        `the longest timer Node can set), got ${commandTimeoutMs}`,
    );
  }
  return { client, keyPrefix: clientKeyPrefix(client) + keyPrefix, ttl, commandTimeoutMs };
}

/**
 * Refuses the node-redis clients whose `sendCommand` takes other arguments: each call would
 * otherwise fail with a TypeError from inside node-redis, or be reported as "not connected".
 */
function checkClientKind(client: RedisStoreClient): void {
  const members = client as unknown as Record<string, unknown>;
  if ('masters' in client && typeof members.getSlotMaster === 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'client must be a node-redis client for one server or primary (createClient()), not a cluster client (createCluster()): a Redis Cluster is not supported',
    );
  }
  if (typeof members.getMasterNode === 'function' && typeof members.getSentinelNode === 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'client must be a node-redis client for one server or primary (createClient()), not a Sentinel client (createSentinel()): Sentinel is not supported; connect a client to the primary',
    );
  }
  if (typeof client.isOpen !== 'boolean') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'client must be a node-redis client (createClient() from redis); a legacy-mode client (client.legacy()) is not supported: pass the client itself',
    );
  }
}

/**
 * The client's own `keyPrefix` (node-redis 6), which node-redis puts before the keys of its
 * commands but not before those of `sendCommand`: the stores put it before their keys themselves,
 * so that their keys are where every other key of that client is. Held to the stores' own rules.
 */
function clientKeyPrefix(client: RedisStoreClient): string {
  let prefix: unknown = client.options?.keyPrefix;
  // A pool (createClientPool()) keeps it here.
  if (prefix === undefined) prefix = (client as { _keyPrefix?: unknown })._keyPrefix;
  if (prefix === undefined || prefix === null || prefix === '') return '';
  if (Buffer.isBuffer(prefix)) {
    const text = prefix.toString('utf8');
    if (Buffer.from(text, 'utf8').equals(prefix)) prefix = text;
  }
  if (typeof prefix !== 'string' || !isWellFormedText(prefix) || prefix.includes('\0')) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'the client\'s keyPrefix must be UTF-8 text without NUL ("\\0"): the store puts it before its own keys',
    );
  }
  return prefix;
}

/**
 * Between the key prefix and the id (a thread's, a catalog's) in a key. A prefix may not hold it,
 * so the first NUL of a key ends its prefix: 'chat:' + NUL + 'admin:42' is never
 * 'chat:admin:' + NUL + '42'.
 */
export const SEPARATOR = '\0';
/** Follows the separator in the key of an id that is not well-formed Unicode. */
const ILL_FORMED_MARKER = Buffer.from([0xff]);

/**
 * The key of an id under `keyPrefix`: the prefix, a NUL, then the id as UTF-8, for a well-formed
 * id. One with a lone surrogate would lose it to UTF-8 (U+FFFD in its place, so '\ud800',
 * '\udc00' and '\ufffd' would share a key): after the NUL it gets the byte 0xFF and its UTF-16
 * code units instead. No UTF-8 holds 0xFF, so no well-formed id's key is one of these.
 */
export function separatedKey(keyPrefix: string): (id: string) => string | Buffer {
  const head = keyPrefix + SEPARATOR;
  const headBytes = Buffer.from(head, 'utf8');
  return (value: string) => {
    const id = String(value);
    if (isWellFormedText(id)) return head + id;
    return Buffer.concat([headBytes, ILL_FORMED_MARKER, Buffer.from(id, 'utf16le')]);
  };
}

/** A Lua script, sent by its SHA-1 (`EVALSHA`) once the server has it. */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

export const luaScript = (source: string): LuaScript => ({
  source,
  sha: createHash('sha1').update(source).digest('hex'),
});

/** Escapes the glob characters of SCAN's MATCH pattern. */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

export const toText = (value: unknown): string => (typeof value === 'string' ? value : String(value));

const isNoScript = (error: unknown) =>
  error instanceof Error && typeof error.message === 'string' && error.message.startsWith('NOSCRIPT');

export interface RedisCommandsOptions {
  readonly client: RedisStoreClient;
  readonly commandTimeoutMs: number;
  /** Names the store in its errors (`'Redis store'`, `'Redis vector store'`). */
  readonly label: string;
}

/** The bounded round trips a Redis store is made of. */
export interface RedisCommands {
  /**
   * Runs one round trip (or, for a script the server has not cached yet, two) under one deadline.
   * Every failure becomes a ToolSearchError; nothing waits longer than commandTimeoutMs.
   */
  call<T>(operation: string, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Sends one command (inside `call`, with its signal). */
  send(args: readonly (string | Buffer)[], signal: AbortSignal): Promise<unknown>;
  /** Runs a Lua script by its SHA-1, sending its source once when the server does not have it. */
  evaluate(
    script: LuaScript,
    keys: readonly (string | Buffer)[],
    args: readonly string[],
    signal: AbortSignal,
  ): Promise<unknown>;
  /**
   * Walks the keys matching `match` of one `type`, one SCAN page per round trip (never KEYS).
   * The keys come as Buffers, byte for byte, so a key that is not UTF-8 can be sent back as is.
   */
  scan(
    operation: string,
    filter: { readonly match: string; readonly type: string },
    page: (keys: readonly (string | Buffer)[], signal: AbortSignal) => Promise<void>,
  ): Promise<void>;
  /** Throws `DISPOSED` once `dispose()` was called. */
  throwIfDisposed(operation: string): void;
  /** Makes every later call fail with `DISPOSED`. Does not close the client. */
  dispose(): void;
}

/**
 * The command layer the Redis stores share. Every call is bounded: an unreachable or
 * reconnecting client fails at once with `STORE_UNAVAILABLE`, a slow one after
 * `commandTimeoutMs` with `STORE_TIMEOUT` (the pending command is withdrawn from node-redis's
 * offline queue if it was not sent yet), an error reply with `STORE_UNAVAILABLE`.
 */
export function createRedisCommands(options: RedisCommandsOptions): RedisCommands {
  const { client, commandTimeoutMs, label } = options;
  let disposed = false;

  const throwIfDisposed = (operation: string) => {
    if (disposed) throw new ToolSearchError('DISPOSED', `The ${label} is disposed (${operation})`);
  };

  async function call<T>(operation: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    throwIfDisposed(operation);
    if (!client.isOpen) {
      throw new ToolSearchError(
        'STORE_UNAVAILABLE',
        `Redis ${operation} failed: the client is not connected (call await client.connect() first)`,
      );
    }
    if (client.isReady === false) {
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

  const send = (args: readonly (string | Buffer)[], signal: AbortSignal) =>
    client.sendCommand(args, { abortSignal: signal });

  async function evaluate(
    script: LuaScript,
    keys: readonly (string | Buffer)[],
    args: readonly string[],
    signal: AbortSignal,
  ) {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await send(['EVALSHA', script.sha, ...tail], signal);
    } catch (error) {
      // First use on this server (or after a restart / SCRIPT FLUSH): send the source once.
      if (!isNoScript(error)) throw error;
      return await send(['EVAL', script.source, ...tail], signal);
    }
  }

  async function scan(
    operation: string,
    filter: { readonly match: string; readonly type: string },
    page: (keys: readonly (string | Buffer)[], signal: AbortSignal) => Promise<void>,
  ) {
    let cursor = '0';
    do {
      cursor = await call(operation, async (signal) => {
        // Keys as Buffers: decoded as UTF-8 strings, a key that is not UTF-8 would come back
        // with U+FFFD in it, and UNLINK or PTTL would then name another key.
        const reply = await client.sendCommand(
          ['SCAN', cursor, 'MATCH', filter.match, 'COUNT', SCAN_COUNT, 'TYPE', filter.type],
          { abortSignal: signal, typeMapping: BLOB_STRINGS_AS_BUFFERS },
        );
        if (!Array.isArray(reply) || reply.length !== 2 || !Array.isArray(reply[1])) {
          throw new ToolSearchError(
            'STORE_UNAVAILABLE',
            `Redis gave an unexpected reply to SCAN (${operation})`,
          );
        }
        const keys = (reply[1] as unknown[]).map((key) => (Buffer.isBuffer(key) ? key : toText(key)));
        if (keys.length > 0) await page(keys, signal);
        return toText(reply[0]);
      });
    } while (cursor !== '0');
  }

  return {
    call,
    send,
    evaluate,
    scan,
    throwIfDisposed,
    dispose() {
      disposed = true;
    },
  };
}
