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
});
