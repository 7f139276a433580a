import { readFile } from 'node:fs/promises';
import type { ToolDescriptor } from '@tool-search/core';
import type { EvalQuery, EvalSet } from './eval-data';

interface Line {
  readonly value: unknown;
  /** 1-based, blank lines counted. */
  readonly number: number;
}

async function readJsonLines(file: string): Promise<Line[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line.length > 0)
    .map(({ line, number }) => {
      try {
        return { value: JSON.parse(line) as unknown, number };
      } catch (error) {
        throw new Error(`${file}:${number} is not JSON: ${(error as Error).message}`);
      }
    });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a catalog and its queries in the eval format (`{"name","description","parameters"}` and
 * `{"id","query","relevant":[names]}` a line) and checks what the metrics rely on, naming the
 * file and line of the first fault: tool names unique; query ids unique (each query is scored
 * against the relevant tools of its id); every query with at least one relevant tool, each a
 * tool of the catalog (a query without one has no NDCG, and a name the catalog lacks could
 * never be found: either would lower every system's figures without saying why). A query
 * without an id is given `query-<line>`.
 */
export async function readEvalSet(name: string, toolsFile: string, queriesFile: string): Promise<EvalSet> {
  const [toolLines, queryLines] = await Promise.all([readJsonLines(toolsFile), readJsonLines(queriesFile)]);
  const toolLine = new Map<string, number>();
  const tools = toolLines.map(({ value, number }): ToolDescriptor => {
    if (!isRecord(value) || typeof value.name !== 'string' || value.name.length === 0) {
      throw new Error(
        `${toolsFile}: line ${number} has no "name" (each line is {"name","description","parameters"})`,
      );
    }
    const earlier = toolLine.get(value.name);
    if (earlier !== undefined) {
      throw new Error(
        `${toolsFile}: lines ${earlier} and ${number} both name the tool "${value.name}"; tool names must be unique`,
      );
    }
    toolLine.set(value.name, number);
    return value as unknown as ToolDescriptor;
  });
  const queryLine = new Map<string, number>();
  const queries = queryLines.map(({ value, number }): EvalQuery => {
    if (!isRecord(value) || typeof value.query !== 'string' || !Array.isArray(value.relevant)) {
      throw new Error(`${queriesFile}: line ${number} is not {"id","query","relevant":[names]}`);
    }
    const id = typeof value.id === 'string' ? value.id : `query-${number}`;
    const where = `${queriesFile}: line ${number} (id "${id}")`;
    const earlier = queryLine.get(id);
    if (earlier !== undefined) {
      throw new Error(
        `${queriesFile}: lines ${earlier} and ${number} both have the id "${id}"; query ids must be unique (each query is scored against the relevant tools of its id)`,
      );
    }
    queryLine.set(id, number);
    const relevant = value.relevant as unknown[];
    if (relevant.length === 0) {
      throw new Error(
        `${where} has no relevant tool; leave it out (the metrics need at least one tool that answers the query)`,
      );
    }
    for (const tool of relevant) {
      if (typeof tool !== 'string') {
        throw new Error(`${where}: "relevant" must list tool names (strings), not ${JSON.stringify(tool)}`);
      }
      if (!toolLine.has(tool)) {
        throw new Error(
          `${where} names "${tool}" as relevant, but ${toolsFile} has no tool of that name (it could never be found)`,
        );
      }
    }
    return { id, query: value.query, relevant: relevant as string[] };
  });
  return { name, tools, queries };
}
