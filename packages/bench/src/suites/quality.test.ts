import { describe, expect, it } from 'vitest';
import { toReport } from './quality';

describe('toReport', () => {
  it('scores each query and averages per set and per split (hand-computed)', () => {
    const relevant = new Map([
      ['alpha-1', ['y']],
      ['alpha-2', ['y', 'z']],
      ['beta-1', ['q']],
    ]);
    const report = toReport(
      'some system',
      'tiny',
      { ids: ['alpha-1', 'alpha-2', 'beta-1'], ranked: [['x', 'y'], ['y'], []], buildMs: 1, queryMs: 2 },
      relevant,
    );
    // alpha-1: y at rank 2 → R@1 0, R@5 1, MRR .5, NDCG 1/log2(3), Comp@5 1.
    // alpha-2: y at rank 1 of y, z → R@1 .5, R@5 .5, MRR 1, NDCG 1/(1 + 1/log2(3)), Comp@5 0.
    // beta-1: nothing → 0.
    const ndcg1 = 1 / Math.log2(3);
    const ndcg2 = 1 / (1 + 1 / Math.log2(3));
    expect(report.overall.queries).toBe(3);
    expect(report.overall.metrics.r1).toBeCloseTo(0.5 / 3, 10);
    expect(report.overall.metrics.r5).toBeCloseTo(0.5, 10);
    expect(report.overall.metrics.mrr10).toBeCloseTo(0.5, 10);
    expect(report.overall.metrics.ndcg10).toBeCloseTo((ndcg1 + ndcg2) / 3, 10);
    expect(report.overall.metrics.comp5).toBeCloseTo(1 / 3, 10);
    expect(report.splits.map((split) => [split.label, split.queries])).toEqual([
      ['alpha', 2],
      ['beta', 1],
    ]);
    const alpha = report.splits[0]!.metrics;
    expect(alpha.r5).toBeCloseTo(0.75, 10);
    expect(alpha.mrr10).toBeCloseTo(0.75, 10);
    expect(alpha.ndcg10).toBeCloseTo((ndcg1 + ndcg2) / 2, 10);
    expect(alpha.comp5).toBe(0.5);
    expect(report.splits[1]!.metrics).toEqual({ r1: 0, r5: 0, r10: 0, mrr10: 0, ndcg10: 0, comp5: 0 });
    expect(report.perQuery[0]).toMatchObject({ id: 'alpha-1', split: 'alpha', ranked: ['x', 'y'] });
  });
});
