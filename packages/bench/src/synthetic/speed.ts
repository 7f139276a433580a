import type { RankerFactory } from '@tool-search/core';
import { quantile } from '../quantile';
import { generateCatalog, generateQueries } from './catalog';

export interface SpeedRow {
  readonly ranker: string;
  readonly tools: number;
  /** Median build time over the runs (wall clock), and the CPU time of that build. */
  readonly buildMs: number;
  readonly buildCpuMs: number;
  readonly medianQueryMs: number;
  readonly p99QueryMs: number;
  /** Memory held by the built ranker (JS heap + typed arrays, after a full GC), or null without --expose-gc. */
  readonly heapBytes: number | null;
  readonly heapBytesPerTool: number | null;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** JS heap plus typed-array memory (which lives outside the JS heap), after a full GC. */
function heapUsed(): number | null {
  if (gc === undefined) return null;
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** CPU time of this process in milliseconds (user + system). */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * Builds a ranker over a synthetic catalog of `size` tools and times it: the median build of
 * a few runs (after one untimed warm-up build, so the JIT is not what is measured),
 * then `queryCount` synthetic requests timed one by one (median and p99, after a warm-up; each
 * request's time is the fastest of three runs),
 * and the heap the last built ranker holds. Run node with --expose-gc for the heap figure.
 */
export async function measureSpeed(options: {
  name: string;
  factory: RankerFactory;
  size: number;
  queryCount?: number;
  runs?: number;
  seed?: number;
  now?: () => number;
}): Promise<SpeedRow> {
  const now = options.now ?? (() => performance.now());
  const tools = generateCatalog({ size: options.size, seed: options.seed ?? 1 });
  const queries = generateQueries(tools, {
    count: options.queryCount ?? 2000,
    seed: (options.seed ?? 1) + 1,
  });
  // Warm-up: untimed builds of the same catalog, so the JIT is not what is measured.
  for (let warmUp = 0; warmUp < (options.size <= 20_000 ? 3 : 1); warmUp++) {
    await options.factory(tools).search('warm up the ranker');
  }

  const runs = options.runs ?? (options.size <= 20_000 ? 5 : 3);
  const builds: { wall: number; cpu: number }[] = [];
  let ranker: ReturnType<RankerFactory> | undefined;
  for (let run = 0; run < runs; run++) {
    ranker = undefined;
    const start = now();
    const cpuStart = cpuMs();
    ranker = options.factory(tools);
    builds.push({ wall: now() - start, cpu: cpuMs() - cpuStart });
  }
  let built = ranker!;
  ranker = undefined;
  for (const query of queries.slice(0, 200)) await built.search(query.query, { topK: 5 });
  // Each request's time is the fastest of three runs, so that the process being descheduled
  // (or another process's work) is not counted as a slow request.
  const times = queries.map(() => Number.POSITIVE_INFINITY);
  for (let run = 0; run < 3; run++) {
    for (const [position, query] of queries.entries()) {
      const start = now();
      await built.search(query.query, { topK: 5 });
      times[position] = Math.min(times[position]!, now() - start);
    }
  }
  built = undefined as unknown as typeof built;
  // The memory of a ranker in its steady state (query buffers included): three more copies are
  // built and queried, and the growth is divided by three (robust to one copy being retained).
  const before = heapUsed();
  const copies: ReturnType<RankerFactory>[] = [];
  for (let copy = 0; copy < 3; copy++) {
    const instance = options.factory(tools);
    for (const query of queries.slice(0, 20)) await instance.search(query.query, { topK: 5 });
    copies.push(instance);
  }
  const after = heapUsed();
  const heapBytes = before === null || after === null ? null : (after - before) / copies.length;
  copies.length = 0;
  times.sort((left, right) => left - right);
  builds.sort((left, right) => left.wall - right.wall);
  const medianBuild = builds[Math.floor(builds.length / 2)]!;
  return {
    ranker: options.name,
    tools: options.size,
    buildMs: medianBuild.wall,
    buildCpuMs: medianBuild.cpu,
    medianQueryMs: quantile(times, 0.5),
    p99QueryMs: quantile(times, 0.99),
    heapBytes,
    heapBytesPerTool: heapBytes === null ? null : heapBytes / options.size,
  };
}

/** A markdown table of speed rows. */
export function formatSpeedTable(rows: readonly SpeedRow[]): string {
  const lines = [
    '| ranker | tools | build ms (cpu) | median query ms | p99 query ms | heap MB | heap bytes/tool |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const heap = row.heapBytes === null ? 'n/a' : (row.heapBytes / 1_048_576).toFixed(1);
    const perTool = row.heapBytesPerTool === null ? 'n/a' : row.heapBytesPerTool.toFixed(0);
    lines.push(
      `| ${row.ranker} | ${row.tools} | ${row.buildMs.toFixed(1)} (${row.buildCpuMs.toFixed(1)}) | ${row.medianQueryMs.toFixed(3)} | ${row.p99QueryMs.toFixed(3)} | ${heap} | ${perTool} |`,
    );
  }
  return lines.join('\n');
}
