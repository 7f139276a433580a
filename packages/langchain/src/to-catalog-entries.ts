import { toJsonSchema } from '@langchain/core/utils/json_schema';
import {
  type CatalogEntry,
  isLazyTool,
  type JsonSchema,
  type ToolDescriptor,
  ToolSearchError,
} from '@tool-search/core';
import { lazyCatalogEntry } from './lazy-tools';
import type { LangChainTool, LangChainToolSet } from './options';

/** One entry per tool object, so that a tool seen again (every model call) keeps its identity. */
const entries = new WeakMap<object, CatalogEntry<LangChainTool>>();

/** True for the tools LangChain executes on the client (not a provider's server-side tool spec). */
export function isClientTool(value: unknown): value is LangChainTool {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { invoke?: unknown }).invoke === 'function'
  );
}

function parametersOf(tool: LangChainTool): JsonSchema | undefined {
  const schema = (tool as { schema?: unknown }).schema;
  if (schema === undefined || schema === null) return undefined;
  try {
    return toJsonSchema(schema as Parameters<typeof toJsonSchema>[0]) as JsonSchema;
  } catch {
    // A schema LangChain cannot convert is still a tool: search sees its name and description.
    return undefined;
  }
}

/** The descriptor search sees, and the tool itself, for one LangChain tool. */
export function toCatalogEntry(tool: LangChainTool): CatalogEntry<LangChainTool> {
  const cached = entries.get(tool);
  if (cached) return cached;
  const description = (tool as { description?: unknown }).description;
  const descriptor: ToolDescriptor = {
    name: tool.name,
    ...(typeof description === 'string' ? { description } : {}),
    ...optional('parameters', parametersOf(tool)),
  };
  const entry: CatalogEntry<LangChainTool> = { descriptor, tool };
  entries.set(tool, entry);
  return entry;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * Translates the catalog option. A LangChain model calls a tool by its `name`, so a record's
 * key must equal the tool's name: a key that differs is a TOOL_ID_MISMATCH, not a silent rename.
 */
export function toCatalogEntries(tools: LangChainToolSet | undefined): CatalogEntry<LangChainTool>[] {
  if (tools === undefined) return [];
  if (typeof tools !== 'object' || tools === null) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      '`tools` must be an array of LangChain tools or a record of them.',
    );
  }
  const list: [string | undefined, unknown][] = Array.isArray(tools)
    ? tools.map((tool) => [undefined, tool])
    : Object.entries(tools);
  return list.map(([key, tool]) => {
    if (isLazyTool(tool)) {
      if (key !== undefined && key !== tool.name) {
        throw new ToolSearchError(
          'TOOL_ID_MISMATCH',
          `The lazy tool under key "${key}" is named "${tool.name}"; the key must be "${tool.name}".`,
        );
      }
      return lazyCatalogEntry(tool);
    }
    if (!isClientTool(tool)) {
      const where = key === undefined ? 'in `tools`' : `under key "${key}"`;
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        `The value ${where} is not a LangChain tool (an object with a string \`name\` and an \`invoke\` method).`,
      );
    }
    if (key !== undefined && key !== tool.name) {
      throw new ToolSearchError(
        'TOOL_ID_MISMATCH',
        `The tool under key "${key}" is named "${tool.name}"; the model calls a LangChain tool by its name, so the key must be "${tool.name}".`,
      );
    }
    return toCatalogEntry(tool);
  });
}
