import os from 'node:os';
import { type DatasetSource, loadDataset, subsample } from './datasets';
import { currentLoad, type MachineInfo, machineInfo } from './machine';
import type { Progress } from './progress';
import type { EvalSet } from './quality/eval-data';
import { type ChooseRow, runChooseSuite } from './suites/choose';
import { type LearningPlan, type LearningSuiteResult, runLearningSuite } from './suites/learning';
import { type McpPlan, type McpResults, runMcpSuite } from './suites/mcp';
import { type NativePlan, type NativeRow, runNativeSuite } from './suites/native';
import { type QualitySuiteResult, runQualitySuite } from './suites/quality';
import { runSpeedSuite, type SpeedPlan } from './suites/speed';
import type { SpeedRow } from './suites/speed-job';
import { runStepSuite, type StepPlan, type StepRow } from './suites/steps';
import { runTokenSuite, type TokenRow } from './suites/tokens';
import { runWorstCaseSuite, type WorstCasePlan, type WorstCaseRow } from './suites/worst-case';
import { availableSystems, type SearchSystem, type SystemId } from './systems';

export type BenchMode = 'full' | 'quick' | 'own';

/** What one run measures, and how much of it. */
export interface BenchConfig {
  readonly mode: BenchMode;
  readonly sources: readonly DatasetSource[];
  /** Queries per set at most (deterministic, stratified by split); undefined for all. */
  readonly maxQueries: number | undefined;
  /** Fewer for the systems whose searches scan the catalog (the comparison is made on those). */
  readonly scanMaxQueries: number | undefined;
  /** Worker threads for the quality jobs. */
  readonly parallel: number;
  /** The topK × minScore grid: on which sets, with how many queries. */
  readonly choose: { readonly sets: readonly string[]; readonly maxQueries: number | undefined };
  /** Token table sizes (0 entries: skipped). */
  readonly tokenSizes: readonly number[];
  /** Speed and memory on synthetic catalogs, and speed on real requests (null: skipped). */
  readonly speed: (SpeedPlan & { readonly isolate: boolean; readonly systems?: readonly SystemId[] }) | null;
  /** Per-step overhead of the adapters (null: skipped). */
  readonly steps: StepPlan | null;
  /** Worst-case inputs next to typical requests, per entry point of ours (null: skipped). */
  readonly worstCase: WorstCasePlan | null;
  /** Provider-native deferred loading against the default mode, per provider (null: skipped). */
  readonly native: NativePlan | null;
  /** Learning from use: the traffic/test protocol of issue 55 (null: skipped). */
  readonly learning: LearningPlan | null;
  /** MCP: listing and indexing the tools of local MCP servers, tokens, no schema before a load (absent or null: skipped). */
  readonly mcp?: McpPlan | null;
}

export interface BenchResults {
  readonly mode: BenchMode;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly suiteMs: Readonly<Record<string, number>>;
  readonly machine: MachineInfo;
  /** One-minute load average at the start, the end and its peak between suites. */
  readonly load: { readonly start: number; readonly end: number; readonly peak: number };
  readonly systems: readonly Pick<
    SearchSystem,
    'id' | 'label' | 'packageName' | 'version' | 'drivenAs' | 'scansCatalog'
  >[];
  readonly config: {
    readonly maxQueries: number | undefined;
    readonly scanMaxQueries: number | undefined;
    readonly speed: {
      sizes: readonly number[];
      realRequestSizes: readonly number[];
      queries: number[];
      queryBudgetMs: number;
      jobTimeoutMs: number;
      peerTimeoutMs: number;
      isolate: boolean;
      measureMemory: boolean;
    } | null;
    readonly steps: StepPlan | null;
    readonly worstCase: WorstCasePlan | null;
    readonly native: NativePlan | null;
    readonly chooseMaxQueries: number | undefined;
  };
  readonly quality: QualitySuiteResult;
  readonly choose: readonly {
    readonly set: string;
    readonly queries: number;
    readonly rows: readonly ChooseRow[];
  }[];
  readonly tokens: readonly TokenRow[];
  readonly speed: readonly SpeedRow[];
  /** The same measurement with the eval sets' tools and requests (`requests: 'real'`). */
  readonly realRequestSpeed: readonly SpeedRow[];
  readonly steps: readonly StepRow[];
  readonly worstCase: readonly WorstCaseRow[];
  /** Native deferred loading and the default mode, per provider (none when skipped). */
  readonly native: readonly NativeRow[];
  /** Null when the suite did not run (and in runs saved before it existed). */
  readonly learning: LearningSuiteResult | null;
  /** The MCP suite's figures (absent or null when skipped). */
  readonly mcp?: McpResults | null;
}

/**
 * Runs the suites of `config`. Quality runs on worker threads; meanwhile this thread counts
 * tokens and runs the topK × minScore grid (neither is timed). Speed, the adapter steps and the
 * worst-case inputs run afterwards, alone, so their timings share the machine with nothing else
 * of ours.
 */
export async function runBench(config: BenchConfig, progress?: Progress): Promise<BenchResults> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const load = { start: currentLoad(), end: 0, peak: currentLoad() };
  const sample = () => {
    load.peak = Math.max(load.peak, currentLoad());
  };
  const suiteMs: Record<string, number> = {};
  const timed = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await run();
    } finally {
      suiteMs[name] = performance.now() - start;
      sample();
    }
  };
  const systems = await availableSystems();
  const sets = new Map<string, EvalSet>();
  for (const source of config.sources) sets.set(source.name, await loadDataset(source));

  const qualityRun = timed('quality', () =>
    runQualitySuite({
      sources: config.sources,
      systems,
      parallel: config.parallel,
      ...(config.maxQueries ? { maxQueries: config.maxQueries } : {}),
      ...(config.scanMaxQueries ? { scanMaxQueries: config.scanMaxQueries } : {}),
      ...(progress ? { progress } : {}),
    }),
  );
  // Untimed work for this thread while the workers rank.
  const side = (async () => {
    const tokens =
      config.tokenSizes.length === 0
        ? []
        : await timed('tokens', () =>
            runTokenSuite({ pool: [...sets.values()].flatMap((set) => set.tools), sizes: config.tokenSizes }),
          );
    const choose = await timed('choose', async () => {
      const tables = [];
      for (const name of config.choose.sets) {
        const set = sets.get(name);
        if (set === undefined) continue;
        const queries = config.choose.maxQueries
          ? subsample(set.queries, config.choose.maxQueries)
          : set.queries;
        tables.push({ set: name, queries: queries.length, rows: await runChooseSuite({ ...set, queries }) });
      }
      return tables;
    });
    return { tokens, choose };
  })();
  const [quality, { tokens, choose }] = await Promise.all([qualityRun, side]);

  const speedPlan = config.speed;
  const speed = speedPlan
    ? await timed('speed', () =>
        runSpeedSuite({
          systems: systems.filter((system) => !speedPlan.systems || speedPlan.systems.includes(system.id)),
          plan: speedPlan,
          isolate: speedPlan.isolate,
          ...(progress ? { progress } : {}),
        }),
      )
    : [];
  const realRequestSpeed =
    speedPlan && speedPlan.realRequestSizes.length > 0
      ? await timed('speed, real requests', () =>
          runSpeedSuite({
            systems: systems.filter((system) => !speedPlan.systems || speedPlan.systems.includes(system.id)),
            plan: speedPlan,
            isolate: speedPlan.isolate,
            requests: config.sources,
            ...(progress ? { progress } : {}),
          }),
        )
      : [];
  const stepPlan = config.steps;
  const steps = stepPlan
    ? await timed('steps', () => runStepSuite({ plan: stepPlan, ...(progress ? { progress } : {}) }))
    : [];
  const worstCasePlan = config.worstCase;
  const worstCase = worstCasePlan
    ? await timed('worst-case input', () =>
        runWorstCaseSuite({ plan: worstCasePlan, ...(progress ? { progress } : {}) }),
      )
    : [];
  const nativePlan = config.native;
  const native = nativePlan
    ? await timed('native deferred loading', () =>
        runNativeSuite({ plan: nativePlan, ...(progress ? { progress } : {}) }),
      )
    : [];
  const learningPlan = config.learning;
  const learning = learningPlan
    ? await timed('learning', () =>
        runLearningSuite({ sources: config.sources, plan: learningPlan, ...(progress ? { progress } : {}) }),
      )
    : null;
  const mcpPlan = config.mcp ?? null;
  const mcp = mcpPlan
    ? await timed('mcp', () => runMcpSuite({ plan: mcpPlan, ...(progress ? { progress } : {}) }))
    : null;
  load.end = currentLoad();
  sample();
  return {
    mode: config.mode,
    startedAt,
    durationMs: performance.now() - started,
    suiteMs,
    machine: { ...machineInfo(), loadAverage: load.start },
    load,
    systems: systems.map(({ id, label, packageName, version, drivenAs, scansCatalog }) => ({
      id,
      label,
      packageName,
      version,
      drivenAs,
      scansCatalog,
    })),
    config: {
      maxQueries: config.maxQueries,
      scanMaxQueries: config.scanMaxQueries,
      speed: speedPlan
        ? {
            sizes: speedPlan.sizes,
            realRequestSizes: speedPlan.realRequestSizes,
            queries: speedPlan.sizes.map((size) => speedPlan.queries(size)),
            queryBudgetMs: speedPlan.queryBudgetMs,
            jobTimeoutMs: speedPlan.jobTimeoutMs,
            peerTimeoutMs: speedPlan.peerTimeoutMs,
            isolate: speedPlan.isolate,
            measureMemory: speedPlan.measureMemory,
          }
        : null,
      steps: stepPlan,
      worstCase: worstCasePlan,
      native: nativePlan,
      chooseMaxQueries: config.choose.maxQueries,
    },
    quality,
    choose,
    tokens,
    speed,
    realRequestSpeed,
    steps,
    worstCase,
    native,
    learning,
    mcp,
  };
}

/** Worker threads for quality: one per core, at most 4. */
export const defaultParallel = (): number => Math.max(1, Math.min(4, os.availableParallelism()));
