import { createKeywordRanker } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { generateCatalog, generateQueries } from './catalog';
import { measureSpeed } from './speed';

describe('generateCatalog', () => {
  it('is deterministic for a seed, with unique names and full descriptors', () => {
    const first = generateCatalog({ size: 2000, seed: 7 });
    expect(generateCatalog({ size: 2000, seed: 7 })).toEqual(first);
    expect(generateCatalog({ size: 2000, seed: 8 })).not.toEqual(first);
    expect(new Set(first.map((tool) => tool.name.toLowerCase())).size).toBe(2000);
    for (const tool of first) {
      expect(tool.description!.length).toBeGreaterThan(10);
      expect(Object.keys((tool.parameters as { properties: object }).properties).length).toBeGreaterThan(0);
    }
  });

  it('writes names in several styles', () => {
    const names = generateCatalog({ size: 500 }).map((tool) => tool.name);
    expect(names.some((name) => /[a-z][A-Z]/.test(name))).toBe(true);
    expect(names.some((name) => name.includes('_'))).toBe(true);
    expect(names.some((name) => name.includes('-'))).toBe(true);
    expect(names.some((name) => name.includes('.'))).toBe(true);
  });
});

describe('generateQueries', () => {
  it('asks for tools of the catalog, which a ranker can find', () => {
    const tools = generateCatalog({ size: 300 });
    const queries = generateQueries(tools, { count: 200 });
    const names = new Set(tools.map((tool) => tool.name));
    for (const query of queries) for (const name of query.relevant) expect(names.has(name)).toBe(true);
    expect(queries.some((query) => query.relevant.length === 2)).toBe(true);
    const ranker = createKeywordRanker(tools);
    const found = queries.filter((query) =>
      ranker.search(query.query, { topK: 10 }).some((result) => query.relevant.includes(result.name)),
    );
    expect(found.length / queries.length).toBeGreaterThan(0.8);
  });
});

describe('measureSpeed', () => {
  it('reports build and query times and memory for a ranker', async () => {
    const row = await measureSpeed({
      name: 'keyword',
      factory: createKeywordRanker,
      size: 300,
      queryCount: 50,
      runs: 1,
    });
    expect(row).toMatchObject({ ranker: 'keyword', tools: 300 });
    expect(row.buildMs).toBeGreaterThan(0);
    expect(row.medianQueryMs).toBeGreaterThanOrEqual(0);
    expect(row.p99QueryMs).toBeGreaterThanOrEqual(row.medianQueryMs);
  });
});
