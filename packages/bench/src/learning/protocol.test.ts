import { describe, expect, it } from 'vitest';
import { curvePoints, halfOf, splitHalves, usesOf } from './protocol';

describe('the learning protocol', () => {
  it('splits by the id alone, about half and half, the same on every call', () => {
    const queries = Array.from({ length: 2_000 }, (_, index) => ({ id: `split_${index}` }));
    const { traffic, test } = splitHalves(queries);
    expect(traffic.length + test.length).toBe(2_000);
    expect(Math.abs(traffic.length - test.length)).toBeLessThan(150);
    // Ids that differ only in their last digit do not fall together (plain FNV-1a's top bit does that).
    const tail = splitHalves(Array.from({ length: 10 }, (_, index) => ({ id: `slang-${index}` })));
    expect(tail.traffic.length).toBeGreaterThan(1);
    expect(tail.test.length).toBeGreaterThan(1);
    expect(traffic.every((query) => halfOf(query.id) === 'traffic')).toBe(true);
    expect(new Set([...traffic, ...test]).size).toBe(2_000);
    expect(splitHalves(queries)).toEqual({ traffic, test });
  });

  it('records one use per query and relevant tool, each query its own thread, in a fixed order', () => {
    const queries = [
      { id: 'a-1', query: 'first', relevant: ['x', 'y'] },
      { id: 'a-2', query: 'second', relevant: ['z'] },
      { id: 'a-3', query: 'third', relevant: ['x'] },
    ];
    const uses = usesOf(queries);
    expect(uses).toHaveLength(4);
    expect(uses).toEqual(expect.arrayContaining([{ query: 'first', toolName: 'y', threadId: 'a-1' }]));
    expect(usesOf([...queries].reverse())).toEqual(uses);
    // A query's uses stay together.
    const firstAt = uses.findIndex((use) => use.threadId === 'a-1');
    expect(uses[firstAt + 1]?.threadId).toBe('a-1');
  });

  it('puts none and all on the curve, and only the planned counts below all', () => {
    expect(curvePoints([10, 100, 1_000], 900)).toEqual([0, 10, 100, 900]);
    expect(curvePoints([10, 100, 1_000], 1_000)).toEqual([0, 10, 100, 1_000]);
    expect(curvePoints([10, 100, 1_000], 2_760)).toEqual([0, 10, 100, 1_000, 2_760]);
    expect(curvePoints([10], 0)).toEqual([0]);
  });
});
