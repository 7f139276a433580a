/**
 * `listener` made safe to call (a no-op when absent): a listener that throws must not fail
 * the work it is told about.
 */
export function safeListener<A extends unknown[]>(
  listener: ((...args: A) => void) | undefined,
): (...args: A) => void {
  return (...args) => {
    if (listener === undefined) return;
    try {
      listener(...args);
    } catch {
      // The listener's failure is its own.
    }
  };
}
