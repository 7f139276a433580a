import { describe, expect, it } from 'vitest';
import { meanMetrics, scoreQuery } from './metrics';

describe('scoreQuery', () => {
  it('computes the metrics of the eval README on a hand-checked example', () => {
    // Relevant a, b, c; ranked: x a y b z (c missing).
    const metrics = scoreQuery(['x', 'a', 'y', 'b', 'z', 'p', 'q', 'r', 's', 't', 'c'], ['a', 'b', 'c']);
    expect(metrics.r1).toBe(0);
    expect(metrics.r5).toBeCloseTo(2 / 3, 10);
    expect(metrics.r10).toBeCloseTo(2 / 3, 10);
    expect(metrics.mrr10).toBe(0.5);
    const dcg = 1 / Math.log2(3) + 1 / Math.log2(5);
    const ideal = 1 + 1 / Math.log2(3) + 1 / Math.log2(4);
    expect(metrics.ndcg10).toBeCloseTo(dcg / ideal, 10);
    expect(metrics.comp5).toBe(0);
  });

  it('gives full marks to a perfect ranking, and ideal DCG over at most 10 relevant tools', () => {
    expect(scoreQuery(['a', 'b'], ['b', 'a'])).toEqual({
      r1: 0.5,
      r5: 1,
      r10: 1,
      mrr10: 1,
      ndcg10: 1,
      comp5: 1,
    });
    const many = Array.from({ length: 12 }, (_, index) => `t${index}`);
    expect(scoreQuery(many, many).ndcg10).toBeCloseTo(1, 10);
    expect(scoreQuery(many, many).comp5).toBe(0);
  });

  it('counts a name once even if a ranker repeats it, and handles empty lists', () => {
    expect(scoreQuery(['a', 'a', 'a'], ['a', 'b']).r5).toBe(0.5);
    expect(scoreQuery([], ['a']).ndcg10).toBe(0);
    expect(scoreQuery(['a'], []).ndcg10).toBe(0);
  });
});

describe('meanMetrics', () => {
  it('averages each metric', () => {
    const mean = meanMetrics([scoreQuery(['a'], ['a']), scoreQuery(['b'], ['a'])]);
    expect(mean.r1).toBe(0.5);
    expect(mean.comp5).toBe(0.5);
    expect(meanMetrics([]).ndcg10).toBe(0);
  });
});
