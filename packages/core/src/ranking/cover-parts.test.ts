import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from './__fixtures__/seeded-random';
import { type CoverageInput, type CoveragePick, coverParts } from './cover-parts';

/** The plain greedy: every remaining candidate's gain computed afresh in every round. */
function eagerCover(input: CoverageInput, limit: number): CoveragePick[] {
  const { wholes, parts, shares, diversity, before } = input;
  const width = shares.length;
  const uncovered = shares.map(() => 1);
  const left = Array.from(wholes, (_, candidate) => candidate);
  const picks: CoveragePick[] = [];
  while (picks.length < limit && left.length > 0) {
    let best = -1;
    let bestGain = Number.NEGATIVE_INFINITY;
    left.forEach((candidate, position) => {
      let coverage = 0;
      for (let part = 0; part < width; part++) {
        coverage += shares[part]! * parts[candidate * width + part]! * uncovered[part]!;
      }
      const gain = (1 - diversity) * wholes[candidate]! + diversity * coverage;
      if (gain > bestGain || (gain === bestGain && before(candidate, left[best]!))) {
        best = position;
        bestGain = gain;
      }
    });
    const [chosen] = left.splice(best, 1);
    for (let part = 0; part < width; part++) uncovered[part]! *= 1 - parts[chosen! * width + part]!;
    picks.push({ candidate: chosen!, gain: bestGain });
  }
  return picks;
}

/** Relevances on a coarse grid (many ties) or at full precision, for `count` candidates. */
const inputs = fc
  .record({
    width: fc.integer({ min: 1, max: 7 }),
    count: fc.integer({ min: 0, max: 60 }),
    coarse: fc.boolean(),
    diversity: fc.constantFrom(0, 0.3, 0.5, 1),
    seed: fc.integer(),
  })
  .map(({ width, count, coarse, diversity, seed }) => {
    const uniform = seededRandom(seed);
    const next = (): number => {
      const value = uniform();
      return coarse ? Math.floor(value * 4) / 3 : value;
    };
    const wholes = Float64Array.from({ length: count }, next);
    const parts = Float64Array.from({ length: count * width }, next);
    const raw = Array.from({ length: width }, next);
    const total = raw.reduce((sum, share) => sum + share, 0);
    const shares = raw.map((share) => (total > 0 ? share / total : 0));
    // Ties go to the higher candidate number, so the order of the input does not decide them.
    const before = (left: number, right: number): boolean => left > right;
    return { wholes, parts, shares, diversity, before } satisfies CoverageInput;
  });

describe('coverParts', () => {
  it('picks what the plain greedy picks, with the same gains, ties included', () => {
    fc.assert(
      fc.property(inputs, fc.integer({ min: 0, max: 70 }), (input, limit) => {
        expect(coverParts(input, limit)).toEqual(eagerCover(input, limit));
      }),
      { numRuns: 2_000 },
    );
  });

  it('gives gains that never increase down the list', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const gains = coverParts(input, input.wholes.length).map((pick) => pick.gain);
        for (let index = 1; index < gains.length; index++) {
          expect(gains[index]).toBeLessThanOrEqual(gains[index - 1]!);
        }
      }),
    );
  });

  it('lets a later pick through when covering a part outweighs a better match to the whole', () => {
    // Candidate 0 and 1 both answer part 0; candidate 2 alone answers part 1.
    const picks = coverParts(
      {
        wholes: Float64Array.of(0.9, 0.85, 0.5),
        parts: Float64Array.of(1, 0, 1, 0, 0, 1),
        shares: [0.5, 0.5],
        diversity: 0.5,
        before: (left, right) => left < right,
      },
      3,
    );
    expect(picks.map((pick) => pick.candidate)).toEqual([0, 2, 1]);
    expect(picks[1]!.gain).toBeCloseTo(0.5 * 0.5 + 0.5 * 0.5);
  });

  it('stops at candidates whose gain is not a number', () => {
    const picks = coverParts(
      {
        wholes: Float64Array.of(Number.NaN, 0.2),
        parts: Float64Array.of(0, 0),
        shares: [1],
        diversity: 0.5,
        before: (left, right) => left < right,
      },
      2,
    );
    expect(picks).toEqual([{ candidate: 1, gain: 0.1 }]);
  });
});
