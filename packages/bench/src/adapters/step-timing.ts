import { quantile } from '../quantile';

/** Options shared by the adapters' per-step measurements. */
export interface StepMeasureOptions {
  /** 'catalog': the tools are the adapter's catalog; 'request-tools': they are given per call. */
  readonly mode?: 'catalog' | 'request-tools';
  /** Synthetic tools (default 1,000). */
  readonly size?: number;
  /** Tools the measured thread has loaded (default 5). */
  readonly loaded?: number;
  readonly iterations?: number;
  readonly warmup?: number;
  readonly seed?: number;
  readonly now?: () => number;
}

/** The options with their defaults (`iterations` and `warmup`: 2,000 and 200 unless an adapter gives its own). */
export function stepMeasureDefaults(
  options: StepMeasureOptions,
  counts: { iterations: number; warmup: number } = { iterations: 2_000, warmup: 200 },
): Required<StepMeasureOptions> {
  const size = options.size ?? 1_000;
  return {
    mode: options.mode ?? 'catalog',
    size,
    loaded: Math.min(options.loaded ?? 5, size),
    iterations: options.iterations ?? counts.iterations,
    warmup: options.warmup ?? counts.warmup,
    seed: options.seed ?? 1,
    now: options.now ?? (() => performance.now()),
  };
}

/**
 * Runs `run` `warmup` times untimed, then `iterations` times timed one by one, each after an
 * untimed `before()` whose result it gets: the median and p99 in milliseconds.
 */
export async function timeRuns<T = undefined>(
  run: (prepared: T) => unknown,
  options: { iterations: number; warmup: number; now: () => number; before?: () => T },
): Promise<{ medianMs: number; p99Ms: number }> {
  const before = options.before ?? (() => undefined as T);
  for (let index = 0; index < options.warmup; index += 1) await run(before());
  const times: number[] = [];
  for (let index = 0; index < options.iterations; index += 1) {
    const prepared = before();
    const start = options.now();
    await run(prepared);
    times.push(options.now() - start);
  }
  times.sort((left, right) => left - right);
  return { medianMs: quantile(times, 0.5), p99Ms: quantile(times, 0.99) };
}
