import { expect } from 'vitest';
import { ToolSearchError } from '../errors';
import type { ToolSearchEngineOptions } from '../types';

/**
 * The message of the `ToolSearchError` with code `INVALID_OPTIONS` that `run` throws; the test
 * fails when it throws nothing, or anything else. For tests of an adapter's option checks.
 */
export function invalidOptionsMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(ToolSearchError.isInstance(error) && error.code, String(error)).toBe('INVALID_OPTIONS');
    return (error as ToolSearchError).message;
  }
  return expect.unreachable('expected a ToolSearchError with code INVALID_OPTIONS');
}

/**
 * Every option of `createToolSearchEngine` but `catalog`, each given a value that changes
 * little, for an adapter's test that its options type takes each engine option it forwards
 * (spread it, then override what the test needs).
 */
export function everyForwardedEngineOption() {
  return {
    search: { topK: 3, minScore: 0, autoLoad: false },
    storage: 'in-memory' as const,
    ttl: 0,
    maxThreads: 10,
    maxLoadedTools: 5,
    filter: () => true,
    signingSecret: undefined,
    ranker: undefined,
    clock: undefined,
    onEvent: () => {},
    storeTimeoutMs: 1_000,
    searchTimeoutMs: 1_000,
    filterTimeoutMs: 1_000,
    resolveTimeoutMs: 1_000,
  } satisfies Required<{ [K in keyof Omit<ToolSearchEngineOptions, 'catalog'>]: unknown }>;
}
