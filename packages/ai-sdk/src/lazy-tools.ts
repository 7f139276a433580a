/**
 * Lazily resolved tools (`LazyTool` of the core, as `@tool-search/mcp` makes them) among a call's
 * `requestTools`: the engine's entry for one (a stand-in the filter sees, and the AI SDK tool its
 * resolved tool becomes), and the call's own tool of that name, whose schema and `execute` are the
 * ones the engine resolved for this call's request. The SDK asks the schema of active tools only,
 * and a lazy schema (a function) is asked again each time, so a tool's schema is read once it is
 * loaded, never before.
 */
import {
  type CatalogEntry,
  type JsonSchema,
  type LazyTool,
  lazyToolEntry,
  type ResolvedTool,
  type ToolSearchRequest,
} from '@tool-search/core';
import { asSchema, jsonSchema, type Tool, type ToolExecutionOptions } from 'ai';

const entries = new WeakMap<LazyTool<never>, Map<string, CatalogEntry<Tool>>>();

/** The engine's entry for a lazy tool under `name`: one per tool and name, so the engine's index of a call's tools is reused. */
export function lazyCatalogEntry(name: string, lazy: LazyTool<never>): CatalogEntry<Tool> {
  let byName = entries.get(lazy);
  if (!byName) {
    byName = new Map();
    entries.set(lazy, byName);
  }
  let entry = byName.get(name);
  if (!entry) {
    const standIn: Tool = {
      ...(lazy.description !== undefined ? { description: lazy.description } : {}),
      inputSchema: jsonSchema({ type: 'object' }),
    } as Tool;
    entry = lazyToolEntry<Tool, never>(lazy, { name, standIn, toTool: resolvedToAiSdkTool });
    byName.set(name, entry);
  }
  return entry;
}

/** A resolved tool as an AI SDK tool: its JSON Schema (the server validates the input) and its `execute`. */
function resolvedToAiSdkTool(resolved: ResolvedTool, lazy: LazyTool<never>): Tool {
  const description = resolved.description ?? lazy.description;
  return {
    ...(description !== undefined ? { description } : {}),
    inputSchema: jsonSchema(resolved.inputSchema as Parameters<typeof jsonSchema>[0]),
    execute: (input: unknown, options: ToolExecutionOptions<unknown>) =>
      resolved.execute(input, {
        ...(options?.abortSignal ? { signal: options.abortSignal } : {}),
        ...(options?.toolCallId ? { toolCallId: options.toolCallId } : {}),
      }),
  } as Tool;
}

/**
 * The call's tool for a lazy entry: described as the entry is, its schema and `execute` those of
 * the tool the call's request resolved (`planned().resolve(name)`), which exists once the tool is
 * loaded and shown. `guard` wraps `execute` as every catalog tool's is.
 */
export function lazyCallTool(
  name: string,
  entry: CatalogEntry<Tool>,
  planned: () => ToolSearchRequest<Tool> | undefined,
  guard: (execute: NonNullable<Tool['execute']>) => NonNullable<Tool['execute']>,
): Tool {
  const resolvedTool = () => planned()?.resolve(name)?.tool;
  const schema = (): JsonSchema => {
    const tool = resolvedTool();
    const json = tool?.inputSchema == null ? undefined : asSchema(tool.inputSchema).jsonSchema;
    return json !== undefined && typeof (json as PromiseLike<unknown>).then !== 'function'
      ? (json as JsonSchema)
      : { type: 'object' };
  };
  const execute = ((input: unknown, options: ToolExecutionOptions<unknown>) => {
    const tool = resolvedTool();
    if (typeof tool?.execute !== 'function') throw new Error(`Tool "${name}" is not available in this step.`);
    return tool.execute(input as never, options);
  }) as NonNullable<Tool['execute']>;
  return {
    ...(entry.descriptor.description !== undefined ? { description: entry.descriptor.description } : {}),
    // A lazy schema: asked again every time the SDK reads it (jsonSchema() would keep the first answer).
    inputSchema: () => jsonSchema(schema() as Parameters<typeof jsonSchema>[0]),
    execute: guard(execute),
  } as Tool;
}
