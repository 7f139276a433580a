import { type DatasetSource, loadDataset, subsample } from '../datasets';
import type { Progress } from '../progress';
import { splitOf } from '../quality/eval-data';
import type { EvalReport, MetricsRow } from '../quality/evaluate';
import { meanMetrics, type QueryMetrics, scoreQuery } from '../quality/metrics';
import type { SearchSystem } from '../systems';
import { createJobPool } from '../worker-pool';
import { type QualityJob, type QualityJobResult, runQualityJob } from './quality-job';

export interface QualitySetInfo {
  readonly name: string;
  readonly tools: number;
  /** Queries in the file. */
  readonly queries: number;
  /** Queries ranked by the systems with an index (all, unless `maxQueries`). */
  readonly queriesRun: number;
  /** Queries every system ranked, the peers that scan the catalog included: the comparison. */
  readonly queriesCompared: number;
}

export interface QualitySuiteResult {
  /** Every system on the same queries of each set (`queriesCompared`); `ranker` is the system's label. */
  readonly reports: readonly EvalReport[];
  /**
   * The systems with an index on every query run (`queriesRun`); empty when that is the same
   * as the comparison.
   */
  readonly fullReports: readonly EvalReport[];
  readonly sets: readonly QualitySetInfo[];
}

/** Metrics of one system on one set, from the names it returned. */
export function toReport(
  label: string,
  set: string,
  result: Pick<QualityJobResult, 'ids' | 'ranked' | 'buildMs' | 'queryMs'>,
  relevantById: ReadonlyMap<string, readonly string[]>,
): EvalReport {
  const perQuery = result.ids.map((id, index) => {
    const ranked = result.ranked[index] ?? [];
    return { id, split: splitOf(id), metrics: scoreQuery(ranked, relevantById.get(id) ?? []), ranked };
  });
  const bySplit = new Map<string, QueryMetrics[]>();
  for (const row of perQuery) {
    const list = bySplit.get(row.split) ?? [];
    if (list.length === 0) bySplit.set(row.split, list);
    list.push(row.metrics);
  }
  const splits: MetricsRow[] = [...bySplit].map(([splitLabel, list]) => ({
    label: splitLabel,
    queries: list.length,
    metrics: meanMetrics(list),
  }));
  return {
    set,
    ranker: label,
    overall: {
      label: set,
      queries: perQuery.length,
      metrics: meanMetrics(perQuery.map((row) => row.metrics)),
    },
    splits,
    perQuery,
    buildMs: result.buildMs,
    queryMs: result.queryMs,
  };
}

/** Rough cost of a job (to start the long ones first): queries × tools, heavier for the peers that scan. */
const weight = (scans: boolean, tools: number, queries: number): number => queries * tools * (scans ? 10 : 1);

/**
 * Every system on every dataset, top 10 per query, metrics per set and per split. Jobs run on
 * `parallel` worker threads. `maxQueries` subsamples each set deterministically (stratified by
 * split); `scanMaxQueries` subsamples it further for the systems whose every search scans the
 * catalog, and the comparison is made on that subsample (the others' figures on it are cut
 * from their full run, not ranked twice).
 */
export async function runQualitySuite(options: {
  sources: readonly DatasetSource[];
  systems: readonly SearchSystem[];
  maxQueries?: number;
  scanMaxQueries?: number;
  parallel?: number;
  progress?: Progress;
}): Promise<QualitySuiteResult> {
  const sets: QualitySetInfo[] = [];
  const jobs: { job: QualityJob; weight: number; queries: number; label: string }[] = [];
  const relevant = new Map<string, Map<string, readonly string[]>>();
  const compared = new Map<string, Set<string>>();
  for (const source of options.sources) {
    const set = await loadDataset(source);
    const chosen = options.maxQueries ? subsample(set.queries, options.maxQueries) : set.queries;
    const forScans = options.scanMaxQueries ? subsample(chosen, options.scanMaxQueries) : chosen;
    relevant.set(set.name, new Map(chosen.map((query) => [query.id, query.relevant])));
    compared.set(set.name, new Set(forScans.map((query) => query.id)));
    sets.push({
      name: set.name,
      tools: set.tools.length,
      queries: set.queries.length,
      queriesRun: chosen.length,
      queriesCompared: forScans.length,
    });
    for (const system of options.systems) {
      const queries = system.scansCatalog ? forScans : chosen;
      const queryIds = queries.length === set.queries.length ? null : queries.map((query) => query.id);
      jobs.push({
        job: { systemId: system.id, source, queryIds, topK: 10 },
        weight: weight(system.scansCatalog, set.tools.length, queries.length),
        queries: queries.length,
        label: `${system.label} on ${set.name}`,
      });
    }
  }
  jobs.sort((left, right) => right.weight - left.weight);

  const total = jobs.reduce((sum, job) => sum + job.queries, 0);
  const doneByJob = new Map<QualityJob, number>();
  let current = '';
  const report = () =>
    options.progress?.update(
      [...doneByJob.values()].reduce((sum, done) => sum + done, 0),
      current,
    );
  options.progress?.phase('quality', total);

  const pool = createJobPool<QualityJob, QualityJobResult>({
    size: Math.min(options.parallel ?? 1, jobs.length),
    workerUrl: new URL('./quality-worker.ts', import.meta.url),
    inline: runQualityJob,
  });
  const labels = new Map(options.systems.map((system) => [system.id, system.label]));
  try {
    const results = await Promise.all(
      jobs.map(({ job, label }) =>
        pool.run(job, (done) => {
          doneByJob.set(job, done);
          current = label;
          report();
        }),
      ),
    );
    const setOrder = options.sources.map((source) => source.name);
    const systemOrder = options.systems.map((system) => system.label);
    const order = (list: EvalReport[]) =>
      list.sort(
        (left, right) =>
          setOrder.indexOf(left.set) - setOrder.indexOf(right.set) ||
          systemOrder.indexOf(left.ranker) - systemOrder.indexOf(right.ranker),
      );
    const reports: EvalReport[] = [];
    const fullReports: EvalReport[] = [];
    for (const result of results) {
      const label = labels.get(result.systemId) ?? result.systemId;
      const relevantById = relevant.get(result.set)!;
      const ids = compared.get(result.set)!;
      if (ids.size === result.ids.length) {
        reports.push(toReport(label, result.set, result, relevantById));
        continue;
      }
      fullReports.push(toReport(label, result.set, result, relevantById));
      const keep = result.ids.map((id) => ids.has(id));
      reports.push(
        toReport(
          label,
          result.set,
          {
            ...result,
            ids: result.ids.filter((_, index) => keep[index]),
            ranked: result.ranked.filter((_, index) => keep[index]),
          },
          relevantById,
        ),
      );
    }
    return { reports: order(reports), fullReports: order(fullReports), sets };
  } finally {
    await pool.close();
  }
}
