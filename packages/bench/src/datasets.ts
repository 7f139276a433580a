import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolDescriptor } from '@tool-search/core';
import { defaultEvalRoot, EVAL_SET_NAMES, type EvalQuery, type EvalSet, splitOf } from './quality/eval-data';

/** Where a catalog and its queries are read from: two JSON-lines files in the eval format. */
export interface DatasetSource {
  readonly name: string;
  readonly toolsFile: string;
  readonly queriesFile: string;
}

/** The sets of `../shared/eval` (or `$TOOL_SEARCH_EVAL_DIR`). */
export function evalSources(root: string = defaultEvalRoot()): DatasetSource[] {
  return EVAL_SET_NAMES.map((name) => ({
    name,
    toolsFile: path.join(root, name, 'tools.jsonl'),
    queriesFile: path.join(root, name, 'queries.jsonl'),
  }));
}

/** A user's own catalog (`--tools FILE --queries FILE`), named after the tools file. */
export function ownSource(toolsFile: string, queriesFile: string): DatasetSource {
  return {
    name: path.basename(toolsFile).replace(/\.jsonl?$/, '') || 'catalog',
    toolsFile: path.resolve(toolsFile),
    queriesFile: path.resolve(queriesFile),
  };
}

async function readJsonLines(file: string): Promise<unknown[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line.length > 0)
    .map(({ line, number }) => {
      try {
        return JSON.parse(line) as unknown;
      } catch (error) {
        throw new Error(`${file}:${number} is not JSON: ${(error as Error).message}`);
      }
    });
}

function checkTool(value: unknown, file: string, index: number): ToolDescriptor {
  const tool = value as ToolDescriptor;
  if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string' || tool.name.length === 0) {
    throw new Error(
      `${file}: line ${index + 1} has no "name" (each line is {"name","description","parameters"})`,
    );
  }
  return tool;
}

function checkQuery(value: unknown, file: string, index: number): EvalQuery {
  const query = value as EvalQuery;
  if (
    typeof query !== 'object' ||
    query === null ||
    typeof query.query !== 'string' ||
    !Array.isArray(query.relevant)
  ) {
    throw new Error(`${file}: line ${index + 1} is not {"id","query","relevant":[names]}`);
  }
  return {
    id: typeof query.id === 'string' ? query.id : `query-${index + 1}`,
    query: query.query,
    relevant: query.relevant,
  };
}

/** Reads a dataset; with `queryIds`, only those queries (in the file's order). */
export async function loadDataset(source: DatasetSource, queryIds?: readonly string[]): Promise<EvalSet> {
  const [tools, queries] = await Promise.all([
    readJsonLines(source.toolsFile),
    readJsonLines(source.queriesFile),
  ]);
  const wanted = queryIds ? new Set(queryIds) : undefined;
  return {
    name: source.name,
    tools: tools.map((tool, index) => checkTool(tool, source.toolsFile, index)),
    queries: queries
      .map((query, index) => checkQuery(query, source.queriesFile, index))
      .filter((query) => wanted === undefined || wanted.has(query.id)),
  };
}

/** FNV-1a, for an order of ids that is stable across runs and machines. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/**
 * At most `limit` queries, deterministically: each split keeps its share (at least one query),
 * chosen by a hash of the id, then returned in the original order.
 */
export function subsample<T extends { readonly id: string }>(queries: readonly T[], limit: number): T[] {
  if (queries.length <= limit) return [...queries];
  const bySplit = new Map<string, T[]>();
  for (const query of queries) {
    const split = splitOf(query.id);
    const list = bySplit.get(split) ?? [];
    if (list.length === 0) bySplit.set(split, list);
    list.push(query);
  }
  const kept = new Set<T>();
  for (const list of bySplit.values()) {
    const share = Math.max(1, Math.round((list.length / queries.length) * limit));
    const ordered = [...list].sort(
      (left, right) => hash(left.id) - hash(right.id) || (left.id < right.id ? -1 : 1),
    );
    for (const query of ordered.slice(0, share)) kept.add(query);
  }
  return queries.filter((query) => kept.has(query));
}
