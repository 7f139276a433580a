// Owns the order of a thread's loads in this process: each load of a thread waits for the one
// before it (bounded in time), so two loads never both report one tool as newly loaded.
import { settleWithin } from '../clock';
import type { Clock } from '../types';

/** Runs a thread's load after the loads of the thread already under way. */
export type LoadQueue = <T>(threadId: string, work: () => Promise<T>) => Promise<T>;

/**
 * Per thread, the tail of its loads in this process. A load reads what the thread holds,
 * decides what is new, adds it and evicts past maxLoadedTools; two loads of one thread that
 * interleaved (parallel tool calls, concurrent requests) both reported the same tool as newly
 * loaded, and both evicted (and reported) the same name. Each waits for the one before it, but
 * no longer than `storeTimeoutMs` from when it was asked: behind a stalled store the k-th load
 * of a thread would otherwise fail only after k bounds, each waiting on the one before. Only
 * loads wait: steps and guards read without waiting.
 */
export function createLoadQueue(storeTimeoutMs: number, clock: Clock): LoadQueue {
  const loadQueues = new Map<string, Promise<unknown>>();
  return <T>(threadId: string, work: () => Promise<T>): Promise<T> => {
    const previous = loadQueues.get(threadId);
    const run = previous ? settleWithin(previous, storeTimeoutMs, clock, () => undefined).then(work) : work();
    const tail = run.catch(() => undefined);
    loadQueues.set(threadId, tail);
    void tail.then(() => {
      if (loadQueues.get(threadId) === tail) loadQueues.delete(threadId);
    });
    return run;
  };
}
