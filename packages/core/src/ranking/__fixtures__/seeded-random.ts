/**
 * A seeded pseudo-random source for tests (a 32-bit linear congruential generator): the same
 * seed gives the same numbers, uniform in [0, 1), on every run and machine.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}
