import { ToolSearchError, type ToolSearchErrorCode } from './errors';
import type { Clock } from './types';

/**
 * The longest delay a timer can wait: 2^31 − 1 ms (about 24.8 days). Node and browsers fire
 * a longer one after 1 ms instead, so every timeout option of ours takes a value above it
 * (and `Infinity`) to mean no bound: no timer is started.
 */
export const MAX_TIMER_DELAY_MS = 2_147_483_647;

/**
 * A timeout option in milliseconds: a number > 0, or `fallback` when not given. A value above
 * {@link MAX_TIMER_DELAY_MS}, `Infinity` among them, means no bound; anything else (0, a
 * negative number, `NaN`, a string) throws `INVALID_OPTIONS` naming the option.
 */
export function timeoutOption(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `${name} must be a number of milliseconds > 0 (Infinity, or any value above ${MAX_TIMER_DELAY_MS}, for no bound), got ${String(value)}`,
    );
  }
  return value > MAX_TIMER_DELAY_MS ? Number.POSITIVE_INFINITY : value;
}

/**
 * The real clock. Its timers are `unref()`'d, so a pending sweep never keeps
 * the process alive. An interval longer than {@link MAX_TIMER_DELAY_MS} is never started
 * (a timer would fire it after 1 ms).
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setInterval(callback, ms) {
    if (ms > MAX_TIMER_DELAY_MS) return () => {};
    const timer = setInterval(callback, ms);
    timer.unref?.();
    return () => clearInterval(timer);
  },
};

/**
 * `value` when it is a clock (an object with `now` and `setInterval` methods), the system clock
 * when it is not given (`undefined` or `null`); anything else throws `INVALID_OPTIONS` naming `takenBy`.
 */
export function clockOption(value: unknown, takenBy: string): Clock {
  if (value === undefined || value === null) return systemClock;
  const clock = value as Partial<Clock>;
  if (
    typeof clock !== 'object' ||
    typeof clock.now !== 'function' ||
    typeof clock.setInterval !== 'function'
  ) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `${takenBy}: clock must be an object with now() and setInterval(callback, ms) methods (systemClock, createFakeClock()), got ${typeof value === 'object' ? 'an object without them' : typeof value}`,
    );
  }
  return clock as Clock;
}

/**
 * Settles as `pending` does or, when `ms` pass on `clock` first, with what `onTimeout` returns
 * (rejects if it throws). The timer is cancelled as soon as either happens; with `ms` above
 * {@link MAX_TIMER_DELAY_MS} (`Infinity` among them) there is no bound and none is started.
 * `pending` is not cancelled: it runs on, unobserved.
 */
export function settleWithin<T, F>(
  pending: PromiseLike<T>,
  ms: number,
  clock: Clock,
  onTimeout: () => F,
): Promise<T | F> {
  if (ms > MAX_TIMER_DELAY_MS) return Promise.resolve(pending);
  return new Promise<T | F>((resolve, reject) => {
    let settled = false;
    const cancel = clock.setInterval(() => {
      if (settled) return;
      settled = true;
      cancel();
      try {
        resolve(onTimeout());
      } catch (error) {
        reject(error);
      }
    }, ms);
    pending.then(
      (value) => {
        if (settled) return;
        settled = true;
        cancel();
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        cancel();
        reject(error);
      },
    );
  });
}

/**
 * Settles as `pending` does or, when `ms` pass on `clock` first, rejects with a `ToolSearchError`
 * of `code` (the engine's bounds on a store, a ranker and a filter).
 */
export function failAfter<T>(
  pending: PromiseLike<T>,
  ms: number,
  clock: Clock,
  code: ToolSearchErrorCode,
  message: string,
): Promise<T> {
  return settleWithin(pending, ms, clock, (): never => {
    throw new ToolSearchError(code, message);
  });
}

/** A clock that only moves when told to: for tests that must never sleep. */
export interface FakeClock extends Clock {
  /** Moves time forward by `ms`, firing every interval that falls due, in time order. */
  advance(ms: number): void;
  /** Lets pending promise callbacks run, then advances by `ms`, then lets them run again. */
  advanceAsync(ms: number): Promise<void>;
  /** How many intervals are currently scheduled (a disposed store leaves none). */
  pendingTimers(): number;
}

interface FakeTimer {
  readonly callback: () => void;
  readonly ms: number;
  due: number;
}

// A macrotask runs after every pending promise callback (setTimeout: Node's setImmediate is not in every runtime).
const flushPromises = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A fake clock starting at `start` (epoch ms, default 2023-11-14T22:13:20Z). Its intervals
 * behave as {@link systemClock}'s: one longer than {@link MAX_TIMER_DELAY_MS} is never started,
 * and a delay under 1 ms (or `NaN`) waits 1 ms.
 */
export function createFakeClock(start = 1_700_000_000_000): FakeClock {
  let current = start;
  const timers = new Set<FakeTimer>();

  const advance = (ms: number) => {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance(ms) needs a finite ms >= 0, got ${ms}`);
    const target = current + ms;
    for (;;) {
      let next: FakeTimer | undefined;
      for (const timer of timers) if (timer.due <= target && (!next || timer.due < next.due)) next = timer;
      if (!next) break;
      current = Math.max(current, next.due);
      next.due += next.ms;
      next.callback();
    }
    current = target;
  };

  return {
    now: () => current,
    setInterval(callback, ms) {
      // As the system clock: no timer past the longest delay, and a delay that is not a number
      // ≥ 1 (0, NaN) waits 1 ms, as Node's timers do (NaN used to make a timer that never fired).
      if (ms > MAX_TIMER_DELAY_MS) return () => {};
      const delay = Number.isNaN(ms) || ms < 1 ? 1 : ms;
      const timer: FakeTimer = { callback, ms: delay, due: current + delay };
      timers.add(timer);
      return () => {
        timers.delete(timer);
      };
    },
    advance,
    async advanceAsync(ms) {
      await flushPromises();
      advance(ms);
      await flushPromises();
    },
    pendingTimers: () => timers.size,
  };
}
