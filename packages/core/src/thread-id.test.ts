import { describe, expect, it } from 'vitest';
import { checkThreadId } from './thread-id';

describe('checkThreadId', () => {
  it('passes none, any string, a finite number and a bigint', () => {
    for (const threadId of [undefined, null, '', 'user-42', 'default', 0, 42, -1.5, 42n]) {
      expect(() => checkThreadId(threadId, 'threadId')).not.toThrow();
    }
  });

  it('refuses what would be taken as no thread, naming where it came from and what it was', () => {
    const cases: [unknown, string][] = [
      [{ id: 'user-42' }, 'object'],
      [['user-42'], 'an array'],
      [true, 'boolean'],
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
      [Symbol('user'), 'symbol'],
      [() => 'user', 'function'],
    ];
    for (const [threadId, kind] of cases) {
      expect(() => checkThreadId(threadId, 'configurable.thread_id')).toThrow(
        expect.objectContaining({
          name: 'ToolSearchError',
          code: 'INVALID_OPTIONS',
          message: expect.stringContaining(
            `configurable.thread_id must be a string, a finite number or a bigint, got ${kind}:`,
          ),
        }),
      );
    }
  });
});
