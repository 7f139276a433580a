import { MAX_TIMER_DELAY_MS, type ToolSearchError } from '@tool-search/core';
import { RESP_TYPES } from 'redis';
import { describe, expect, it } from 'vitest';
import { BLOB_STRINGS_AS_BUFFERS } from './redis-commands';
import { createRedisStore } from './redis-store';
import { createRedisVectorStore } from './redis-vector-store';

// Both stores check their options with checkRedisOptions; no server is needed to refuse them.
const client = { isOpen: true, isReady: true, sendCommand: async () => null };

describe('every Redis store: options', () => {
  const stores = { createRedisStore, createRedisVectorStore };
  for (const [name, create] of Object.entries(stores)) {
    it(`${name} refuses bad options with INVALID_OPTIONS`, () => {
      const bad = [
        undefined,
        {},
        { client: {} },
        { client, keyPrefix: '' },
        { client, keyPrefix: 7 },
        { client, ttl: -1 },
        { client, ttl: Number.NaN },
        { client, ttl: Number.POSITIVE_INFINITY },
        { client, commandTimeoutMs: 0 },
        { client, commandTimeoutMs: Number.POSITIVE_INFINITY },
        // Past the longest timer Node sets, setTimeout fires after 1 ms: every call would time out.
        { client, commandTimeoutMs: 2 ** 31 },
        { client, commandTimeoutMs: 3e9 },
        // UTF-8 makes both U+FFFD: two such prefixes would share keys.
        { client, keyPrefix: 'p\ud800:' },
      ];
      for (const options of bad) {
        let error: unknown;
        try {
          create(options as never);
        } catch (caught) {
          error = caught;
        }
        expect((error as ToolSearchError | undefined)?.code, JSON.stringify(options)).toBe('INVALID_OPTIONS');
      }
      expect(() => create({ client, keyPrefix: 'p:', ttl: 0, commandTimeoutMs: 1 })).not.toThrow();
      expect(() => create({ client, commandTimeoutMs: MAX_TIMER_DELAY_MS })).not.toThrow();
    });

    it(`${name} says why a commandTimeoutMs past the longest timer is refused`, () => {
      expect(MAX_TIMER_DELAY_MS).toBe(2_147_483_647);
      expect(() => create({ client, commandTimeoutMs: 2 ** 31 })).toThrow(/at most 2147483647 ms/);
    });
  }

  it('asks node-redis for bulk strings as Buffers with its own type code', () => {
    expect(Object.keys(BLOB_STRINGS_AS_BUFFERS)).toEqual([String(RESP_TYPES.BLOB_STRING)]);
  });
});
