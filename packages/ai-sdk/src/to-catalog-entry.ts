import { type CatalogEntry, type JsonSchema, type ToolDescriptor, ToolSearchError } from '@tool-search/core';
import { asSchema, type Tool, type ToolSet } from 'ai';

/** The own entries of a tool record, checked to be objects. */
export function ownTools(record: ToolSet, label: string): Array<[string, Tool]> {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `\`${label}\` must be an object of AI SDK tools keyed by name.`,
    );
  }
  return Object.entries(record).map(([name, tool]) => {
    if (tool === null || typeof tool !== 'object') {
      throw new ToolSearchError('INVALID_OPTIONS', `\`${label}.${name}\` is not an AI SDK tool.`);
    }
    return [name, tool as Tool];
  });
}

/** An AI SDK tool as the engine sees it: its key, its description, its input's JSON Schema. */
export function toCatalogEntry(name: string, tool: Tool): CatalogEntry<Tool> {
  const descriptor: { name: string; description?: string; parameters?: JsonSchema } = { name };
  if (typeof tool.description === 'string') descriptor.description = tool.description;
  const parameters = inputJsonSchema(tool);
  if (parameters !== undefined) descriptor.parameters = parameters;
  return { descriptor: descriptor as ToolDescriptor, tool };
}

/** The input's JSON Schema when it is available synchronously (Zod, Standard Schema, jsonSchema()). */
function inputJsonSchema(tool: Tool): JsonSchema | undefined {
  if (tool.inputSchema == null) return undefined;
  try {
    const schema = asSchema(tool.inputSchema).jsonSchema;
    if (
      schema === null ||
      typeof schema !== 'object' ||
      typeof (schema as PromiseLike<unknown>).then === 'function'
    ) {
      return undefined;
    }
    return schema as JsonSchema;
  } catch {
    return undefined; // a schema that cannot be converted is still searchable by name and description
  }
}
