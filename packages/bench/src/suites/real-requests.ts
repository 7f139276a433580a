import type { ToolDescriptor } from '@tool-search/core';
import { type DatasetSource, loadDataset } from '../datasets';
import { generateCatalog } from '../synthetic/catalog';

/**
 * A catalog of `size` real tools with real requests, for timing searches as users meet them.
 * The generated requests of the speed suite share most of their words with one tool, so a
 * hybrid search can nearly always skip its similarity scan; the eval sets' requests are long
 * and match each tool only in part. The tools are the sets' own, taken in turn from each set
 * (so a smaller catalog still mixes them), each name once, then topped up with generated tools
 * when the sets hold fewer than `size`. The requests are the sets' requests, taken in turn from
 * each set, repeated from the start when `count` asks for more than there are.
 */
export async function realRequestCatalog(options: {
  sources: readonly DatasetSource[];
  size: number;
  count: number;
  seed: number;
}): Promise<{ tools: ToolDescriptor[]; queries: string[] }> {
  const sets = await Promise.all(options.sources.map((source) => loadDataset(source)));
  const tools: ToolDescriptor[] = [];
  const names = new Set<string>();
  const add = (tool: ToolDescriptor) => {
    if (tools.length >= options.size || names.has(tool.name)) return;
    names.add(tool.name);
    tools.push(tool);
  };
  for (const tool of roundRobin(sets.map((set) => set.tools))) add(tool);
  if (tools.length < options.size) {
    // Generated names never repeat within a catalog; a few may equal a real tool's and are skipped.
    for (const tool of generateCatalog({ size: options.size, seed: options.seed })) add(tool);
  }
  const requests = roundRobin(sets.map((set) => set.queries.map((query) => query.query)));
  if (requests.length === 0) throw new Error('the eval sets hold no requests to time');
  const queries = Array.from({ length: options.count }, (_, index) => requests[index % requests.length]!);
  return { tools, queries };
}

/** The lists' items taken in turn: the first of each, then the second of each, and so on. */
function roundRobin<T>(lists: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let index = 0; index < longest; index++) {
    for (const list of lists) if (index < list.length) out.push(list[index]!);
  }
  return out;
}
