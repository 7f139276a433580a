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

/**
 * Memory in use after a full collection: the JS heap plus memory outside it held by JS objects
 * (ArrayBuffers and typed arrays, where an index may keep its postings), which `heapUsed` omits.
 */
export function settledMemory(): number {
  fullGc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}
