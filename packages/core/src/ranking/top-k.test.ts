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

  it('returns nothing for k ≤ 0 or no ids', () => {
    expect(selectTop([1], 1, [0, 1], ['a', 'b'], 0)).toEqual([]);
    expect(selectTop([], 0, [], [], 5)).toEqual([]);
  });
});
