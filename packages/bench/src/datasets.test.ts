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

  it('takes exactly `limit` queries when the shares round up or down past it', () => {
    // 1.5 + 1.5 used to round to 2 + 2 = 4 queries for a limit of 3; 3.33 × 3 to 3 × 3 = 9 for 10.
    const halves = [...ids('a', 10), ...ids('b', 10)];
    expect(subsample(halves, 3)).toHaveLength(3);
    const thirds = [...ids('a', 5), ...ids('b', 5), ...ids('c', 5)];
    expect(subsample(thirds, 10)).toHaveLength(10);
    // More splits than the limit: each still keeps one query.
    expect(subsample([...ids('a', 3), ...ids('b', 3), ...ids('c', 3)], 2)).toHaveLength(3);
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

  it('refuses what would score queries wrongly, naming the file and line', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'bench-dataset-'));
    try {
      const tools = path.join(folder, 'tools.jsonl');
      const queries = path.join(folder, 'queries.jsonl');
      const source = ownSource(tools, queries);
      const write = async (toolLines: string[], queryLines: string[]) => {
        await writeFile(tools, `${toolLines.join('\n')}\n`);
        await writeFile(queries, `${queryLines.join('\n')}\n`);
      };
      const weather = '{"name":"getWeather","description":"Weather forecast for a city"}';
      const email = '{"name":"sendEmail","description":"Send an email"}';
      // Two queries with one id: the first was scored against the second's relevant tools.
      await write(
        [weather, email],
        [
          '{"id":"q-1","query":"weather in Paris","relevant":["getWeather"]}',
          '',
          '{"id":"q-1","query":"email Bob","relevant":["sendEmail"]}',
        ],
      );
      await expect(loadDataset(source)).rejects.toThrow(
        /queries\.jsonl: lines 1 and 3 both have the id "q-1"; query ids must be unique/,
      );
      // A query with no relevant tool counted 0 in every mean.
      await write(
        [weather],
        [
          '{"id":"q-1","query":"weather","relevant":["getWeather"]}',
          '{"id":"q-2","query":"hi","relevant":[]}',
        ],
      );
      await expect(loadDataset(source)).rejects.toThrow(/line 2 \(id "q-2"\) has no relevant tool/);
      // A relevant name the catalog lacks (a typo) could never be found.
      await write([weather, email], ['{"id":"q-1","query":"email","relevant":["send_email"]}']);
      await expect(loadDataset(source)).rejects.toThrow(
        /line 1 \(id "q-1"\) names "send_email" as relevant, but .*tools\.jsonl has no tool of that name/,
      );
      await write([weather], ['{"id":"q-1","query":"weather","relevant":[7]}']);
      await expect(loadDataset(source)).rejects.toThrow(/"relevant" must list tool names \(strings\), not 7/);
      // Two tools of one name: each system kept a different one.
      await write(
        ['', weather, email, weather],
        ['{"id":"q-1","query":"weather","relevant":["getWeather"]}'],
      );
      await expect(loadDataset(source)).rejects.toThrow(
        /tools\.jsonl: lines 2 and 4 both name the tool "getWeather"; tool names must be unique/,
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
