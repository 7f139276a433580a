import { ToolSearchError } from '@tool-search/core';
import { expect } from 'vitest';

/** Awaits a call that must fail with a ToolSearchError of `code`, and returns that error. */
export async function expectCode(promise: Promise<unknown>, code: string): Promise<ToolSearchError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(ToolSearchError.isInstance(error), `expected a ToolSearchError, got ${String(error)}`).toBe(true);
  expect((error as ToolSearchError).code).toBe(code);
  return error as ToolSearchError;
}
