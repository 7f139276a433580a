// Owns one test: whether a pluggable part (store, ranker, filter) answered with a promise, so that a
// synchronous answer stays synchronous (no await, no microtask) on the engine's hot paths.
import type { MaybePromise } from '../types';

export function isPromiseLike<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
