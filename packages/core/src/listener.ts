import { ToolSearchError } from './errors';

/**
 * `listener` made safe to call (a no-op when absent): a listener that throws must not fail
 * the work it is told about. Anything but a function, `undefined` or `null` is refused
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
      listener(...args);
    } catch {
      // The listener's failure is its own.
    }
  };
}
