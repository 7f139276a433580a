import { spawnSync } from 'node:child_process';
import { measureAiSdkStep } from '../adapters/ai-sdk-step';
import { measureLangChainStep } from '../adapters/langchain-step';
import { measureMastraStep } from '../adapters/mastra-step';
import { measureRedisStep } from '../adapters/redis-step';
import type { Progress } from '../progress';

/** The time one agent step spends in tool search, per adapter. */
export interface StepRow {
  readonly adapter: 'mastra' | 'ai-sdk' | 'langchain' | 'redis';
  /** Who did the work: ours, Mastra's own processor, or (redis) which store ours used. */
  readonly system: 'tool-search' | 'mastra' | 'tool-search + in-memory store' | 'tool-search + Redis store';
  readonly mode: 'catalog' | 'request-tools';
  readonly tools: number;
  readonly loaded: number;
  readonly iterations: number;
  readonly medianMs: number;
  readonly p99Ms: number;
  /** The first step of a request (opening it), where measured. */
  readonly firstStepMedianMs: number | null;
  /** Requests to Redis per step (the Redis rows only). */
  readonly roundTripsPerStep?: number;
}

export interface StepPlan {
  readonly size: number;
  readonly iterations: number;
  readonly warmup: number;
  /** Mastra's own processor rebuilds its index every step with request tools: fewer iterations there. */
  readonly slowIterations: number;
  /** Skip Redis (no redis-server here); the report says so. */
  readonly redis: boolean;
}

/** Is a `redis-server` binary on the PATH? */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * The adapters' own step measurements (each drives its framework's real step with `size`
 * catalog tools, or `size` request-resolved tools), run one after the other.
 */
export async function runStepSuite(options: { plan: StepPlan; progress?: Progress }): Promise<StepRow[]> {
  const { plan } = options;
  const common = { size: plan.size, iterations: plan.iterations, warmup: plan.warmup };
  const tasks: { label: string; run: () => Promise<StepRow[]> }[] = [];
  for (const mode of ['catalog', 'request-tools'] as const) {
    tasks.push({
      label: `Mastra (${mode})`,
      run: async () =>
        (
          await measureMastraStep({
            mode,
            size: plan.size,
            ...(mode === 'catalog'
              ? { iterations: plan.iterations, warmup: plan.warmup }
              : {
                  iterations: plan.slowIterations,
                  warmup: Math.ceil(plan.slowIterations / 10),
                  firstStepIterations: Math.ceil(plan.slowIterations / 4),
                }),
          })
        ).map((row) => ({
          adapter: 'mastra',
          system: row.processor,
          mode: row.mode,
          tools: row.tools,
          loaded: row.loaded,
          iterations: row.iterations,
          medianMs: row.medianMs,
          p99Ms: row.p99Ms,
          firstStepMedianMs: row.firstStepMedianMs,
        })),
    });
    tasks.push({
      label: `AI SDK (${mode})`,
      run: async () => {
        const row = await measureAiSdkStep({ mode, ...common });
        return [
          {
            adapter: 'ai-sdk',
            system: 'tool-search',
            ...pick(row),
            firstStepMedianMs: row.firstStepMedianMs,
          },
        ];
      },
    });
    tasks.push({
      label: `LangChain (${mode})`,
      run: async () => {
        const row = await measureLangChainStep({ mode, ...common });
        return [{ adapter: 'langchain', system: 'tool-search', ...pick(row), firstStepMedianMs: null }];
      },
    });
  }
  if (plan.redis) {
    tasks.push({
      label: 'Redis store',
      run: async () =>
        (await measureRedisStep(common)).map((row) => ({
          adapter: 'redis',
          system: row.store === 'redis' ? 'tool-search + Redis store' : 'tool-search + in-memory store',
          mode: 'catalog',
          tools: row.tools,
          loaded: row.loaded,
          iterations: row.iterations,
          medianMs: row.medianMs,
          p99Ms: row.p99Ms,
          firstStepMedianMs: null,
          roundTripsPerStep: row.roundTripsPerStep,
        })),
    });
  }
  const rows: StepRow[] = [];
  options.progress?.phase('adapter steps', tasks.length);
  for (const [index, task] of tasks.entries()) {
    options.progress?.update(index, task.label);
    rows.push(...(await task.run()));
  }
  options.progress?.update(tasks.length);
  return rows;
}

function pick(row: {
  mode: 'catalog' | 'request-tools';
  tools: number;
  loaded: number;
  iterations: number;
  medianMs: number;
  p99Ms: number;
}) {
  const { mode, tools, loaded, iterations, medianMs, p99Ms } = row;
  return { mode, tools, loaded, iterations, medianMs, p99Ms };
}
