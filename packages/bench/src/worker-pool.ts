import { parentPort, Worker } from 'node:worker_threads';

/** What a worker posts back: progress of a job, its result, or its failure. */
type WorkerMessage<R> =
  | { readonly id: number; readonly type: 'progress'; readonly done: number }
  | { readonly id: number; readonly type: 'done'; readonly result: R }
  | { readonly id: number; readonly type: 'error'; readonly message: string };

export type JobHandler<J, R> = (job: J, onProgress: (done: number) => void) => Promise<R>;

export interface JobPool<J, R> {
  run(job: J, onProgress?: (done: number) => void): Promise<R>;
  close(): Promise<void>;
}

interface Pending<J, R> {
  readonly job: J;
  readonly onProgress: ((done: number) => void) | undefined;
  readonly resolve: (result: R) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Runs jobs on `size` worker threads (each loads `workerUrl`, a module that calls
 * {@link serveJobs}), or in this thread when `size` is 1 — as under vitest, whose transform does
 * not reach worker threads. Workers inherit this process's flags (tsx, export conditions).
 */
export function createJobPool<J, R>(options: {
  size: number;
  workerUrl: URL;
  inline: JobHandler<J, R>;
}): JobPool<J, R> {
  if (options.size <= 1) {
    return { run: (job, onProgress) => options.inline(job, onProgress ?? (() => {})), close: async () => {} };
  }
  const queue: Pending<J, R>[] = [];
  const idle: Worker[] = [];
  const workers: Worker[] = [];
  const running = new Map<Worker, Pending<J, R>>();

  function start(): Worker {
    const worker = new Worker(options.workerUrl);
    worker.on('message', (message: WorkerMessage<R>) => {
      const pending = running.get(worker);
      if (pending === undefined) return;
      if (message.type === 'progress') return pending.onProgress?.(message.done);
      running.delete(worker);
      if (message.type === 'done') pending.resolve(message.result);
      else pending.reject(new Error(message.message));
      idle.push(worker);
      pump();
    });
    worker.on('error', (error) => {
      running.get(worker)?.reject(error);
      running.delete(worker);
    });
    workers.push(worker);
    return worker;
  }

  function pump(): void {
    while (queue.length > 0) {
      const worker = idle.pop() ?? (workers.length < options.size ? start() : undefined);
      if (worker === undefined) return;
      const pending = queue.shift()!;
      running.set(worker, pending);
      worker.postMessage({ id: 0, job: pending.job });
    }
  }

  return {
    run: (job, onProgress) =>
      new Promise<R>((resolve, reject) => {
        queue.push({ job, onProgress, resolve, reject });
        pump();
      }),
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

/** The worker side: answers each job posted by {@link createJobPool} with `handler`. */
export function serveJobs<J, R>(handler: JobHandler<J, R>): void {
  const port = parentPort;
  if (port === null) throw new Error('serveJobs runs inside a worker thread');
  port.on('message', async ({ id, job }: { id: number; job: J }) => {
    try {
      const result = await handler(job, (done) => port.postMessage({ id, type: 'progress', done }));
      port.postMessage({ id, type: 'done', result });
    } catch (error) {
      port.postMessage({
        id,
        type: 'error',
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  });
}

/**
 * One job in a worker of its own (a clean heap, and a job that can be stopped): resolves with
 * the result, or with `{ stopped: true }` when it has not answered within `timeoutMs`.
 */
export function runInFreshWorker<J, R>(options: {
  workerUrl: URL;
  job: J;
  timeoutMs: number;
  onProgress?: (done: number) => void;
}): Promise<{ stopped: false; result: R } | { stopped: true }> {
  const worker = new Worker(options.workerUrl);
  return new Promise((resolve, reject) => {
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      void worker.terminate().then(outcome);
    };
    const timer = setTimeout(() => finish(() => resolve({ stopped: true })), options.timeoutMs);
    worker.on('message', (message: WorkerMessage<R>) => {
      if (message.type === 'progress') options.onProgress?.(message.done);
      else if (message.type === 'done') finish(() => resolve({ stopped: false, result: message.result }));
      else finish(() => reject(new Error(message.message)));
    });
    worker.on('error', (error) => finish(() => reject(error)));
    worker.postMessage({ id: 0, job: options.job });
  });
}
