/**
 * Picks the `k` best of `ids` by `scores` (higher first), ties broken by `names` (in code-unit
 * order), with a bounded heap: O(n log k), no full sort. Once the heap is full, an id whose
 * score is below the heap's worst is passed over with one comparison of numbers.
 */
export function selectTop(
  ids: ArrayLike<number>,
  count: number,
  scores: ArrayLike<number>,
  names: readonly string[],
  k: number,
): number[] {
  if (k <= 0 || count <= 0) return [];
  const worse = (left: number, right: number): boolean =>
    scores[left]! < scores[right]! || (scores[left] === scores[right] && names[left]! > names[right]!);
  // A min-heap on "worse": heap[0] is the worst of the best k so far.
  const heap: number[] = [];
  let position = 0;
  for (; position < count && heap.length < k; position++) {
    // The new id rises from the end to where it belongs.
    const id = ids[position]!;
    let index = heap.length;
    heap.push(id);
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!worse(id, heap[parent]!)) break;
      heap[index] = heap[parent]!;
      index = parent;
    }
    heap[index] = id;
  }
  let floor = heap.length > 0 ? scores[heap[0]!]! : 0;
  for (; position < count; position++) {
    const id = ids[position]!;
    // Below the worst kept: not among the best (equal scores go on to the names).
    if (scores[id]! < floor || !worse(heap[0]!, id)) continue;
    // The new id takes the root's place and sinks to where it belongs.
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && worse(heap[right]!, heap[left]!) ? right : left;
      if (!worse(heap[child]!, id)) break;
      heap[index] = heap[child]!;
      index = child;
    }
    heap[index] = id;
    floor = scores[heap[0]!]!;
  }
  return heap.sort((left, right) => (worse(left, right) ? 1 : worse(right, left) ? -1 : 0));
}
