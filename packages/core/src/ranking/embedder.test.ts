import { describe, expect, it } from 'vitest';
import { settingsHash } from './embedder';

describe('settingsHash', () => {
  it('names settings by a hash of their JSON, whatever the order of their keys', () => {
    const hash = settingsHash({ openai: { dimensions: 256, user: 'a' }, google: { taskType: 'RETRIEVAL' } });
    expect(hash).toMatch(/^[0-9a-f]{8}$/);
    expect(settingsHash({ google: { taskType: 'RETRIEVAL' }, openai: { user: 'a', dimensions: 256 } })).toBe(
      hash,
    );
    expect(
      settingsHash({ openai: { dimensions: 512, user: 'a' }, google: { taskType: 'RETRIEVAL' } }),
    ).not.toBe(hash);
  });

  it('has no name for no settings, and never shows a value (a key may be a secret)', () => {
    for (const none of [undefined, null, {}]) expect(settingsHash(none)).toBeUndefined();
    expect(settingsHash({ gateway: { apiKey: 'sk-secret' } })).not.toContain('secret');
    expect(settingsHash({ big: 10n, list: [2, 1] })).toMatch(/^[0-9a-f]{8}$/);
    expect(settingsHash({ list: [2, 1] })).not.toBe(settingsHash({ list: [1, 2] }));
  });

  it('refuses settings that cannot be written as JSON (INVALID_OPTIONS), where a cycle overflowed the stack', () => {
    // A cycle recursed until the stack ran out (RangeError): the sorted copies hid it.
    const cyclic: Record<string, unknown> = { openai: { user: 'a' } };
    (cyclic.openai as Record<string, unknown>).self = cyclic;
    expect(() => settingsHash(cyclic)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    const throwing = {
      get openai() {
        throw new Error('no');
      },
    };
    expect(() => settingsHash(throwing)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
