import { describe, expect, it } from 'vitest';
import { optionsObject, ToolSearchError } from './errors';

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

describe('optionsObject', () => {
  it('takes an object, and none as {}', () => {
    const given = { ttl: 5 };
    expect(optionsObject(given, 'createX')).toBe(given);
    expect(optionsObject(undefined, 'createX')).toEqual({});
    expect(optionsObject(null, 'createX')).toEqual({});
  });

  it('refuses an array (it has no option keys, so it read as "no options"), naming the factory', () => {
    expect(() => optionsObject([] as never, 'createX')).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTIONS',
        message: 'createX takes an options object, got an array',
      }),
    );
    expect(() => optionsObject([{ ttl: 5 }] as never, 'createX')).toThrow(/createX takes an options object/);
    expect(() => optionsObject('fast' as never, 'createX')).toThrow(/got string/);
  });
});
