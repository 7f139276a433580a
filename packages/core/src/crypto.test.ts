import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogFingerprint, createReceiptSigner } from './context-state';
import { constantTimeEqual, fromBase64Url, hmacSha256, sha256Bytes, toBase64, toBase64Url } from './crypto';

// Texts as the engine hashes them: ASCII, accents, astral characters, a lone surrogate
// (UTF-8 encodes it as U+FFFD, in Node and in TextEncoder alike), NUL, long.
const texts = ['', 'a', 'météo', 'ticket_\u{1F3AB}', 'half \uD83D pair', 'a\u0000b', 'x'.repeat(70_000)];

describe('crypto: byte for byte what node:crypto computed before', () => {
  it('SHA-256 in base64 and base64url', () => {
    for (const text of texts) {
      const digest = createHash('sha256').update(text);
      const bytes = sha256Bytes(text);
      expect(toBase64(bytes)).toBe(digest.copy().digest('base64'));
      expect(toBase64Url(bytes)).toBe(digest.digest('base64url'));
    }
  });

  it('HMAC-SHA256 for any secret and text', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, unit: 'binary' }),
        fc.string({ unit: 'binary' }),
        (secret, text) => {
          const expected = createHmac('sha256', secret).update(text).digest();
          expect(Buffer.from(hmacSha256(secret, text))).toEqual(expected);
        },
      ),
    );
  });

  it('base64 of any bytes, and base64url there and back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
        const url = toBase64Url(bytes);
        expect(url).toBe(Buffer.from(bytes).toString('base64url'));
        expect(fromBase64Url(url)).toEqual(bytes);
      }),
    );
  });

  it('receipts and fingerprints signed with node:crypto (fixed vectors) still verify, and sign the same', () => {
    const fingerprint = catalogFingerprint(['get_weather', 'search_flights', 'météo', 'ticket_\u{1F3AB}']);
    expect(fingerprint).toBe('4bqOuK1ucHy66nvTiIaR057t19Qws2hIsWL_BPO9NMQ');
    const signer = createReceiptSigner('correct horse battery staple', { catalogFingerprint: fingerprint });
    const loaded = { success: true, toolName: 'get_weather', loaded: ['get_weather'], alreadyLoaded: [] };
    const searched = { success: true, loaded: ['météo'], alreadyLoaded: ['get_weather'] };
    const receipts = [
      ['thread-7', 'load_tool', loaded, 'v2.7Tr0pKsRVA6vg9PVCjZ4SQTYwRtkOhVw1JiCvLiTr6w'],
      ['thread-\u00e9', 'search_tools', searched, 'v2.JtNjQrk7Sy4OpkNxqesAVJHPvRBHCntk8BM5s_ftqW0'],
    ] as const;
    for (const [threadId, metaToolName, output, receipt] of receipts) {
      expect(signer.verify(threadId, metaToolName, output, receipt)).toBe(true);
      expect(signer.sign(threadId, metaToolName, output)).toBe(receipt);
    }
  });
});

describe('fromBase64Url', () => {
  it('decodes only the canonical unpadded spelling', () => {
    const canonical = toBase64Url(sha256Bytes('x')); // 43 characters: the last carries 2 stray bits
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = `${canonical.slice(0, -1)}${alphabet[alphabet.indexOf(canonical.at(-1)!) ^ 1]}`;
    expect(Buffer.from(sibling, 'base64url')).toEqual(Buffer.from(canonical, 'base64url')); // Node accepts it
    for (const junk of [
      sibling,
      `${canonical}=`,
      `${canonical.slice(0, 20)} ${canonical.slice(20)}`,
      'a',
      'ab+/',
      '!!!!',
    ]) {
      expect(fromBase64Url(junk)).toBeUndefined();
    }
    expect(fromBase64Url('')).toEqual(new Uint8Array());
  });
});

describe('constantTimeEqual', () => {
  it('is true for equal bytes only, whatever byte differs', () => {
    const bytes = sha256Bytes('receipt');
    expect(constantTimeEqual(bytes, bytes.slice())).toBe(true);
    for (let index = 0; index < bytes.length; index++) {
      const other = bytes.slice();
      other[index]! ^= 0x80;
      expect(constantTimeEqual(bytes, other)).toBe(false);
    }
    expect(constantTimeEqual(bytes, bytes.subarray(1))).toBe(false);
  });

  it('reads every byte whatever the first difference (no early exit)', () => {
    const reads = (a: Uint8Array, b: Uint8Array) => {
      let count = 0;
      const counted = new Proxy(b, {
        get(target, key) {
          if (typeof key === 'string' && /^\d+$/.test(key)) count++;
          const value = Reflect.get(target, key);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      constantTimeEqual(a, counted);
      return count;
    };
    const bytes = sha256Bytes('receipt');
    const first = bytes.slice();
    first[0]! ^= 1;
    const last = bytes.slice();
    last[31]! ^= 1;
    expect(reads(bytes, first)).toBe(32);
    expect(reads(bytes, last)).toBe(32);
  });
});
