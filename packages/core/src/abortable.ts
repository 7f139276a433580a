/**
 * Runs `work` so that `signal` can end the wait for it: the promise rejects with the signal's
 * reason as soon as it aborts (at once when it already has, and then `work` is never started),
 * else settles as `work` does. `work` is not cancelled: it runs on, unobserved, and gets the
 * signal so that it can skip what it would do next. The abort listener is removed when either
 * happens, so a long-lived signal does not collect listeners.
 */
export function abortable<T>(
  signal: AbortSignal | undefined,
  work: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (!signal) return work(undefined);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work(signal).then(
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
