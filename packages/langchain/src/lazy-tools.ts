/**
 * Lazily resolved tools (`LazyTool` of the core, as `@tool-search/mcp` makes them) in the
 * catalog: the engine's entry for one, whose stand-in (what the filter sees) is a LangChain tool
 * that runs nothing, and whose resolved tool, made once per request for that request's caller, is
 * a LangChain tool with the resolved JSON Schema that runs the resolved `execute`.
 */
import { tool as langchainTool, type ToolRuntime } from '@langchain/core/tools';
import type { JSONSchema } from '@langchain/core/utils/json_schema';
import { type CatalogEntry, type LazyTool, lazyToolEntry, type ResolvedTool } from '@tool-search/core';
import type { LangChainTool } from './options';

/** The engine's entry for a lazy tool (named by its own name, which the model calls it by). */
export function lazyCatalogEntry(lazy: LazyTool<never>): CatalogEntry<LangChainTool> {
  const description = lazy.description ?? '';
  const standIn = langchainTool(
    async () => {
      throw new Error(`Tool "${lazy.name}" is not resolved: load it first.`);
    },
    { name: lazy.name, description, schema: { type: 'object', properties: {} } as JSONSchema },
  ) as LangChainTool;
  return lazyToolEntry<LangChainTool, never>(lazy, { standIn, toTool: resolvedToLangChainTool });
}

function resolvedToLangChainTool(resolved: ResolvedTool, lazy: LazyTool<never>): LangChainTool {
  return langchainTool(
    (input: unknown, runtime?: ToolRuntime) =>
      resolved.execute(input, {
        ...(runtime?.signal ? { signal: runtime.signal } : {}),
        ...(runtime?.toolCallId ? { toolCallId: runtime.toolCallId } : {}),
      }),
    {
      name: lazy.name,
      description: resolved.description ?? lazy.description ?? '',
      schema: resolved.inputSchema as JSONSchema,
    },
  ) as LangChainTool;
}
