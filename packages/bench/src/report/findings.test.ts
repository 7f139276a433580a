import { describe, expect, it } from 'vitest';
import type { QueryMetrics } from '../quality/metrics';
import type { BenchResults } from '../run-bench';
import type { SpeedRow } from '../suites/speed-job';
import { headlines, peerWins } from './findings';

const metrics = (ndcg10: number, comp5 = 0.5): QueryMetrics => ({
  r1: 0.3,
  r5: 0.6,
  r10: 0.7,
  mrr10: 0.5,
  ndcg10,
  comp5,
});

const report = (ranker: string, ndcg10: number, comp5?: number, split = ndcg10) => ({
  set: 'bfcl',
  ranker,
  overall: { label: 'bfcl', queries: 100, metrics: metrics(ndcg10, comp5) },
  splits: [{ label: 'live_multiple', queries: 60, metrics: metrics(split, comp5) }],
  perQuery: [],
  buildMs: 1,
  queryMs: 1,
});

const speed = (
  systemId: SpeedRow['systemId'],
  buildMs: number,
  medianQueryMs: number,
  requests: SpeedRow['requests'] = 'generated',
): SpeedRow => ({
  systemId,
  tools: 10_000,
  requests,
  buildMs,
  builds: 3,
  medianQueryMs,
  p99QueryMs: medianQueryMs * 3,
  queriesTimed: 1000,
  memoryBytesPerTool: 500,
});

function results(): BenchResults {
  return {
    mode: 'full',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    suiteMs: {},
    machine: { cpu: 'cpu', cores: 2, memoryGb: 8, node: 'v22', platform: 'linux', loadAverage: 0 },
    load: { start: 0, end: 0, peak: 0 },
    systems: [
      {
        id: 'ours',
        label: 'tool-search (keyword)',
        packageName: '@tool-search/core',
        version: '0',
        drivenAs: '',
        scansCatalog: false,
      },
      {
        id: 'mastra',
        label: 'Mastra ToolSearchProcessor',
        packageName: '@mastra/core',
        version: '1',
        drivenAs: '',
        scansCatalog: true,
      },
      {
        id: 'bm25',
        label: 'plain BM25 (baseline)',
        packageName: '-',
        version: '-',
        drivenAs: '',
        scansCatalog: false,
      },
    ],
    config: {
      maxQueries: undefined,
      scanMaxQueries: undefined,
      speed: null,
      steps: null,
      worstCase: null,
      native: null,
      chooseMaxQueries: undefined,
    },
    quality: {
      sets: [{ name: 'bfcl', tools: 1437, queries: 100, queriesRun: 100, queriesCompared: 100 }],
      fullReports: [],
      reports: [
        report('tool-search (keyword)', 0.8, 0.7, 0.6),
        report('Mastra ToolSearchProcessor', 0.7, 0.75, 0.65),
        report('plain BM25 (baseline)', 0.6, 0.5, 0.5),
      ],
    },
    choose: [],
    tokens: [
      {
        tools: 1000,
        allTools: 100_000,
        oursFirstStep: 280,
        oursAfterLoad: 560,
        loadedCount: 3,
        oursInstructions: 50,
        mastraFirstStep: 265,
        mastraInstructions: 45,
        aiSdkFirstStep: 96,
      },
    ],
    speed: [speed('ours', 600, 0.2), speed('mastra', 2000, 160), speed('bm25', 450, 0.1)],
    realRequestSpeed: [
      speed('ours', 650, 0.5, 'real'),
      speed('ours-hybrid', 900, 1.5, 'real'),
      speed('mastra', 2100, 180, 'real'),
      speed('bm25', 700, 0.4, 'real'),
    ],
    steps: [],
    worstCase: [],
    native: [],
    learning: null,
  };
}

describe('peerWins', () => {
  it('lists every figure where a peer beats ours, and none where ours is ahead', () => {
    const wins = peerWins(results()).join('\n');
    expect(wins).toContain('Mastra ToolSearchProcessor Comp@5 .750 vs .700');
    expect(wins).toContain(
      'Mastra ToolSearchProcessor NDCG@10 on the live_multiple split (60 queries) .650 vs .600',
    );
    expect(wins).not.toContain('Mastra ToolSearchProcessor NDCG@10 .700');
    expect(wins).toContain(
      'plain BM25 (baseline) builds in 450 ms vs 600 ms, answers a search in 0.100 ms vs 0.200 ms',
    );
    expect(wins).not.toMatch(/Mastra ToolSearchProcessor builds/);
    // Real requests are compared on their own: there the baseline answers faster, but builds slower.
    expect(wins).toContain(
      'At 10,000 tools on real requests, plain BM25 (baseline) answers a search in 0.400 ms vs 0.500 ms (median), p99',
    );
    expect(wins).not.toMatch(/on real requests, Mastra/);
    expect(wins).toContain("AI SDK's toolSearch() sends one meta-tool of 96 tokens");
    expect(wins).toContain(
      "Mastra's meta-tools take 265 tokens vs 280 for ours, and its instruction paragraph 45 vs 50",
    );
  });
});

describe('peerWins on every query', () => {
  it('lists a peer ahead on any metric of a split, in the comparison or on every query of a set', () => {
    const base = results();
    const split = (label: string, queries: number, r1: number) => ({
      label,
      queries,
      metrics: { ...metrics(0.6), r1 },
    });
    const full = (ranker: string, r1: number) => ({
      ...report(ranker, 0.7),
      overall: { label: 'bfcl', queries: 2501, metrics: metrics(0.7) },
      splits: [split('simple_javascript', 50, r1), split('live_parallel', 16, r1)],
    });
    const wins = peerWins({
      ...base,
      quality: {
        ...base.quality,
        sets: [{ ...base.quality.sets[0]!, queries: 2501, queriesRun: 2501 }],
        // The baseline ahead on R@1 of a split, on every query only (as toolbench's G3_instruction
        // and bfcl's simple_javascript were); the split of 16 queries is too small to list.
        fullReports: [full('tool-search (keyword)', 0.92), full('plain BM25 (baseline)', 0.94)],
      },
    }).join('\n');
    expect(wins).toContain(
      'plain BM25 (baseline) R@1 on the simple_javascript split (all 50 queries) .940 vs .920',
    );
    expect(wins).not.toContain('live_parallel');
    expect(wins).toContain(
      'Mastra ToolSearchProcessor Comp@5 on the live_multiple split (60 queries) .750 vs .700',
    );
  });
});

describe('headlines', () => {
  it('puts ours next to every peer on each set, and the figures at 10k tools and 1,000 tools', () => {
    const lines = headlines(results());
    expect(lines[0]).toBe(
      '**bfcl** (1,437 tools, 100 queries), NDCG@10 / Comp@5: ours .800 / .700; Mastra ToolSearchProcessor .700 / .750, plain BM25 (baseline) .600 / .500.',
    );
    expect(lines[1]).toContain(
      'ours 0.200 ms; Mastra ToolSearchProcessor 160 ms (800×), plain BM25 (baseline) 0.100 ms (0.5×)',
    );
    expect(lines[2]).toBe(
      "**On real requests at 10,000 tools** (median; the eval sets' tools and requests): ours 0.500 ms (hybrid 1.50 ms); Mastra ToolSearchProcessor 180 ms (360×), plain BM25 (baseline) 0.400 ms (0.8×).",
    );
    expect(lines[3]).toContain('100,000 with every tool sent');
  });
});
