import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolSearchEngine } from './engine';
import { MAX_QUERY_LENGTH, MAX_TOOL_NAME_LENGTH } from './meta-tools';
import { MAX_QUERY_LENGTH as MAX_RANKED_LENGTH } from './ranking/keyword-ranker';
import { splitClauses } from './ranking/split-clauses';
import { normalizeText, tokenize } from './ranking/tokenizer';
import { createToolIndex } from './ranking/tool-index';
import { manySampleTools, repeatedInput, WORST_CASE_PIECES } from './testing/worst-case-inputs';

/**
 * Every text path answers in time linear in its input, on the inputs that make regular
 * expressions backtrack and loops rescan runs. A hang guard, not a speed figure (those are in
 * `pnpm bench`): before these paths were linear, the same inputs took seconds to minutes.
 */
const BOUND_MS = 1_000;

/** A catalog larger than FULL_SCAN_SUGGESTIONS, so an unknown name's suggestions come from a search. */
const tools = manySampleTools(2_100);
const engine = createToolSearchEngine({
  catalog: tools.map((descriptor) => ({ descriptor, tool: { name: descriptor.name } })),
});
const index = createToolIndex({ tools });
index.search('warm up the ranker');

/** Runs of one piece, or of a few pieces alternating (", and" then a tab then a mark …). */
const run = fc.oneof(
  fc.constantFrom(...WORST_CASE_PIECES),
  fc
    .array(fc.constantFrom(...WORST_CASE_PIECES), { minLength: 2, maxLength: 4 })
    .map((pieces) => pieces.join('')),
);
const length = fc.constantFrom(
  MAX_TOOL_NAME_LENGTH,
  MAX_TOOL_NAME_LENGTH + 1,
  MAX_QUERY_LENGTH,
  MAX_QUERY_LENGTH + 1,
  9_000,
  MAX_RANKED_LENGTH,
  100_000,
);
const input = fc.tuple(run, length).map(([piece, size]) => repeatedInput(piece, size));
/** The inputs known to have been slow, tried first. */
const known = [' ', '\t', ', and ', '!', '\u0301\u0316', '\u0301\u200d\u0316'].map((piece) => [
  repeatedInput(piece, 100_000),
]) as [string][];

async function elapsed(work: () => unknown): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

describe('every text path takes time linear in its input', () => {
  it('tokenize, normalizeText and splitClauses', async () => {
    await fc.assert(
      fc.asyncProperty(input, async (text) => {
        expect(await elapsed(() => tokenize(text))).toBeLessThan(BOUND_MS);
        expect(await elapsed(() => normalizeText(text))).toBeLessThan(BOUND_MS);
        expect(await elapsed(() => splitClauses(text))).toBeLessThan(BOUND_MS);
      }),
      { numRuns: 40, examples: known },
    );
  });

  it('createToolIndex().search over 2,100 tools', async () => {
    await fc.assert(
      fc.asyncProperty(input, async (text) => {
        expect(await elapsed(() => index.search(text))).toBeLessThan(BOUND_MS);
      }),
      { numRuns: 30, examples: known },
    );
  });

  it("the engine's search_tools and load_tool over 2,100 tools", async () => {
    const request = engine.startRequest({ threadId: 'worst-case' });
    await fc.assert(
      fc.asyncProperty(input, async (text) => {
        expect(await elapsed(() => request.searchTools({ query: text }))).toBeLessThan(BOUND_MS);
        expect(await elapsed(() => request.loadTool({ toolName: text }))).toBeLessThan(BOUND_MS);
        expect(await elapsed(() => request.loadTool({ toolNames: [text, `${text}x`] }))).toBeLessThan(
          BOUND_MS,
        );
      }),
      { numRuns: 30, examples: known },
    );
  });

  it('ten parallel search_tools calls at the query cap, and ten load_tool calls of long names', async () => {
    const request = engine.startRequest({ threadId: 'parallel' });
    const query = repeatedInput(' ', MAX_QUERY_LENGTH);
    const name = repeatedInput(' ', 9_000);
    const time = await elapsed(() =>
      Promise.all([
        ...Array.from({ length: 10 }, () => request.searchTools({ query })),
        ...Array.from({ length: 10 }, () => request.loadTool({ toolName: name })),
      ]),
    );
    expect(time).toBeLessThan(BOUND_MS);
  });
});
