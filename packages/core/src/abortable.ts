import { ToolSearchError } from './errors';

/** Whether `value` can be listened to as an `AbortSignal` (any realm's). */
export function isAbortSignal(value: unknown): value is AbortSignal {
  const signal = value as Partial<AbortSignal> | null;
  return (
    typeof signal === 'object' &&
    signal !== null &&
    typeof signal.aborted === 'boolean' &&
    typeof signal.addEventListener === 'function' &&
    typeof signal.removeEventListener === 'function'
  );
}

/** `work` started: a synchronous throw, or an answer that is no promise, as a promise too. */
function started<T>(
  work: (signal: AbortSignal | undefined) => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  try {
    return Promise.resolve(work(signal));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Runs `work` so that `signal` can end the wait for it: the promise rejects with the signal's
 * reason as soon as it aborts (at once when it already has, and then `work` is never started),
 * else settles as `work` does. `work` is not cancelled: it runs on, unobserved, and gets the
 * signal so that it can skip what it would do next. The abort listener is removed when either
 * happens, so a long-lived signal does not collect listeners. A `signal` that is not an
 * `AbortSignal` (nor `undefined` or `null`) rejects with `INVALID_INPUT`, and `work` is not started.
 */
export function abortable<T>(
  signal: AbortSignal | undefined,
  work: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (signal === undefined || signal === null) return started(work, undefined);
  if (!isAbortSignal(signal)) {
    return Promise.reject(
      new ToolSearchError(
        'INVALID_INPUT',
        `signal must be an AbortSignal, got ${Array.isArray(signal) ? 'an array' : typeof signal}`,
      ),
    );
  }
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    started(work, signal).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
