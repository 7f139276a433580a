import { type DatasetSource, loadDataset, subsample } from '../datasets';
import type { Progress } from '../progress';
import { splitOf } from '../quality/eval-data';
import type { EvalReport, MetricsRow } from '../quality/evaluate';
import { meanMetrics, type QueryMetrics, scoreQuery } from '../quality/metrics';
import type { SearchSystem } from '../systems';
import { createJobPool } from '../worker-pool';
import { type QualityJob, type QualityJobResult, runQualityJob } from './quality-job';

export interface QualitySuiteResult {
  /** One report per set and system; `ranker` is the system's label. */
  readonly reports: readonly EvalReport[];
  /** Per set: queries in the file, and queries run (less when subsampled). */
  readonly sets: readonly { name: string; tools: number; queries: number; queriesRun: number }[];
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
const weight = (job: QualityJob, tools: number, queries: number): number =>
  queries * tools * (job.systemId === 'mastra' || job.systemId === 'ai-sdk' ? 10 : 1);

/**
 * Every system on every dataset, top 10 per query, metrics per set and per split. Jobs run on
 * `parallel` worker threads (the peers that scan the catalog per query are the long ones);
 * `maxQueries` subsamples each set deterministically (stratified by split).
 */
export async function runQualitySuite(options: {
  sources: readonly DatasetSource[];
  systems: readonly SearchSystem[];
  maxQueries?: number;
  parallel?: number;
  progress?: Progress;
}): Promise<QualitySuiteResult> {
  const sets = [];
  const jobs: { job: QualityJob; weight: number; queries: number; label: string }[] = [];
  const relevant = new Map<string, Map<string, readonly string[]>>();
  for (const source of options.sources) {
    const set = await loadDataset(source);
    const chosen = options.maxQueries ? subsample(set.queries, options.maxQueries) : set.queries;
    relevant.set(set.name, new Map(chosen.map((query) => [query.id, query.relevant])));
    sets.push({
      name: set.name,
      tools: set.tools.length,
      queries: set.queries.length,
      queriesRun: chosen.length,
    });
    const queryIds = chosen.length === set.queries.length ? null : chosen.map((query) => query.id);
    for (const system of options.systems) {
      const job: QualityJob = { systemId: system.id, source, queryIds, topK: 10 };
      jobs.push({
        job,
        weight: weight(job, set.tools.length, chosen.length),
        queries: chosen.length,
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
    const reports = results.map((result) =>
      toReport(labels.get(result.systemId) ?? result.systemId, result.set, result, relevant.get(result.set)!),
    );
    // Sets in the order given, systems in the order given.
    const setOrder = options.sources.map((source) => source.name);
    const systemOrder = options.systems.map((system) => system.label);
    reports.sort(
      (left, right) =>
        setOrder.indexOf(left.set) - setOrder.indexOf(right.set) ||
        systemOrder.indexOf(left.ranker) - systemOrder.indexOf(right.ranker),
    );
    return { reports, sets };
  } finally {
    await pool.close();
  }
}
