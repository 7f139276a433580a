import { describe, expect, it } from 'vitest';
import { withFields } from './with-fields';

describe('withFields', () => {
  it('copies a plain object or a class instance with the fields replaced, leaving the original alone', () => {
    const plain = { a: 1, b: 2 };
    expect(withFields(plain, { b: 3 })).toEqual({ a: 1, b: 3 });
    expect(plain.b).toBe(2);

    class Tool {
      constructor(
        readonly name: string,
        readonly extras: Record<string, unknown>,
      ) {}
      describe() {
        return `${this.name} ${JSON.stringify(this.extras)}`;
      }
    }
    const original = new Tool('t', { defer_loading: true });
    const copy = withFields(original, { extras: {} });
    expect(copy).toBeInstanceOf(Tool);
    expect(copy.describe()).toBe('t {}');
    expect(original.extras).toEqual({ defer_loading: true });
  });
});
