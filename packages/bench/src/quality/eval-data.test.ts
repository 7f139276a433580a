import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadEvalSet, splitOf } from './eval-data';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '__fixtures__/eval');

describe('splitOf', () => {
  it('drops the trailing number or hash of an id', () => {
    expect(splitOf('G1_instruction_588')).toBe('G1_instruction');
    expect(splitOf('G3_instruction_20029')).toBe('G3_instruction');
    expect(splitOf('simple_python_0')).toBe('simple_python');
    expect(splitOf('live_multiple_12-3-0')).toBe('live_multiple');
    expect(splitOf('live_parallel_multiple_21-18-0')).toBe('live_parallel_multiple');
    expect(splitOf('test_in_domain-easy-0')).toBe('test_in_domain-easy');
    expect(splitOf('test_out_domain-difficult-653')).toBe('test_out_domain-difficult');
    expect(splitOf('single-00024d6cc6')).toBe('single');
    expect(splitOf('single-abcdef0123')).toBe('single');
    expect(splitOf('multi-494')).toBe('multi');
    expect(splitOf('plain')).toBe('plain');
  });
});

describe('loadEvalSet', () => {
  it('reads tools and queries, skipping blank lines', async () => {
    const set = await loadEvalSet('tiny', { root: fixtures });
    expect(set.name).toBe('tiny');
    expect(set.tools.map((tool) => tool.name)).toEqual(['getWeather', 'search_flights', 'convertCurrency']);
    expect(set.queries.map((query) => query.id)).toEqual(['single-0a1b2c3d4e', 'multi-0', 'multi-1']);
  });

  it("checks a set as the bench does (word-vectors' evaluate reads sets through it)", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'eval-set-'));
    try {
      await mkdir(path.join(root, 'dup'));
      await writeFile(path.join(root, 'dup', 'tools.jsonl'), '{"name":"a"}\n{"name":"b"}\n');
      await writeFile(
        path.join(root, 'dup', 'queries.jsonl'),
        '{"id":"x-1","query":"a","relevant":["a"]}\n{"id":"x-1","query":"b","relevant":["b"]}\n',
      );
      await expect(loadEvalSet('dup', { root })).rejects.toThrow(/lines 1 and 2 both have the id "x-1"/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
