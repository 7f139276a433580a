/**
 * The greedy picks of xQuAD (Santos et al., 2010) over scored candidates, computed lazily.
 */

/** Relevances of the candidates of a multi-part request, each 0..1. */
export interface CoverageInput {
  /** Relevance of each candidate to the whole request. */
  readonly wholes: Float64Array;
  /** Relevance of candidate `c` to part `p` at `c * shares.length + p`. */
  readonly parts: Float64Array;
  /** Each part's share of the request (≥ 0). */
  readonly shares: readonly number[];
  /** Share of a pick's gain that rewards covering parts not yet covered (xQuAD's λ, 0..1). */
  readonly diversity: number;
  /** Whether candidate `left` goes first when both gain the same. */
  readonly before: (left: number, right: number) => boolean;
}

/** A pick: the candidate, and its gain when picked. */
export interface CoveragePick {
  readonly candidate: number;
  readonly gain: number;
}

/**
 * Up to `limit` candidates, each maximising (1 − λ)·whole + λ·Σ_part share·relevance·Π_picked
 * (1 − that pick's relevance to the part), ties to `before`. The gains never increase.
 *
 * Lazy (the "lazy greedy" of submodular maximisation): a candidate's gain never grows as parts
 * get covered (each term only shrinks, and rounding is monotone, so this holds in floating
 * point too), so its last gain bounds its gain now. Each round takes candidates out of a heap
 * by that bound, best first, until none left can reach the best gain found; after the first
 * round only a few gains are computed again. The picks and gains are those of the plain greedy
 * that computes every gain in every round.
 */
export function coverParts(input: CoverageInput, limit: number): CoveragePick[] {
  const { wholes, parts, shares, diversity, before } = input;
  const width = shares.length;
  const uncovered = new Float64Array(width).fill(1);
  /** A candidate's gain now; one that is not a number counts as −∞ (never picked). */
  const gainOf = (candidate: number): number => {
    let coverage = 0;
    for (let part = 0; part < width; part++) {
      coverage += shares[part]! * parts[candidate * width + part]! * uncovered[part]!;
    }
    const gain = (1 - diversity) * wholes[candidate]! + diversity * coverage;
    return Number.isNaN(gain) ? Number.NEGATIVE_INFINITY : gain;
  };
  // A max-heap of the candidates left, by their last gain (a bound on their gain now).
  let size = wholes.length;
  const bounds = new Float64Array(size);
  const heap = new Int32Array(size);
  for (let candidate = 0; candidate < size; candidate++) {
    bounds[candidate] = gainOf(candidate);
    heap[candidate] = candidate;
  }
  const siftDown = (start: number): void => {
    const item = heap[start]!;
    let index = start;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= size) break;
      if (child + 1 < size && bounds[heap[child + 1]!]! > bounds[heap[child]!]!) child++;
      if (bounds[heap[child]!]! <= bounds[item]!) break;
      heap[index] = heap[child]!;
      index = child;
    }
    heap[index] = item;
  };
  const push = (item: number): void => {
    let index = size++;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (bounds[heap[parent]!]! >= bounds[item]!) break;
      heap[index] = heap[parent]!;
      index = parent;
    }
    heap[index] = item;
  };
  const pop = (): number => {
    const top = heap[0]!;
    heap[0] = heap[--size]!;
    if (size > 0) siftDown(0);
    return top;
  };
  for (let index = (size >> 1) - 1; index >= 0; index--) siftDown(index);

  const picks: CoveragePick[] = [];
  const looked: number[] = [];
  while (picks.length < limit && size > 0) {
    // Take out every candidate that may reach the best gain found so far, and compute its gain.
    let best = -1;
    let bestGain = Number.NEGATIVE_INFINITY;
    looked.length = 0;
    while (size > 0 && bounds[heap[0]!]! >= bestGain) {
      const candidate = pop();
      const gain = gainOf(candidate);
      bounds[candidate] = gain;
      looked.push(candidate);
      if (gain > bestGain || (best >= 0 && gain === bestGain && before(candidate, best))) {
        best = candidate;
        bestGain = gain;
      }
    }
    for (const candidate of looked) if (candidate !== best) push(candidate);
    if (bestGain === Number.NEGATIVE_INFINITY) break; // only gains that are not numbers left
    for (let part = 0; part < width; part++) uncovered[part]! *= 1 - parts[best * width + part]!;
    picks.push({ candidate: best, gain: bestGain });
  }
  return picks;
}
