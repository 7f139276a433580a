import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetSource } from '../datasets';
import { realRequestCatalog } from './real-requests';

describe('realRequestCatalog', () => {
  let folder: string;
  let sources: DatasetSource[];
  const lines = (rows: unknown[]) => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'real-requests-'));
    const write = async (name: string, tools: string[], queries: string[]) => {
      const toolsFile = path.join(folder, `${name}-tools.jsonl`);
      const queriesFile = path.join(folder, `${name}-queries.jsonl`);
      await writeFile(toolsFile, lines(tools.map((tool) => ({ name: tool, description: `${tool} things` }))));
      await writeFile(
        queriesFile,
        lines(queries.map((query, index) => ({ id: `${name}-${index}`, query, relevant: [tools[0]] }))),
      );
      return { name, toolsFile, queriesFile };
    };
    sources = [
      await write('a', ['a1', 'a2', 'a3', 'shared'], ['first of a', 'second of a', 'third of a']),
      await write('b', ['shared', 'b1'], ['first of b']),
    ];
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('takes the sets’ tools in turn, each name once, and their requests in turn', async () => {
    const { tools, queries } = await realRequestCatalog({ sources, size: 4, count: 6, seed: 1 });
    expect(tools.map((tool) => tool.name)).toEqual(['a1', 'shared', 'a2', 'b1']);
    expect(queries).toEqual([
      'first of a',
      'first of b',
      'second of a',
      'third of a',
      'first of a',
      'first of b',
    ]);
  });

  it('tops a small catalog up with generated tools, no name twice', async () => {
    const { tools } = await realRequestCatalog({ sources, size: 40, count: 1, seed: 1 });
    expect(tools).toHaveLength(40);
    expect(tools.slice(0, 5).map((tool) => tool.name)).toEqual(['a1', 'shared', 'a2', 'b1', 'a3']);
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(40);
  });

  it('refuses sets without a request to time', async () => {
    const empty = path.join(folder, 'empty.jsonl');
    await writeFile(empty, '');
    await expect(
      realRequestCatalog({
        sources: [{ name: 'none', toolsFile: sources[0]!.toolsFile, queriesFile: empty }],
        size: 4,
        count: 1,
        seed: 1,
      }),
    ).rejects.toThrow('no requests');
  });
});
