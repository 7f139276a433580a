import { describe, expect, it } from 'vitest';
import { withoutDeferLoading } from './defer-loading';

describe('withoutDeferLoading', () => {
  it("removes every provider's deferLoading: true and keeps the rest", () => {
    const options = {
      anthropic: { deferLoading: true, cacheControl: { type: 'ephemeral' } },
      openai: { deferLoading: true },
      google: { thinking: 1 },
    };
    expect(withoutDeferLoading(options)).toEqual({
      anthropic: { cacheControl: { type: 'ephemeral' } },
      openai: {},
      google: { thinking: 1 },
    });
    // The tool's own options are not changed.
    expect(options.anthropic.deferLoading).toBe(true);
  });

  it('is undefined when nothing is deferred, or the options are not an object', () => {
    for (const options of [
      undefined,
      null,
      'x',
      [],
      {},
      { anthropic: { deferLoading: false } },
      { anthropic: null, openai: 'deferLoading' },
    ]) {
      expect(withoutDeferLoading(options)).toBeUndefined();
    }
  });

  it('keeps a provider named __proto__ as data', () => {
    const options = JSON.parse('{"__proto__": {"deferLoading": true, "x": 1}}') as unknown;
    const result = withoutDeferLoading(options)!;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toEqual({ x: 1 });
  });
});
