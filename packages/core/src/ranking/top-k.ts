/**
 * Picks the `k` best of `ids` by `scores` (higher first), ties broken by `names` (in code-unit
 * order), with a bounded heap: O(n log k), no full sort.
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
  const siftDown = (start: number): void => {
    let index = start;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < heap.length && worse(heap[left]!, heap[smallest]!)) smallest = left;
      if (right < heap.length && worse(heap[right]!, heap[smallest]!)) smallest = right;
      if (smallest === index) return;
      [heap[index], heap[smallest]] = [heap[smallest]!, heap[index]!];
      index = smallest;
    }
  };
  for (let position = 0; position < count; position++) {
    const id = ids[position]!;
    if (heap.length < k) {
      heap.push(id);
      let index = heap.length - 1;
      while (index > 0) {
        const parent = (index - 1) >> 1;
        if (!worse(heap[index]!, heap[parent]!)) break;
        [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
        index = parent;
      }
    } else if (worse(heap[0]!, id)) {
      heap[0] = id;
      siftDown(0);
    }
  }
  return heap.sort((left, right) => (worse(left, right) ? 1 : worse(right, left) ? -1 : 0));
}
