import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset, ownSource, subsample } from './datasets';

const ids = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: `${prefix}_${index}` }));

describe('subsample', () => {
  const queries = [...ids('simple', 60), ...ids('live_multiple', 30), ...ids('parallel', 10)];

  it('keeps each split its share, the same queries every run, in the original order', () => {
    const chosen = subsample(queries, 20);
    const count = (prefix: string) => chosen.filter((query) => query.id.startsWith(`${prefix}_`)).length;
    expect([count('simple'), count('live_multiple'), count('parallel')]).toEqual([12, 6, 2]);
    expect(subsample(queries, 20)).toEqual(chosen);
    expect(chosen.map((query) => queries.indexOf(query))).toEqual(
      [...chosen.map((query) => queries.indexOf(query))].sort((left, right) => left - right),
    );
  });

  it('keeps at least one query of a small split, and everything under the limit', () => {
    expect(subsample(queries, 5).some((query) => query.id.startsWith('parallel_'))).toBe(true);
    expect(subsample(queries, 500)).toEqual(queries);
  });
});

describe('loadDataset', () => {
  it('reads a user catalog and names the line that is not in the eval format', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'bench-dataset-'));
    try {
      const tools = path.join(folder, 'my-tools.jsonl');
      const queries = path.join(folder, 'queries.jsonl');
      await writeFile(
        tools,
        '{"name":"getWeather","description":"Weather for a city"}\n\n{"name":"sendEmail"}\n',
      );
      await writeFile(
        queries,
        '{"id":"a-1","query":"weather","relevant":["getWeather"]}\n{"query":"mail","relevant":["sendEmail"]}\n',
      );
      const source = ownSource(tools, queries);
      expect(source.name).toBe('my-tools');
      const set = await loadDataset(source);
      expect(set.tools.map((tool) => tool.name)).toEqual(['getWeather', 'sendEmail']);
      expect(set.queries).toEqual([
        { id: 'a-1', query: 'weather', relevant: ['getWeather'] },
        { id: 'query-2', query: 'mail', relevant: ['sendEmail'] },
      ]);
      expect((await loadDataset(source, ['a-1'])).queries).toHaveLength(1);

      await writeFile(tools, '{"name":"ok"}\n{"description":"no name"}\n');
      await expect(loadDataset(source)).rejects.toThrow(/line 2 has no "name"/);
      await writeFile(tools, '{"name":"ok"}\nnot json\n');
      await expect(loadDataset(source)).rejects.toThrow(/my-tools\.jsonl:2 is not JSON/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
