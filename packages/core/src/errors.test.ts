import { describe, expect, it } from 'vitest';
import { ToolSearchError } from './errors';

describe('ToolSearchError', () => {
  it('carries a code and a cause, and is recognised by its marker', () => {
    const cause = new Error('down');
    const error = new ToolSearchError('STORE_UNAVAILABLE', 'store is down', { cause });
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.cause).toBe(cause);
    expect(ToolSearchError.isInstance(error)).toBe(true);
    expect(ToolSearchError.isInstance(new Error('x'))).toBe(false);
    expect(ToolSearchError.isInstance(null)).toBe(false);
  });

  it('is recognised across copies of the package (marker, not instanceof)', () => {
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('tool-search.error')]: true,
      code: 'DISPOSED',
    });
    expect(ToolSearchError.isInstance(foreign)).toBe(true);
  });
});
