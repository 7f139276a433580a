import { ToolSearchError } from './errors';

/**
 * `listener` made safe to call (a no-op when absent): a listener that throws must not fail
 * the work it is told about, nor may one that returns a promise that rejects (it is observed
 * and dropped). Anything but a function, `undefined` or `null` is refused
 * (`INVALID_OPTIONS`, naming the option as `name`): a logger object or a method's name passed
 * by mistake would otherwise fail on every call, silently, and the errors it was meant to
 * report would never be seen.
 */
export function safeListener<A extends unknown[]>(
  listener: ((...args: A) => void) | null | undefined,
  name: string,
): (...args: A) => void {
  if (listener !== undefined && listener !== null && typeof listener !== 'function') {
    const kind = Array.isArray(listener) ? 'an array' : typeof listener;
    throw new ToolSearchError('INVALID_OPTIONS', `${name} must be a function, got ${kind}`);
  }
  return (...args) => {
    if (listener === undefined || listener === null) return;
    try {
      const returned: unknown = listener(...args);
      // An async listener (`async (event) => metrics.send(event)`) fails by rejecting: observed
      // here, or Node would end the process on the unhandled rejection.
      if (
        typeof returned === 'object' &&
        returned !== null &&
        typeof (returned as PromiseLike<unknown>).then === 'function'
      ) {
        Promise.resolve(returned).catch(() => undefined);
      }
    } catch {
      // The listener's failure is its own.
    }
  };
}
