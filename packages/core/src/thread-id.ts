import { DEFAULT_THREAD_ID, normalizeThreadId } from './engine';
import { ToolSearchError } from './errors';

/**
 * Refuses a thread id the engine would key as no thread although one was given: an object, a
 * boolean, `NaN`… (see {@link normalizeThreadId}). Such ids would all share the 'default' thread,
 * so one caller would see, and run, the tools another loaded. Missing (`undefined`, `null`) is
 * the 'default' thread, and any string, finite number or bigint is its own thread: both pass.
 * `name` says where the id came from (`'configurable.thread_id'`) in the `INVALID_OPTIONS` error.
 */
export function checkThreadId(value: unknown, name: string): void {
  // The core's rule: only what it would key as no thread, given as something else than none.
  if (value === undefined || value === null || typeof value === 'string') return;
  if (normalizeThreadId(value) !== DEFAULT_THREAD_ID) return;
  const kind = typeof value === 'number' ? String(value) : Array.isArray(value) ? 'an array' : typeof value;
  throw new ToolSearchError(
    'INVALID_OPTIONS',
    `${name} must be a string, a finite number or a bigint, got ${kind}: it would be taken as no thread, so that such calls would share the 'default' thread. Pass the id as a string (String(id)).`,
  );
}
