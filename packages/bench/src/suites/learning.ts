/**
 * The learning protocol (issue 55): for each set, the queries are split by a hash of their id
 * into a traffic half and a test half; the traffic half is recorded as uses of its relevant tools;
 * the test half is scored with and without learning, for the keyword and the hybrid ranker, along
 * a curve of recorded uses; the cost of learning on a search is timed against a plain search in
 * the same run; and requests written apart from the sets are scored with every public query of
 * their set recorded as traffic.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolDescriptor } from '@tool-search/core';
import { type DatasetSource, loadDataset, subsample } from '../datasets';
import {
  type BenchRanker,
  buildLearningRanker,
  type LearningRankerBuilder,
  type LearningRankerKind,
} from '../learning/learning-ranker';
import { curvePoints, splitHalves, usesOf } from '../learning/protocol';
import type { Progress } from '../progress';
import type { EvalQuery } from '../quality/eval-data';
import type { EvalReport } from '../quality/evaluate';
import { quantile } from '../quantile';
import { toReport } from './quality';

export interface LearningPlan {
  /** The learning curve's counts of recorded uses; 0 and "all" are always added. */
  readonly curve: readonly number[];
  readonly kinds: readonly LearningRankerKind[];
  /** Each half subsampled to this many queries (deterministic); undefined for all. */
  readonly maxQueries: number | undefined;
  /** Searches timed per ranker for the cost of learning (test-half queries, repeated if needed). */
  readonly timedSearches: number;
  /** The requests written apart from the sets (a JSON-lines file), or null to skip them. */
  readonly heldApart: string | null;
}

export interface LearningSetInfo {
  readonly name: string;
  readonly tools: number;
  readonly traffic: number;
  readonly test: number;
  /** Uses the traffic half stands for (one per query and relevant tool). */
  readonly uses: number;
}

/** One set and ranker: the same queries scored by the plain ranker and by the learning one. */
export interface LearningComparison {
  readonly set: string;
  readonly kind: LearningRankerKind;
  /** Uses given to the learning before the learning ranker was scored. */
  readonly uses: number;
  /** Of those, the uses it accepted (it refuses a query without a content word, a thread past its cap…). */
  readonly recorded: number;
  readonly plain: EvalReport;
  readonly learned: EvalReport;
  /**
   * NDCG@10 of the plain ranking with every relevant tool that has a use moved to the top (in
   * its plain order), the rest as it was: what learning from these uses could reach at best,
   * since a tool without uses gets no evidence and evidence never lowers a score (test halves only).
   */
  readonly ceiling?: number;
}

export interface LearningCurve {
  readonly set: string;
  readonly kind: LearningRankerKind;
  /** NDCG@10 of the test half after `uses` recorded uses (0: the learning ranker with none). */
  readonly points: readonly { readonly uses: number; readonly ndcg10: number }[];
}

/** The cost of learning on the hot path: the same searches, plain and learning, interleaved. */
export interface LearningCost {
  readonly set: string;
  readonly kind: LearningRankerKind;
  /** Searches timed on each (of the ranker, then as many `search_tools` calls of an engine). */
  readonly searches: number;
  /** The ranker's own search (topK 5). */
  readonly plainMedianMs: number;
  readonly learnedMedianMs: number;
  /** One `search_tools` call of an engine over the ranker (with the engine's `learning` for the learning one). */
  readonly enginePlainMedianMs: number;
  readonly engineLearnedMedianMs: number;
}

export interface LearningSuiteResult {
  readonly plan: LearningPlan;
  readonly sets: readonly LearningSetInfo[];
  /** The test half of each set, with every traffic use recorded. */
  readonly comparisons: readonly LearningComparison[];
  readonly curves: readonly LearningCurve[];
  readonly cost: readonly LearningCost[];
  /** The requests written apart, per set, with every public query of the set recorded. */
  readonly heldApart: readonly LearningComparison[];
}

/** The requests written apart from the public sets: the fixture of this package. */
export const HELD_APART_REQUESTS = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '__fixtures__',
  'held-apart',
  'requests.jsonl',
);

/** A held-apart request: a query of the eval format, and the set whose catalog answers it. */
export interface HeldApartRequest extends EvalQuery {
  readonly set: string;
}

/** Reads the held-apart requests, each checked against its set's catalog (file and line named). */
export async function readHeldApart(
  file: string,
  catalogs: ReadonlyMap<string, readonly ToolDescriptor[]>,
): Promise<HeldApartRequest[]> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  const requests: HeldApartRequest[] = [];
  const ids = new Set<string>();
  lines.forEach((line, index) => {
    if (line.trim().length === 0) return;
    const where = `${file}:${index + 1}`;
    const value = JSON.parse(line) as Partial<HeldApartRequest>;
    const { id, set, query, relevant } = value;
    if (
      typeof id !== 'string' ||
      typeof set !== 'string' ||
      typeof query !== 'string' ||
      !Array.isArray(relevant)
    )
      throw new Error(`${where} is not {"id","set","query","relevant":[names]}`);
    if (ids.has(id)) throw new Error(`${where} repeats the id "${id}"`);
    ids.add(id);
    const tools = catalogs.get(set);
    if (tools === undefined) return; // a set this run does not measure
    const names = new Set(tools.map((tool) => tool.name));
    const missing = relevant.find((name) => !names.has(name));
    if (relevant.length === 0 || missing !== undefined)
      throw new Error(`${where} names "${missing ?? '(nothing)'}" as relevant, which ${set} has no tool of`);
    requests.push({ id, set, query, relevant });
  });
  return requests;
}

/** The top 10 of each query, timed as a whole. */
async function rankAll(ranker: BenchRanker, queries: readonly EvalQuery[]) {
  const ranked: (readonly string[])[] = [];
  const started = performance.now();
  for (const query of queries) ranked.push(await ranker.search(query.query, 10));
  return { ranked, queryMs: (performance.now() - started) / Math.max(1, queries.length) };
}

function score(
  label: string,
  set: string,
  queries: readonly EvalQuery[],
  run: { ranked: readonly (readonly string[])[]; queryMs: number },
  buildMs: number,
): EvalReport {
  return toReport(
    label,
    set,
    {
      ids: queries.map((query) => query.id),
      ranked: run.ranked.map((names) => [...names]),
      buildMs,
      queryMs: run.queryMs,
    },
    new Map(queries.map((query) => [query.id, query.relevant])),
  );
}

async function timedBuild(build: () => Promise<BenchRanker>) {
  const started = performance.now();
  const ranker = await build();
  return { ranker, buildMs: performance.now() - started };
}

/**
 * Times `searches` calls of each, interleaved (plain, learning, then learning, plain for the
 * next query), so that both meet the same machine load; the medians, in ms.
 */
async function timeBoth(
  plain: (query: string) => Promise<unknown>,
  learned: (query: string) => Promise<unknown>,
  queries: readonly EvalQuery[],
  searches: number,
): Promise<{ plain: number; learned: number }> {
  const plainTimes: number[] = [];
  const learnedTimes: number[] = [];
  const once = async (search: (query: string) => Promise<unknown>, query: string, into: number[]) => {
    const started = performance.now();
    await search(query);
    into.push(performance.now() - started);
  };
  for (let index = 0; index < searches; index++) {
    const query = queries[index % queries.length]!.query;
    if (index % 2 === 0) {
      await once(plain, query, plainTimes);
      await once(learned, query, learnedTimes);
    } else {
      await once(learned, query, learnedTimes);
      await once(plain, query, plainTimes);
    }
  }
  const median = (list: number[]) =>
    quantile(
      list.sort((left, right) => left - right),
      0.5,
    );
  return { plain: median(plainTimes), learned: median(learnedTimes) };
}

/** The cost of learning on one set: the ranker's searches, then the engine's `search_tools` calls. */
async function measureCost(
  plain: BenchRanker,
  learned: BenchRanker,
  queries: readonly EvalQuery[],
  searches: number,
): Promise<Omit<LearningCost, 'set' | 'kind'>> {
  const count = queries.length === 0 ? 0 : searches;
  const ranker = await timeBoth(
    (query) => plain.search(query, 5),
    (query) => learned.search(query, 5),
    queries,
    count,
  );
  const engine = await timeBoth(plain.searchTools, learned.searchTools, queries, count);
  return {
    searches: count,
    plainMedianMs: ranker.plain,
    learnedMedianMs: ranker.learned,
    enginePlainMedianMs: engine.plain,
    engineLearnedMedianMs: engine.learned,
  };
}

const LABELS: Record<LearningRankerKind, { plain: string; learned: string }> = {
  keyword: { plain: 'tool-search (keyword)', learned: 'tool-search (keyword), learning' },
  hybrid: { plain: 'tool-search (hybrid)', learned: 'tool-search (hybrid), learning' },
};

/**
 * The NDCG@10 of the plain rankings with each query's relevant tools that have a use first (in
 * their plain order), the rest of the ranking unchanged: the best learning from `uses` can do.
 */
function ceilingOf(
  set: string,
  queries: readonly EvalQuery[],
  ranked: readonly (readonly string[])[],
  uses: readonly { readonly toolName: string }[],
): number {
  const withUses = new Set(uses.map((use) => use.toolName));
  const reordered = queries.map((query, index) => {
    const names = ranked[index] ?? [];
    const position = (name: string) => {
      const found = names.indexOf(name);
      return found === -1 ? Number.POSITIVE_INFINITY : found;
    };
    const first = query.relevant
      .filter((name) => withUses.has(name))
      .sort((left, right) => position(left) - position(right));
    return [...first, ...names.filter((name) => !first.includes(name))].slice(0, 10);
  });
  return score('ceiling', set, queries, { ranked: reordered, queryMs: 0 }, 0).overall.metrics.ndcg10;
}

/** Runs the protocol on every source; `build` is the core's rankers unless a test gives its own. */
export async function runLearningSuite(options: {
  sources: readonly DatasetSource[];
  plan: LearningPlan;
  build?: LearningRankerBuilder;
  progress?: Progress;
}): Promise<LearningSuiteResult> {
  const { plan } = options;
  const build = options.build ?? buildLearningRanker;
  const sets: LearningSetInfo[] = [];
  const comparisons: LearningComparison[] = [];
  const curves: LearningCurve[] = [];
  const cost: LearningCost[] = [];
  const heldApart: LearningComparison[] = [];
  const loaded = await Promise.all(options.sources.map((source) => loadDataset(source)));
  const heldRequests = plan.heldApart
    ? await readHeldApart(plan.heldApart, new Map(loaded.map((set) => [set.name, set.tools])))
    : [];
  options.progress?.phase('learning', loaded.length * plan.kinds.length);
  for (const set of loaded) {
    const halves = splitHalves(set.queries);
    const traffic = plan.maxQueries ? subsample(halves.traffic, plan.maxQueries) : halves.traffic;
    const test = plan.maxQueries ? subsample(halves.test, plan.maxQueries) : halves.test;
    const uses = usesOf(traffic);
    sets.push({
      name: set.name,
      tools: set.tools.length,
      traffic: traffic.length,
      test: test.length,
      uses: uses.length,
    });
    const held = heldRequests.filter((request) => request.set === set.name);
    for (const kind of plan.kinds) {
      options.progress?.advance(0, `${set.name}, ${kind}`);
      const plain = await timedBuild(() => build({ tools: set.tools, kind, uses: null }));
      const plainRun = await rankAll(plain.ranker, test);
      const plainReport = score(LABELS[kind].plain, set.name, test, plainRun, plain.buildMs);
      const ceiling = ceilingOf(set.name, test, plainRun.ranked, uses);
      const points: { uses: number; ndcg10: number }[] = [];
      let learned: { ranker: BenchRanker; report: EvalReport; recorded: number } | undefined;
      for (const count of curvePoints(plan.curve, uses.length)) {
        const built = await timedBuild(() => build({ tools: set.tools, kind, uses: uses.slice(0, count) }));
        const report = score(
          LABELS[kind].learned,
          set.name,
          test,
          await rankAll(built.ranker, test),
          built.buildMs,
        );
        points.push({ uses: count, ndcg10: report.overall.metrics.ndcg10 });
        learned = { ranker: built.ranker, report, recorded: built.ranker.recorded ?? count };
      }
      comparisons.push({
        set: set.name,
        kind,
        uses: uses.length,
        recorded: learned!.recorded,
        plain: plainReport,
        learned: learned!.report,
        ceiling,
      });
      curves.push({ set: set.name, kind, points });
      cost.push({
        set: set.name,
        kind,
        ...(await measureCost(plain.ranker, learned!.ranker, test, plan.timedSearches)),
      });
      if (held.length > 0) {
        const everyUse = usesOf(set.queries);
        const all = await timedBuild(() => build({ tools: set.tools, kind, uses: everyUse }));
        heldApart.push({
          set: set.name,
          kind,
          uses: everyUse.length,
          recorded: all.ranker.recorded ?? everyUse.length,
          plain: score(LABELS[kind].plain, set.name, held, await rankAll(plain.ranker, held), plain.buildMs),
          learned: score(LABELS[kind].learned, set.name, held, await rankAll(all.ranker, held), all.buildMs),
        });
      }
      options.progress?.advance(1);
    }
  }
  return { plan, sets, comparisons, curves, cost, heldApart };
}
