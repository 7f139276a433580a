import type { DatasetSource } from '../datasets';
import type { Progress } from '../progress';
import type { SearchSystem } from '../systems';
import { runInFreshWorker } from '../worker-pool';
import { runSpeedJob, type SpeedJob, type SpeedRow } from './speed-job';

export interface SpeedPlan {
  readonly sizes: readonly number[];
  /** Sizes also timed with real tools and requests from the eval sets (none: skipped). */
  readonly realRequestSizes: readonly number[];
  /** Timed builds per size (fewer at large sizes). */
  readonly runs: (size: number) => number;
  readonly queries: (size: number) => number;
  readonly warmup: number;
  /** No further build of a system once its builds took this long. */
  readonly buildBudgetMs: number;
  /** Per measurement: how long queries may be timed, and how long the whole may take. */
  readonly queryBudgetMs: number;
  /** Ours gets `jobTimeoutMs`; a peer gets `peerTimeoutMs` (a quadratic build is stopped sooner). */
  readonly jobTimeoutMs: number;
  readonly peerTimeoutMs: number;
  readonly seed: number;
  readonly measureMemory: boolean;
}

/**
 * Each system on each synthetic catalog size, one measurement at a time (no other work runs
 * meanwhile), each in a fresh worker thread: a clean heap for the memory figure, and a
 * measurement that can be stopped when a build runs past `jobTimeoutMs`. With `isolate: false`
 * (tests) the jobs run in this thread. With `requests`, the sizes of `realRequestSizes` are
 * timed on the real tools and requests of those sets instead.
 */
export async function runSpeedSuite(options: {
  systems: readonly SearchSystem[];
  plan: SpeedPlan;
  isolate?: boolean;
  progress?: Progress;
  requests?: readonly DatasetSource[];
}): Promise<SpeedRow[]> {
  const { plan, requests } = options;
  const sizes = requests ? plan.realRequestSizes : plan.sizes;
  const rows: SpeedRow[] = [];
  const total = sizes.length * options.systems.length;
  options.progress?.phase(requests ? 'speed, real requests' : 'speed', total);
  for (const size of sizes) {
    for (const system of options.systems) {
      const job: SpeedJob = {
        systemId: system.id,
        size,
        ...(requests ? { requests } : {}),
        seed: plan.seed,
        runs: plan.runs(size),
        queries: plan.queries(size),
        warmup: plan.warmup,
        buildBudgetMs: plan.buildBudgetMs,
        queryBudgetMs: plan.queryBudgetMs,
        measureMemory: plan.measureMemory,
      };
      options.progress?.update(rows.length, `${system.label}, ${size.toLocaleString('en-US')} tools`);
      if (options.isolate === false) {
        rows.push(await runSpeedJob(job));
        continue;
      }
      const timeoutMs = system.id.startsWith('ours') ? plan.jobTimeoutMs : plan.peerTimeoutMs;
      let builds = 0;
      const outcome = await runInFreshWorker<SpeedJob, SpeedRow>({
        workerUrl: new URL('./speed-worker.ts', import.meta.url),
        job,
        timeoutMs,
        onProgress: (done) => {
          builds = done;
        },
      });
      rows.push(
        outcome.stopped
          ? {
              systemId: system.id,
              tools: size,
              requests: requests ? 'real' : 'generated',
              buildMs: Number.NaN,
              builds: 0,
              medianQueryMs: Number.NaN,
              p99QueryMs: Number.NaN,
              queriesTimed: 0,
              memoryBytesPerTool: Number.NaN,
              stopped:
                builds === 0
                  ? `build not finished after ${Math.round(timeoutMs / 1000)} s (stopped)`
                  : `stopped after ${Math.round(timeoutMs / 1000)} s, while timing searches`,
            }
          : outcome.result,
      );
      options.progress?.update(rows.length);
    }
  }
  return rows;
}
