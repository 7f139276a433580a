import {
  createToolIndex,
  createToolSearchEngine,
  MAX_QUERY_LENGTH,
  splitClauses,
  tokenize,
} from '@tool-search/core';
import { worstCaseInputs } from '@tool-search/core/testing';
import type { Progress } from '../progress';
import { quantile } from '../quantile';
import { generateCatalog, generateQueries } from '../synthetic/catalog';

/** One entry point of ours: a typical request's time next to its slowest worst-case input's. */
export interface WorstCaseRow {
  readonly entry: 'tokenize' | 'splitClauses' | 'createToolIndex().search' | 'search_tools' | 'load_tool';
  readonly tools: number;
  /** The length of each worst-case input, in characters. */
  readonly inputLength: number;
  /** Median over the typical requests (generated ones, as in the speed suite). */
  readonly typicalMs: number;
  /** The typical requests' mean length, in characters. */
  readonly typicalLength: number;
  /** The slowest worst-case input: the median of its runs. */
  readonly worstMs: number;
  /** What the slowest input is made of, e.g. `" " × 998`. */
  readonly worstInput: string;
  /** Worst-case inputs timed. */
  readonly inputs: number;
}

export interface WorstCasePlan {
  /** Catalog size: over 2,000, so that an unknown name's suggestions come from a search. */
  readonly size: number;
  /** Typical requests timed per entry point. */
  readonly queries: number;
  /** Runs of each worst-case input, in rounds of every input once (its median is kept). */
  readonly runs: number;
  /** The length of a load_tool name (any length is accepted; the search inputs are cut at MAX_QUERY_LENGTH). */
  readonly nameLength: number;
  readonly seed: number;
}

function time(work: () => unknown): Promise<number> {
  const start = performance.now();
  const value = work();
  return Promise.resolve(value).then(() => performance.now() - start);
}

/**
 * Each public entry point that reads model or user text, on a synthetic catalog of
 * `plan.size` tools: the median time of typical requests, and the time of each worst-case
 * input of `@tool-search/core/testing` (runs of spaces, punctuation, joining words, combining
 * marks… at the search_tools cap, MAX_QUERY_LENGTH characters; as load_tool names,
 * `plan.nameLength`), of which the slowest is reported. Linear-time text paths keep it within
 * a small multiple of a typical request.
 */
export async function runWorstCaseSuite(options: {
  plan: WorstCasePlan;
  progress?: Progress;
}): Promise<WorstCaseRow[]> {
  const { plan } = options;
  const tools = generateCatalog({ size: plan.size, seed: plan.seed });
  const typical = generateQueries(tools, { count: plan.queries, seed: plan.seed + 1 }).map(
    (query) => query.query,
  );
  const index = createToolIndex({ tools });
  const engine = createToolSearchEngine({
    catalog: tools.map((descriptor) => ({ descriptor, tool: { name: descriptor.name } })),
  });
  const request = engine.startRequest({ threadId: 'worst-case' });
  // A typical load_tool call: a name the catalog has, as the model copies it from a search.
  const names = tools.slice(0, plan.queries).map((tool) => tool.name);
  const entries: {
    entry: WorstCaseRow['entry'];
    inputLength: number;
    typical: readonly string[];
    run: (text: string) => unknown;
  }[] = [
    { entry: 'tokenize', inputLength: MAX_QUERY_LENGTH, typical, run: tokenize },
    { entry: 'splitClauses', inputLength: MAX_QUERY_LENGTH, typical, run: splitClauses },
    {
      entry: 'createToolIndex().search',
      inputLength: MAX_QUERY_LENGTH,
      typical,
      run: (text) => index.search(text),
    },
    {
      entry: 'search_tools',
      inputLength: MAX_QUERY_LENGTH,
      typical,
      run: (text) => request.searchTools({ query: text }),
    },
    {
      entry: 'load_tool',
      inputLength: plan.nameLength,
      typical: names,
      run: (text) => request.loadTool({ toolName: text }),
    },
  ];
  options.progress?.phase('worst-case input', entries.length);
  const rows: WorstCaseRow[] = [];
  for (const [position, { entry, inputLength, typical: requests, run }] of entries.entries()) {
    options.progress?.update(position, entry);
    // Warm the code paths first, so the JIT is not what is measured.
    for (const text of requests.slice(0, 20)) await run(text);
    const typicalTimes: number[] = [];
    for (const text of requests) typicalTimes.push(await time(() => run(text)));
    typicalTimes.sort((left, right) => left - right);
    // Round by round, every input once: no input follows itself, so no cache of the last
    // request (the parts of a request are remembered) answers it.
    const inputs = worstCaseInputs(inputLength);
    const times = inputs.map((): number[] => []);
    for (let round = 0; round < plan.runs; round++) {
      for (const [at, input] of inputs.entries()) times[at]!.push(await time(() => run(input.text)));
    }
    let worst = { ms: 0, name: '' };
    for (const [at, input] of inputs.entries()) {
      const ms = quantile(
        times[at]!.sort((left, right) => left - right),
        0.5,
      );
      if (ms > worst.ms) worst = { ms, name: input.name };
    }
    rows.push({
      entry,
      tools: plan.size,
      inputLength,
      typicalMs: quantile(typicalTimes, 0.5),
      typicalLength: requests.reduce((sum, text) => sum + text.length, 0) / requests.length,
      worstMs: worst.ms,
      worstInput: worst.name,
      inputs: inputs.length,
    });
  }
  options.progress?.update(entries.length);
  return rows;
}
