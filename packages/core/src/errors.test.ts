import { describe, expect, it, vi } from 'vitest';
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

  it('recognises an error thrown by a second copy of the module, and not a lookalike without the marker', async () => {
    // A second evaluation of the module: another class, as a second installed copy has.
    vi.resetModules();
    const second: typeof import('./errors') = await import('./errors');
    expect(second.ToolSearchError).not.toBe(ToolSearchError);
    const fromSecondCopy = new second.ToolSearchError('STORE_TIMEOUT', 'slow store');
    expect(Object.getPrototypeOf(fromSecondCopy)).not.toBe(ToolSearchError.prototype);
    expect(ToolSearchError.isInstance(fromSecondCopy)).toBe(true);
    expect(fromSecondCopy instanceof ToolSearchError).toBe(true);
    expect(second.ToolSearchError.isInstance(new ToolSearchError('DISPOSED', 'x'))).toBe(true);

    // Same name, code and message, no marker: not ours (a string match would have taken it).
    const lookalike = Object.assign(new Error('slow store'), {
      name: 'ToolSearchError',
      code: 'STORE_TIMEOUT',
    });
    expect(ToolSearchError.isInstance(lookalike)).toBe(false);
    expect(lookalike instanceof ToolSearchError).toBe(false);
    // A marker under a symbol of its own (not the registry's), or not `true`, is no marker.
    expect(ToolSearchError.isInstance({ [Symbol('tool-search.error')]: true })).toBe(false);
    expect(ToolSearchError.isInstance({ [Symbol.for('tool-search.error')]: 'yes' })).toBe(false);
    expect(new Error('x') instanceof ToolSearchError).toBe(false);
    expect(new ToolSearchError('DISPOSED', 'x') instanceof Error).toBe(true);
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
