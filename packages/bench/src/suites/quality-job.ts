import { type DatasetSource, loadDataset } from '../datasets';
import { type SystemId, systemById } from '../systems';

/** One system over one dataset: what a worker runs. */
export interface QualityJob {
  readonly systemId: SystemId;
  readonly source: DatasetSource;
  /** The queries to run (a deterministic subsample), or null for all. */
  readonly queryIds: readonly string[] | null;
  readonly topK: number;
}

export interface QualityJobResult {
  readonly systemId: SystemId;
  readonly set: string;
  readonly ids: readonly string[];
  /** Names returned per query, best first. */
  readonly ranked: readonly (readonly string[])[];
  readonly buildMs: number;
  /** Mean time per query. */
  readonly queryMs: number;
}

const PROGRESS_EVERY = 50;

/** Builds the system over the catalog and runs the queries, reporting progress every 50 queries. */
export async function runQualityJob(
  job: QualityJob,
  onProgress: (done: number) => void = () => {},
): Promise<QualityJobResult> {
  const set = await loadDataset(job.source, job.queryIds ?? undefined);
  const system = await systemById(job.systemId);
  const prepared = await system.prepare(set.tools);
  const buildStart = performance.now();
  const built = await system.build(prepared, set.tools, { topK: job.topK });
  const buildMs = performance.now() - buildStart;
  const queries = set.queries.map((query) => query.query);
  const ranked: string[][] = [];
  const queryStart = performance.now();
  for (let start = 0; start < queries.length; start += PROGRESS_EVERY) {
    ranked.push(...(await built.searchMany(queries.slice(start, start + PROGRESS_EVERY))));
    onProgress(ranked.length);
  }
  const queryMs = (performance.now() - queryStart) / Math.max(1, queries.length);
  await built.dispose?.();
  return {
    systemId: job.systemId,
    set: set.name,
    ids: set.queries.map((query) => query.id),
    ranked,
    buildMs,
    queryMs,
  };
}
