import type { ToolSearchError } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
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
    });
  }
});
