import { createFakeClock, type FakeClock } from '../clock';
import { createToolSearchEngine } from '../engine';
import { sampleCatalog } from '../testing/sample-tools';
import type {
  CatalogEntry,
  LoadStateStore,
  Ranker,
  RankerFactory,
  ToolDescriptor,
  ToolSearchEngine,
  ToolSearchEngineOptions,
  ToolSearchEvent,
} from '../types';

export interface FakeTool {
  readonly name: string;
  readonly owner?: string;
}

export function entry(
  name: string,
  options: { aliases?: string[]; description?: string; owner?: string } = {},
): CatalogEntry<FakeTool> {
  return {
    descriptor: { name, description: options.description ?? `The ${name} tool.` },
    tool: { name, ...(options.owner ? { owner: options.owner } : {}) },
    ...(options.aliases ? { aliases: options.aliases } : {}),
  };
}

/**
 * A ranker whose answer does not depend on the query: every tool, in catalog order,
 * scores from 1 down. For tests of what the engine does with rankings.
 */
export const catalogOrderRanker: RankerFactory = (tools: readonly ToolDescriptor[]): Ranker => ({
  search(_query, options = {}) {
    const results = tools.map((tool, index) => ({
      name: tool.name,
      description: tool.description ?? '',
      score: 1 - index / (tools.length + 1),
    }));
    return results.filter((result) => result.score >= (options.minScore ?? 0)).slice(0, options.topK ?? 5);
  },
});

export interface Harness {
  readonly engine: ToolSearchEngine<FakeTool, { user?: string }>;
  readonly events: ToolSearchEvent[];
  readonly clock: FakeClock;
  eventsOf<T extends ToolSearchEvent['type']>(type: T): Extract<ToolSearchEvent, { type: T }>[];
}

export function harness(
  options: Partial<ToolSearchEngineOptions<FakeTool, { user?: string }>> = {},
): Harness {
  const events: ToolSearchEvent[] = [];
  const clock = createFakeClock();
  const engine = createToolSearchEngine<FakeTool, { user?: string }>({
    catalog: sampleCatalog(),
    clock,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return {
    engine,
    events,
    clock,
    eventsOf: <T extends ToolSearchEvent['type']>(type: T) =>
      events.filter((event): event is Extract<ToolSearchEvent, { type: T }> => event.type === type),
  };
}

/** A store whose every call fails (or, with `hang`, never answers) until `up` is set. */
export function brokenStore(mode: 'throw' | 'reject' | 'hang' | 'garbage'): LoadStateStore & { up: boolean } {
  const names = new Map<string, string[]>();
  const fail = <T>(value: () => T): T | Promise<T> => {
    if (state.up) return value();
    if (mode === 'throw') throw new Error('connection refused');
    if (mode === 'reject') return Promise.reject(new Error('connection refused'));
    if (mode === 'garbage') return { not: 'an array' } as unknown as T;
    return new Promise<T>(() => {});
  };
  const state = {
    up: false,
    get: (threadId: string) => fail(() => [...(names.get(threadId) ?? [])]),
    add: (threadId: string, added: readonly string[]) =>
      fail(() => {
        const list = names.get(threadId) ?? [];
        for (const name of added) if (!list.includes(name)) list.push(name);
        names.set(threadId, list);
        return [...list];
      }),
    delete: (threadId: string) =>
      fail(() => {
        names.delete(threadId);
      }),
    stats: () => fail(() => ({ threadCount: names.size, oldestAccessTime: null })),
  };
  return state;
}
