import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKeywordRanker } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { baselineTokens, createBm25Ranker } from './bm25-baseline';
import { loadEvalSet } from './eval-data';
import { evaluateRanker } from './evaluate';
import { formatQualityTable } from './format';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '__fixtures__/eval');

describe('baselineTokens', () => {
  it('splits camelCase (acronyms too) and snake_case, lowercases, keeps everything else', () => {
    expect(baselineTokens('getHTTPResponse_code for the Users')).toEqual([
      'get',
      'http',
      'response',
      'code',
      'for',
      'the',
      'users',
    ]);
  });
});

describe('evaluateRanker', () => {
  it('reports overall and per-split metrics, for any ranker', async () => {
    const set = await loadEvalSet('tiny', { root: fixtures });
    let clock = 0;
    const keyword = await evaluateRanker(
      { name: 'keyword', factory: (tools) => createKeywordRanker(tools) },
      set,
      () => clock++,
    );
    expect(keyword.overall.queries).toBe(3);
    expect(keyword.splits.map((split) => [split.label, split.queries])).toEqual([
      ['single', 1],
      ['multi', 2],
    ]);
    expect(keyword.overall.metrics.comp5).toBe(1);
    expect(keyword.perQuery[1]!.ranked.slice(0, 2).sort()).toEqual(['convertCurrency', 'search_flights']);
    const bm25 = await evaluateRanker({ name: 'bm25', factory: (tools) => createBm25Ranker(tools) }, set);
    const table = formatQualityTable([keyword, bm25], { splits: true });
    expect(table).toContain('| **tiny** | keyword | 3 |');
    expect(table).toContain('| tiny / multi | bm25 | 2 |');
  });
});
