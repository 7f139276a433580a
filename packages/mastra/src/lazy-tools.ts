/**
 * Lazily resolved tools (`LazyTool` of the core, as `@tool-search/mcp` makes them) in the
 * processor's catalog: the engine's entry for one (a stand-in the filter sees), whose resolved
 * tool, made once per request for that request's context, is a Mastra tool with the resolved
 * JSON Schema that runs the resolved `execute`.
 */
import { createTool } from '@mastra/core/tools';
import { type CatalogEntry, type LazyTool, lazyToolEntry, type ResolvedTool } from '@tool-search/core';

const entries = new WeakMap<LazyTool<never>, Map<string, CatalogEntry<unknown>>>();

/** The engine's entry for a lazy tool under its key: one per tool and key. */
export function lazyCatalogEntry(key: string, lazy: LazyTool<never>): CatalogEntry<unknown> {
  let byKey = entries.get(lazy);
  if (!byKey) {
    byKey = new Map();
    entries.set(lazy, byKey);
  }
  let entry = byKey.get(key);
  if (!entry) {
    // What the filter is handed before the tool is resolved: its name and description only.
    const standIn = { id: key, description: lazy.description ?? '' };
    entry = lazyToolEntry<unknown, never>(lazy, {
      name: key,
      standIn,
      toTool: (resolved) => resolvedToMastraTool(key, resolved, lazy),
    });
    byKey.set(key, entry);
  }
  return entry;
}

function resolvedToMastraTool(key: string, resolved: ResolvedTool, lazy: LazyTool<never>) {
  return createTool({
    id: key,
    description: resolved.description ?? lazy.description ?? '',
    inputSchema: resolved.inputSchema as Parameters<typeof createTool>[0]['inputSchema'],
    execute: async (
      input: unknown,
      context?: { abortSignal?: AbortSignal; agent?: { toolCallId?: string } },
    ) =>
      resolved.execute(input, {
        ...(context?.abortSignal ? { signal: context.abortSignal } : {}),
        ...(context?.agent?.toolCallId ? { toolCallId: context.agent.toolCallId } : {}),
      }),
  });
}
