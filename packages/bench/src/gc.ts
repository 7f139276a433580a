import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * A full garbage collection, without asking the user to start node with --expose-gc: the flag
 * is set at run time and a fresh context picks the `gc` function up.
 */
export function fullGc(): void {
  if (collect === undefined) {
    const existing = (globalThis as { gc?: () => void }).gc;
    if (existing) collect = existing;
    else {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    }
  }
  collect();
  collect();
}

/** Heap in use after a full collection. */
export function settledHeap(): number {
  fullGc();
  return process.memoryUsage().heapUsed;
}
