import { expect } from 'vitest';

/**
 * Checks a key's remaining life (`PTTL`) read after a write that set its expiry to `ttl`: at most
 * `ttl`, and short of it by no more than the real time since `since` (`performance.now()` taken
 * before the write), plus 1 ms for Redis's rounding. A fixed allowance ("more than ttl - 1 s")
 * fails on a machine that pauses longer than that between the write and the read; this one cannot,
 * and on a quick run it is tighter.
 */
export function expectFreshExpiry(pttl: number, ttl: number, since: number): void {
  const elapsed = Math.ceil(performance.now() - since) + 1;
  expect(pttl, `PTTL ${pttl} for a ttl of ${ttl}`).toBeLessThanOrEqual(ttl);
  expect(pttl, `PTTL ${pttl} for a ttl of ${ttl}, ${elapsed} ms after the write`).toBeGreaterThanOrEqual(
    ttl - elapsed,
  );
}
