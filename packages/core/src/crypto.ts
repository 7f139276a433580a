/**
 * The digests and MACs of the engine, on every runtime: SHA-256 and HMAC-SHA256 from
 * `@noble/hashes` (audited, no dependencies, synchronous), base64 through `btoa` / `atob` (in
 * every runtime the frameworks run on: Node, Bun, Deno, Workers, edge functions, browsers).
 * Outputs are byte for byte those of `node:crypto`: strings are hashed as their UTF-8 bytes
 * (a lone surrogate as U+FFFD, as Node does), so receipts signed before still verify.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';

const encoder = new TextEncoder();

/** SHA-256 of `text`'s UTF-8 bytes. */
export function sha256Bytes(text: string): Uint8Array {
  return sha256(encoder.encode(text));
}

/** HMAC-SHA256 of `text` under `secret` (both as UTF-8 bytes). */
export function hmacSha256(secret: string, text: string): Uint8Array {
  return hmac(sha256, encoder.encode(secret), encoder.encode(text));
}

/** Standard base64 with padding, as `Buffer#toString('base64')`. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunks keep each String.fromCharCode call's argument list short.
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

/** URL-safe base64 without padding, as `Buffer#toString('base64url')`. */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
}

/**
 * The bytes of `text` when it is the canonical unpadded base64url of some bytes (letters,
 * digits, `-`, `_`; no stray bits in the last character), else undefined.
 */
export function fromBase64Url(text: string): Uint8Array | undefined {
  let binary: string;
  try {
    binary = atob(text.replaceAll('-', '+').replaceAll('_', '/') + '='.repeat((4 - (text.length % 4)) % 4));
  } catch {
    return undefined; // a length of 4n + 1, or a character outside the alphabet
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  // atob skips white space and ignores stray bits: only the canonical spelling decodes.
  return toBase64Url(bytes) === text ? bytes : undefined;
}

/** Whether `a` and `b` hold the same bytes, in time that depends on their length only. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a[index]! ^ b[index]!;
  return difference === 0;
}
