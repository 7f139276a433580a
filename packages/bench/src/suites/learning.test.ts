import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKeywordRanker, type ToolDescriptor } from '@tool-search/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownSource } from '../datasets';
import { engineSearch, type LearningRankerBuilder } from '../learning/learning-ranker';
import { learningCharts, learningSection, spliceLearningSection } from '../report/learning-section';
import { type LearningSuiteResult, readHeldApart, runLearningSuite } from './learning';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '__fixtures__', 'learning');
const source = {
  ...ownSource(path.join(fixture, 'tools.jsonl'), path.join(fixture, 'queries.jsonl')),
  name: 'learning',
};

/**
 * A learning ranker for testing the harness apart from the core's: each recorded query's words
 * are appended to its tool's description (document expansion), then the keyword ranker ranks.
 * The fixture's requests use words (rain, note, bill, plane) that no description has.
 */
const expanding: LearningRankerBuilder = async ({ tools, uses }) => {
  const extra = new Map<string, string[]>();
  for (const use of uses ?? []) extra.set(use.toolName, [...(extra.get(use.toolName) ?? []), use.query]);
  const expanded = (list: readonly ToolDescriptor[]) =>
    createKeywordRanker(
      list.map((tool) => ({
        ...tool,
        description: [tool.description ?? '', ...(extra.get(tool.name) ?? [])].join(' '),
      })),
    );
  const ranker = expanded(tools);
  return {
    search: async (query, topK) => ranker.search(query, { topK }).map((result) => result.name),
    searchTools: engineSearch(tools, { ranker: expanded }),
  };
};

describe('the learning suite on a small catalog', () => {
  let result: LearningSuiteResult;
  const built: { kind: string; uses: number | null }[] = [];
  beforeAll(async () => {
    result = await runLearningSuite({
      sources: [source],
      plan: {
        curve: [2, 4, 100],
        kinds: ['keyword'],
        maxQueries: undefined,
        timedSearches: 20,
        heldApart: path.join(fixture, 'held-apart.jsonl'),
      },
      build: (options) => {
        built.push({ kind: options.kind, uses: options.uses?.length ?? null });
        return expanding(options);
      },
    });
  });

  it('records the traffic half only and scores the test half', () => {
    expect(result.sets).toEqual([{ name: 'learning', tools: 6, traffic: 10, test: 10, uses: 10 }]);
    const [comparison] = result.comparisons;
    expect(comparison!.plain.overall.queries).toBe(10);
    expect(comparison!.learned.perQuery.map((row) => row.id)).toEqual(
      comparison!.plain.perQuery.map((row) => row.id),
    );
    // No test query was recorded: a test id never appears among the uses.
    const testIds = new Set(comparison!.plain.perQuery.map((row) => row.id));
    expect([...testIds].some((id) => id.startsWith('slang-'))).toBe(true);
    expect(comparison!.uses).toBe(10);
  });

  it('shows the gain of learning on requests that share no word with their tool', () => {
    const [comparison] = result.comparisons;
    expect(comparison!.learned.overall.metrics.ndcg10).toBeGreaterThan(
      comparison!.plain.overall.metrics.ndcg10 + 0.3,
    );
  });

  it('bounds the gain by the ceiling: the relevant tools with uses first', () => {
    const [comparison] = result.comparisons;
    const { plain, learned, ceiling } = comparison!;
    expect(ceiling).toBeGreaterThanOrEqual(learned.overall.metrics.ndcg10);
    expect(ceiling).toBeGreaterThan(plain.overall.metrics.ndcg10);
    expect(ceiling).toBeLessThanOrEqual(1);
    expect(result.heldApart[0]).not.toHaveProperty('ceiling');
  });

  it('draws the curve at none, the planned counts below all, and all', () => {
    expect(result.curves[0]!.points.map((point) => point.uses)).toEqual([0, 2, 4, 10]);
    const none = result.curves[0]!.points[0]!.ndcg10;
    expect(none).toBeCloseTo(result.comparisons[0]!.plain.overall.metrics.ndcg10, 10);
    expect(result.curves[0]!.points.at(-1)!.ndcg10).toBe(
      result.comparisons[0]!.learned.overall.metrics.ndcg10,
    );
    expect(built.filter((entry) => entry.uses === null)).toHaveLength(1); // one plain ranker per set and kind
  });

  it('times both rankers on the same searches', () => {
    expect(result.cost).toHaveLength(1);
    expect(result.cost[0]!.searches).toBe(20);
    expect(result.cost[0]!.plainMedianMs).toBeGreaterThan(0);
    expect(result.cost[0]!.learnedMedianMs).toBeGreaterThan(0);
    expect(result.cost[0]!.enginePlainMedianMs).toBeGreaterThan(0);
    expect(result.cost[0]!.engineLearnedMedianMs).toBeGreaterThan(0);
  });

  it('scores the held-apart requests of the set with every public query recorded', () => {
    expect(result.heldApart).toHaveLength(1);
    const [held] = result.heldApart;
    expect(held!.uses).toBe(20);
    expect(held!.plain.overall.queries).toBe(2);
    expect(held!.learned.overall.metrics.ndcg10).toBe(1);
    expect(held!.plain.overall.metrics.ndcg10).toBeLessThan(1);
  });
});

describe("the learning suite's report section", () => {
  let result: LearningSuiteResult;
  beforeAll(async () => {
    result = await runLearningSuite({
      sources: [source],
      plan: { curve: [2, 4], kinds: ['keyword'], maxQueries: undefined, timedSearches: 4, heldApart: null },
      build: expanding,
    });
  });

  it('states the goals, the gains, the curve and the cost, with its chart', () => {
    const charts = learningCharts(result);
    expect(charts.map((chart) => chart.file)).toEqual(['learning-curve.svg']);
    expect(charts[0]!.svg).toMatch(/^<svg [^>]*>/);
    expect(charts[0]!.svg).toContain('learning, keyword');
    const text = learningSection(
      result,
      new Map(charts.map((chart) => [chart.file, chart])),
      'benchmarks',
    ).join('\n');
    expect(text).toContain('![NDCG@10 of the test half');
    expect(text).toContain('(benchmarks/learning-curve.svg)');
    expect(text).toMatch(
      /\| learning \| keyword \| 6 \| 10 \| 10 \(10\) \| 10 \| \.\d{3} \| \.\d{3} \| \+\.\d{3} \|/,
    );
    expect(text).toContain('NDCG@10 on every test half');
  });

  it('replaces its own section in a report and leaves the rest as it was', () => {
    const section = learningSection(result, new Map(), 'benchmarks').join('\n');
    const report = '# Benchmarks\n\n## Tokens\n\ntext\n\n## Where a peer wins\n\n- none\n';
    const once = spliceLearningSection(report, section);
    expect(once.indexOf('## Learning from use')).toBeLessThan(once.indexOf('## Where a peer wins'));
    expect(once.startsWith('# Benchmarks\n\n## Tokens\n\ntext\n\n')).toBe(true);
    const again = spliceLearningSection(
      once,
      section.replace('Learning from use', 'Learning from use, again'),
    );
    expect(again.match(/## Learning from use/g)).toHaveLength(1);
    expect(again).toContain('Learning from use, again');
    expect(again.endsWith('## Where a peer wins\n\n- none\n')).toBe(true);
  });
});

describe('readHeldApart', () => {
  it('checks every request against its catalog and names the line', async () => {
    const catalogs = new Map([['learning', [{ name: 'getWeather' }]]]);
    await expect(readHeldApart(path.join(fixture, 'held-apart.jsonl'), catalogs)).rejects.toThrow(
      /held-apart\.jsonl:2 names "createInvoice"/,
    );
  });

  it('reads the requests of this package, each naming a tool of its public set', async () => {
    const { HELD_APART_REQUESTS } = await import('./learning');
    const { evalSources, loadDataset } = await import('../datasets');
    const sets = await Promise.all(evalSources().map((entry) => loadDataset(entry)));
    const requests = await readHeldApart(
      HELD_APART_REQUESTS,
      new Map(sets.map((set) => [set.name, set.tools])),
    );
    expect(requests.length).toBeGreaterThanOrEqual(40);
    expect(new Set(requests.map((request) => request.set))).toEqual(
      new Set(['toolbench', 'bfcl', 'seal-tools', 'metatool']),
    );
    // Written apart: none is one of the public queries.
    const publicQueries = new Set(
      sets.flatMap((set) => set.queries.map((query) => query.query.toLowerCase())),
    );
    expect(requests.filter((request) => publicQueries.has(request.query.toLowerCase()))).toEqual([]);
  });
});
