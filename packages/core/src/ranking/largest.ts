/**
 * The selection after a similarity scan: the indices of the largest of many estimates or
 * cosines. A long array is first cut at a threshold read from a sample (one comparison per
 * score: in JavaScript here, or by a caller's own search, such as the scan's WebAssembly
 * kernel, which gives the same survivors in the same order), then the survivors go through a
 * bounded heap.
 */

/** The indices of the scores at or above `threshold`, ascending: the first `found` of `survivors`. */
export type AboveCut = (threshold: number) => {
  readonly survivors: ArrayLike<number>;
  readonly found: number;
};

/** Scores sampled to choose the cut. */
const SAMPLE_SIZE = 512;

/**
 * The cut for the `count` largest of `scores`, or undefined when the array is too short to
 * be worth one: the (keep + 1)-th largest of an even sample, keeping about twice the share
 * wanted, so the true top `count` almost surely pass (found with a small sorted buffer).
 */
function cutThreshold(scores: ArrayLike<number>, count: number): number | undefined {
  const total = scores.length;
  if (total <= 8 * count || count <= 0) return undefined;
  const step = total / SAMPLE_SIZE;
  const keep = Math.min(SAMPLE_SIZE - 1, Math.ceil(((2 * count) / total) * SAMPLE_SIZE) + 4);
  const top = new Float64Array(keep + 1).fill(Number.NEGATIVE_INFINITY);
  for (let index = 0; index < SAMPLE_SIZE; index++) {
    const value = scores[Math.floor(index * step)]!;
    if (value <= top[keep]!) continue;
    let position = keep;
    while (position > 0 && top[position - 1]! < value) {
      top[position] = top[position - 1]!;
      position--;
    }
    top[position] = value;
  }
  return top[keep]!;
}

/**
 * The `count` largest of `scores` among the first `found` of `survivors` (ascending indices
 * of the scores at or above a cut), as indices into `scores`; undefined when fewer than
 * `count` survived (the cut is then dropped).
 */
function largestAmong(
  scores: ArrayLike<number>,
  survivors: ArrayLike<number>,
  found: number,
  count: number,
): Int32Array | undefined {
  if (found < count) return undefined;
  const values = new Float32Array(found);
  for (let index = 0; index < found; index++) values[index] = scores[survivors[index]!]!;
  const picked = heapLargest(values, count);
  for (let index = 0; index < picked.length; index++) picked[index] = survivors[picked[index]!]!;
  return picked;
}

/**
 * Indices of the `count` largest of `scores` (unordered). `above` finds the scores that pass
 * the cut (default: one pass in JavaScript).
 */
export function largest(
  scores: Float32Array | Int32Array,
  count: number,
  above: AboveCut = (threshold) => scoresAbove(scores, threshold),
): Int32Array {
  const threshold = cutThreshold(scores, count);
  if (threshold !== undefined) {
    const { survivors, found } = above(threshold);
    const picked = largestAmong(scores, survivors, found, count);
    if (picked !== undefined) return picked;
  }
  return heapLargest(scores, count);
}

function scoresAbove(scores: ArrayLike<number>, threshold: number): { survivors: number[]; found: number } {
  const survivors: number[] = [];
  for (let index = 0; index < scores.length; index++) if (scores[index]! >= threshold) survivors.push(index);
  return { survivors, found: survivors.length };
}

/** Indices of the `count` largest of `scores` (unordered), with a bounded min-heap. */
function heapLargest(scores: Float32Array | Int32Array, count: number): Int32Array {
  const size = Math.min(count, scores.length);
  const heap = new Int32Array(size);
  const keys = new Float32Array(size);
  if (size === 0) return heap;
  const siftDown = (): void => {
    let index = 0;
    const item = heap[0]!;
    const key = keys[0]!;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && keys[right]! < keys[left]! ? right : left;
      if (keys[child]! >= key) break;
      heap[index] = heap[child]!;
      keys[index] = keys[child]!;
      index = child;
    }
    heap[index] = item;
    keys[index] = key;
  };
  let filled = 0;
  for (let item = 0; item < scores.length; item++) {
    const score = scores[item]!;
    if (filled < size) {
      let index = filled++;
      while (index > 0) {
        const parent = (index - 1) >> 1;
        if (keys[parent]! <= score) break;
        heap[index] = heap[parent]!;
        keys[index] = keys[parent]!;
        index = parent;
      }
      heap[index] = item;
      keys[index] = score;
    } else if (score > keys[0]!) {
      heap[0] = item;
      keys[0] = score;
      siftDown();
    }
  }
  return heap;
}
