import { invalidOptionsMessage } from '@tool-search/core/testing';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { createRedisStore } from './redis-store';
import { createRedisVectorStore } from './redis-vector-store';

// A real node-redis client, never connected: the options are checked before any command.
const client = createClient({ url: 'redis://127.0.0.1:1' });

describe('unknown option names', () => {
  it('createRedisStore refuses one, naming the closest option', () => {
    expect(invalidOptionsMessage(() => createRedisStore({ client, keyprefix: 'app:' } as never))).toBe(
      'unknown option `keyprefix` of createRedisStore; did you mean `keyPrefix`?',
    );
    expect(invalidOptionsMessage(() => createRedisStore({ client, commandTimeout: 500 } as never))).toMatch(
      /did you mean `commandTimeoutMs`\?$/,
    );
    expect(invalidOptionsMessage(() => createRedisStore({ client, url: 'redis://x' } as never))).toBe(
      'unknown option `url` of createRedisStore; its options are client, keyPrefix, ttl, commandTimeoutMs, clock',
    );
  });

  it('createRedisVectorStore refuses one (a clock is the load-state store’s option only)', () => {
    expect(invalidOptionsMessage(() => createRedisVectorStore({ client, tll: 0 } as never))).toBe(
      'unknown option `tll` of createRedisVectorStore; did you mean `ttl`?',
    );
    expect(
      invalidOptionsMessage(() => createRedisVectorStore({ client, clock: { now: () => 0 } } as never)),
    ).toMatch(
      /^unknown option `clock` of createRedisVectorStore; its options are client, keyPrefix, ttl, commandTimeoutMs$/,
    );
  });

  it('both take every option of their type', () => {
    createRedisStore({
      client,
      keyPrefix: 'app:',
      ttl: 0,
      commandTimeoutMs: 500,
      clock: { now: () => 0 },
    }).dispose();
    createRedisVectorStore({ client, keyPrefix: 'vectors:', ttl: 0, commandTimeoutMs: 500 }).dispose();
  });
});
