import { describe, expect, it, vi } from 'vitest';
import {
  clockOption,
  createFakeClock,
  MAX_TIMER_DELAY_MS,
  settleWithin,
  systemClock,
  timeoutOption,
} from './clock';
import { ToolSearchError } from './errors';

describe('createFakeClock', () => {
  it('starts where told and moves only on advance', () => {
    const clock = createFakeClock(1_000);
    expect(clock.now()).toBe(1_000);
    clock.advance(250);
    expect(clock.now()).toBe(1_250);
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });

  it('fires every due interval, in time order, with now() at the due time', () => {
    const clock = createFakeClock(0);
    const fired: string[] = [];
    clock.setInterval(() => fired.push(`a@${clock.now()}`), 100);
    const cancelB = clock.setInterval(() => fired.push(`b@${clock.now()}`), 150);
    clock.advance(300);
    expect(fired).toEqual(['a@100', 'b@150', 'a@200', 'a@300', 'b@300']);
    cancelB();
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(100);
    expect(fired.at(-1)).toBe('a@400');
  });

  it('lets a callback cancel its own interval', () => {
    const clock = createFakeClock(0);
    const callback = vi.fn(() => cancel());
    const cancel = clock.setInterval(callback, 10);
    clock.advance(100);
    expect(callback).toHaveBeenCalledTimes(1);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('schedules as the system clock does: nothing past the longest delay, 1 ms for 0 or NaN', () => {
    const clock = createFakeClock(0);
    const fired: string[] = [];
    // Fired after 24.8 days here, never by the system clock: a test passed that production failed.
    clock.setInterval(() => fired.push('long'), MAX_TIMER_DELAY_MS + 1);
    expect(clock.pendingTimers()).toBe(0);
    // NaN made a timer that never fired; Node fires it (and 0) after 1 ms.
    const cancelNaN = clock.setInterval(() => fired.push(`nan@${clock.now()}`), Number.NaN);
    const cancelZero = clock.setInterval(() => fired.push(`zero@${clock.now()}`), 0);
    clock.advance(2);
    expect(fired).toEqual(['nan@1', 'zero@1', 'nan@2', 'zero@2']);
    cancelNaN();
    cancelZero();
    clock.advance(MAX_TIMER_DELAY_MS + 10);
    expect(fired).toHaveLength(4);
  });

  it('advanceAsync lets pending promise work run before and after', async () => {
    const clock = createFakeClock(0);
    const seen: number[] = [];
    const work = (async () => {
      await Promise.resolve();
      clock.setInterval(() => seen.push(clock.now()), 50);
    })();
    await clock.advanceAsync(50);
    await work;
    expect(seen).toEqual([50]);
  });
});

describe('systemClock', () => {
  it('reads real time and schedules intervals that do not keep the process alive', () => {
    const before = Date.now();
    expect(systemClock.now()).toBeGreaterThanOrEqual(before);
    const unref = vi.fn();
    const spy = vi
      .spyOn(globalThis, 'setInterval')
      .mockReturnValue({ unref } as unknown as ReturnType<typeof setInterval>);
    const clear = vi.spyOn(globalThis, 'clearInterval').mockImplementation(() => {});
    const cancel = systemClock.setInterval(() => {}, 1_000);
    expect(unref).toHaveBeenCalled();
    cancel();
    expect(clear).toHaveBeenCalled();
    spy.mockRestore();
    clear.mockRestore();
  });

  it('starts no timer for an interval longer than a timer can wait (Node would fire it after 1 ms)', () => {
    const spy = vi.spyOn(globalThis, 'setInterval');
    const callback = vi.fn();
    try {
      const cancel = systemClock.setInterval(callback, 2 ** 31);
      expect(spy).not.toHaveBeenCalled();
      cancel();
    } finally {
      spy.mockRestore();
    }
    expect(callback).not.toHaveBeenCalled();
  });
});

describe('timeoutOption', () => {
  it('takes a number > 0; above the largest timer delay (Infinity among them) it means no bound', () => {
    expect(timeoutOption(undefined, 'storeTimeoutMs', 2_000)).toBe(2_000);
    expect(timeoutOption(1, 'storeTimeoutMs', 2_000)).toBe(1);
    expect(timeoutOption(MAX_TIMER_DELAY_MS, 'storeTimeoutMs', 2_000)).toBe(MAX_TIMER_DELAY_MS);
    for (const unbounded of [MAX_TIMER_DELAY_MS + 1, 3e9, Number.MAX_VALUE, Number.POSITIVE_INFINITY]) {
      expect(timeoutOption(unbounded, 'storeTimeoutMs', 2_000)).toBe(Number.POSITIVE_INFINITY);
    }
    for (const bad of [0, -1, Number.NaN, '100', null]) {
      expect(() => timeoutOption(bad, 'storeTimeoutMs', 2_000)).toThrow(
        expect.objectContaining({
          code: 'INVALID_OPTIONS',
          message: expect.stringContaining('storeTimeoutMs'),
        }),
      );
    }
  });
});

describe('clockOption', () => {
  it('takes a clock, or the system clock when none is given; anything else is INVALID_OPTIONS', () => {
    const fake = createFakeClock();
    expect(clockOption(fake, 'test')).toBe(fake);
    expect(clockOption(undefined, 'test')).toBe(systemClock);
    expect(clockOption(null, 'test')).toBe(systemClock);
    for (const bad of ['x', 5, {}, { now: () => 0 }, { now: 0, setInterval: () => () => {} }]) {
      let error: unknown;
      try {
        clockOption(bad, 'test');
      } catch (caught) {
        error = caught;
      }
      expect(ToolSearchError.isInstance(error) && error.code).toBe('INVALID_OPTIONS');
    }
  });
});

describe('settleWithin', () => {
  const late = () => {
    let resolve: (value: string) => void = () => {};
    let reject: (error: Error) => void = () => {};
    const promise = new Promise<string>((ok, fail) => {
      resolve = ok;
      reject = fail;
    });
    return { promise, resolve, reject };
  };

  it('settles as the promise does when it is in time, and stops its timer', async () => {
    const clock = createFakeClock(0);
    const answer = late();
    const onTimeout = vi.fn(() => 'timed out');
    const settled = settleWithin(answer.promise, 100, clock, onTimeout);
    answer.resolve('answer');
    expect(await settled).toBe('answer');
    expect(clock.pendingTimers()).toBe(0);
    clock.advance(1_000);
    expect(onTimeout).not.toHaveBeenCalled();

    const failure = late();
    const failed = settleWithin(failure.promise, 100, clock, onTimeout);
    failure.reject(new Error('down'));
    await expect(failed).rejects.toThrow('down');
    expect(clock.pendingTimers()).toBe(0);
  });

  it('settles with what onTimeout returns or throws once the time is up, ignoring a late answer', async () => {
    const clock = createFakeClock(0);
    const answer = late();
    const settled = settleWithin(answer.promise, 100, clock, () => 'timed out');
    clock.advance(99);
    await clock.advanceAsync(1);
    expect(await settled).toBe('timed out');
    answer.resolve('too late');
    expect(clock.pendingTimers()).toBe(0);

    const thrown = settleWithin(late().promise, 50, clock, () => {
      throw new Error('gave up');
    });
    clock.advance(50);
    await expect(thrown).rejects.toThrow('gave up');
  });

  it('starts no timer for an unbounded wait', async () => {
    const clock = createFakeClock(0);
    const answer = late();
    const settled = settleWithin(answer.promise, Number.POSITIVE_INFINITY, clock, () => 'never');
    expect(clock.pendingTimers()).toBe(0);
    answer.resolve('answer');
    expect(await settled).toBe('answer');
  });

  it('starts no timer for a wait longer than a timer can wait: it is unbounded too', async () => {
    const clock = createFakeClock(0);
    const answer = late();
    const onTimeout = vi.fn(() => 'timed out');
    const settled = settleWithin(answer.promise, 2 ** 31, clock, onTimeout);
    expect(clock.pendingTimers()).toBe(0);
    clock.advance(2 ** 32);
    answer.resolve('answer');
    expect(await settled).toBe('answer');
    expect(onTimeout).not.toHaveBeenCalled();
  });
});
