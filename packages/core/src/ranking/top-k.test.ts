import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectTop } from './top-k';

describe('selectTop', () => {
  it('agrees with a full sort by score, then name', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 70 }),
        (scores, k) => {
          const names = scores.map(
            (_, index) => `tool-${String(index % 7)}-${String(index).padStart(3, '0')}`,
          );
          const ids = scores.map((_, index) => index);
          const expected = [...ids]
            .sort((left, right) => scores[right]! - scores[left]! || (names[left]! < names[right]! ? -1 : 1))
            .slice(0, k);
          expect(selectTop(ids, ids.length, scores, names, k)).toEqual(expected);
        },
      ),
    );
  });

  it('agrees with a full sort on larger lists of fractional scores, selecting from part of the ids', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 0.5, 1)), {
          maxLength: 3000,
        }),
        fc.integer({ min: 1, max: 60 }),
        fc.nat(),
        (scores, k, skip) => {
          const names = scores.map((_, index) => `t${String((index * 7919) % 10007)}`);
          const count = scores.length === 0 ? 0 : scores.length - (skip % scores.length);
          const ids = Int32Array.from(scores.map((_, index) => scores.length - 1 - index));
          const expected = Array.from(ids.subarray(0, count))
            .sort((left, right) => scores[right]! - scores[left]! || (names[left]! < names[right]! ? -1 : 1))
            .slice(0, k);
          expect(selectTop(ids, count, scores, names, k)).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('returns nothing for k ≤ 0 or no ids', () => {
    expect(selectTop([1], 1, [0, 1], ['a', 'b'], 0)).toEqual([]);
    expect(selectTop([], 0, [], [], 5)).toEqual([]);
  });
});
