import { expect } from 'vitest';
import { ToolSearchError } from '../errors';

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
