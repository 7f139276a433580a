import { describe, expect, it } from 'vitest';
import { createJobPool, runInFreshWorker } from './worker-pool';

// A worker in plain JavaScript that speaks serveJobs' protocol: doubles a number, reports
// progress, fails on a negative number and never answers 'hang'.
const workerUrl = new URL(
  `data:text/javascript,${encodeURIComponent(`
    import { parentPort } from 'node:worker_threads';
    parentPort.on('message', ({ id, job }) => {
      if (job === 'hang') return;
      if (job < 0) return parentPort.postMessage({ id, type: 'error', message: 'negative' });
      parentPort.postMessage({ id, type: 'progress', done: 1 });
      parentPort.postMessage({ id, type: 'done', result: job * 2 });
    });
  `)}`,
);

describe('createJobPool', () => {
  it('runs jobs on workers, reports progress, and rejects a failed job without losing the others', async () => {
    const pool = createJobPool<number, number>({ size: 2, workerUrl, inline: async () => Number.NaN });
    const progress: number[] = [];
    try {
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map((job) => pool.run(job, (done) => progress.push(done))),
      );
      expect(results).toEqual([2, 4, 6, 8, 10]);
      expect(progress).toEqual([1, 1, 1, 1, 1]);
      await expect(pool.run(-1)).rejects.toThrow('negative');
      expect(await pool.run(7)).toBe(14);
    } finally {
      await pool.close();
    }
  });

  it('runs jobs in this thread with one worker', async () => {
    const pool = createJobPool<number, number>({
      size: 1,
      workerUrl,
      inline: async (job, onProgress) => {
        onProgress(3);
        return job + 1;
      },
    });
    const progress: number[] = [];
    expect(await pool.run(1, (done) => progress.push(done))).toBe(2);
    expect(progress).toEqual([3]);
  });
});

describe('runInFreshWorker', () => {
  it('answers with the result, or stops a job that takes too long', async () => {
    expect(await runInFreshWorker({ workerUrl, job: 21, timeoutMs: 10_000 })).toEqual({
      stopped: false,
      result: 42,
    });
    expect(await runInFreshWorker({ workerUrl, job: 'hang', timeoutMs: 200 })).toEqual({ stopped: true });
    await expect(runInFreshWorker({ workerUrl, job: -1, timeoutMs: 10_000 })).rejects.toThrow('negative');
  });
});
