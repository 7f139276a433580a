/** The q-quantile (0..1) of ascending-sorted samples (nearest rank); NaN when there are none. */
export const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
