import { MAX_TIMER_DELAY_MS, type ToolSearchError } from '@tool-search/core';
import { createClient, createCluster, createSentinel, RESP_TYPES } from 'redis';
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
        // Accepted before, and then every write failed (Redis refused '1e+18' as an expiry).
        { client, ttl: Number.MAX_SAFE_INTEGER + 2 },
        { client, ttl: 1e18 },
        { client, ttl: 1e19 },
        { client, ttl: Number.MAX_VALUE },
        { client, commandTimeoutMs: 0 },
        { client, commandTimeoutMs: Number.POSITIVE_INFINITY },
        // Past the longest timer Node sets, setTimeout fires after 1 ms: every call would time out.
        { client, commandTimeoutMs: 2 ** 31 },
        { client, commandTimeoutMs: 3e9 },
        // UTF-8 makes both U+FFFD: two such prefixes would share keys.
        { client, keyPrefix: 'p\ud800:' },
        // The load-state store puts a NUL after the prefix: one inside it would make prefixes ambiguous.
        { client, keyPrefix: 'p\0' },
        { client, keyPrefix: 'chat:\0admin:' },
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
      expect(() => create({ client, ttl: Number.MAX_SAFE_INTEGER })).not.toThrow();
      expect(() => create({ client, ttl: 1.5 })).not.toThrow(); // rounded up to 2 ms
    });

    it(`${name} says why a huge ttl is refused, and that ttl: 0 means no expiry`, () => {
      expect(() => create({ client, ttl: 1e18 })).toThrow(/at most 9007199254740991 ms.*ttl: 0/);
      expect(() => create({ client, ttl: Number.POSITIVE_INFINITY })).toThrow(/ttl: 0/);
    });

    it(`${name} says why a commandTimeoutMs past the longest timer is refused`, () => {
      expect(MAX_TIMER_DELAY_MS).toBe(2_147_483_647);
      expect(() => create({ client, commandTimeoutMs: 2 ** 31 })).toThrow(/at most 2147483647 ms/);
    });
  }

  for (const [name, create] of Object.entries(stores)) {
    it(`${name} refuses a cluster, Sentinel or legacy-mode client with INVALID_OPTIONS, saying which`, () => {
      // Each has a sendCommand of other arguments: every call failed with a TypeError from inside
      // node-redis ("Cannot read properties of undefined"), or was said not to be connected.
      const refused = [
        [createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:1' }] }), /cluster client/],
        [
          createSentinel({ name: 'primary', sentinelRootNodes: [{ host: '127.0.0.1', port: 1 }] }),
          /Sentinel/,
        ],
        [createClient({ url: 'redis://127.0.0.1:1' }).legacy(), /legacy-mode/],
      ] as const;
      for (const [target, message] of refused) {
        let error: unknown;
        try {
          create({ client: target as never });
        } catch (caught) {
          error = caught;
        }
        expect((error as ToolSearchError | undefined)?.code).toBe('INVALID_OPTIONS');
        expect((error as Error).message).toMatch(message);
      }
    });

    it(`${name} refuses a client whose own keyPrefix it cannot put before its keys`, () => {
      for (const keyPrefix of ['a\0b:', 'p\ud800:', Buffer.from([0xff, 0x3a])]) {
        let error: unknown;
        try {
          create({ client: createClient({ url: 'redis://127.0.0.1:1', keyPrefix }) });
        } catch (caught) {
          error = caught;
        }
        expect((error as ToolSearchError | undefined)?.code, String(keyPrefix)).toBe('INVALID_OPTIONS');
        expect((error as Error).message).toMatch(/client's keyPrefix/);
      }
      expect(() => create({ client: createClient({ keyPrefix: Buffer.from('app:') }) })).not.toThrow();
    });
  }

  it('asks node-redis for bulk strings as Buffers with its own type code', () => {
    expect(Object.keys(BLOB_STRINGS_AS_BUFFERS)).toEqual([String(RESP_TYPES.BLOB_STRING)]);
  });
});
