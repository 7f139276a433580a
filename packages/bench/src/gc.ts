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
 * Freed array buffers are released by a background task after the collection, so a reading
 * taken at once can still count a disposed index (here it did, by 0.5 kB per tool at 10,000
 * tools, in some runs and not others): it collects, lets that task run, and collects again.
 */
export async function settledMemory(): Promise<number> {
  fullGc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  fullGc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}
