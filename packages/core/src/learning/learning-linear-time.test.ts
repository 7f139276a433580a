import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createKeywordRanker } from '../ranking/keyword-ranker';
import { manySampleTools, repeatedInput, WORST_CASE_PIECES } from '../testing/worst-case-inputs';
import { createLearning } from './learning';

/**
 * Recording a use and searching with evidence take time linear in the input, on the inputs that
 * make loops rescan runs. A hang guard, not a speed figure (those are in `pnpm bench`).
 */
const BOUND_MS = 1_000;

const tools = manySampleTools(2_100);
const learning = createLearning();
const ranker = createKeywordRanker(tools, { learning });
// Evidence with many uses, most of them sharing words, so that postings are long.
for (let index = 0; index < 5_000; index++) {
  const tool = tools[(index * 7) % tools.length]!;
  learning.recordUse({ query: `${tool.description ?? ''} please ${index % 13}`, toolName: tool.name });
}

const input = fc
  .tuple(fc.constantFrom(...WORST_CASE_PIECES), fc.constantFrom(1_000, 10_000, 100_000))
  .map(([piece, size]) => repeatedInput(piece, size));

function elapsed(work: () => unknown): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

describe('learning takes time linear in its input', () => {
  it('recordUse and a search with evidence', () => {
    fc.assert(
      fc.property(input, (text) => {
        expect(elapsed(() => learning.recordUse({ query: text, toolName: tools[0]!.name }))).toBeLessThan(
          BOUND_MS,
        );
        expect(elapsed(() => ranker.search(text, { topK: 10 }))).toBeLessThan(BOUND_MS);
      }),
      { numRuns: 40 },
    );
    expect(learning.stats().useCount).toBeGreaterThan(4_000);
  });
});
