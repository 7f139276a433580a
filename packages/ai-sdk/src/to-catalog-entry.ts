import { type CatalogEntry, type JsonSchema, type ToolDescriptor, toolRecord } from '@tool-search/core';
import { asSchema, type Tool, type ToolSet } from 'ai';

/** The own entries of a tool record, checked to be objects. */
export function ownTools(record: ToolSet, label: string): Array<[string, Tool]> {
  return toolRecord(record, label, 'AI SDK tools') as Array<[string, Tool]>;
}

/** An AI SDK tool as the engine sees it: its key, its description, its input's JSON Schema. */
export function toCatalogEntry(name: string, tool: Tool): CatalogEntry<Tool> {
  const descriptor: { name: string; description?: string; parameters?: JsonSchema } = { name };
  const description = descriptionText(tool);
  if (description !== undefined) descriptor.description = description;
  const parameters = inputJsonSchema(tool);
  if (parameters !== undefined) descriptor.parameters = parameters;
  return { descriptor: descriptor as ToolDescriptor, tool };
}

/**
 * The tool's description as text. AI SDK 7 allows a function of the call's tool context
 * (`({ context, experimental_sandbox }) => string`); the catalog is indexed before any call, so it
 * is called once with no context. One that throws (it needs the context) or answers anything but
 * a string leaves the tool without a description: searchable by its name and input schema only.
 */
function descriptionText(tool: Tool): string | undefined {
  const description: unknown = tool.description;
  if (typeof description === 'string') return description;
  if (typeof description !== 'function') return undefined;
  try {
    const text: unknown = description.call(tool, { context: undefined });
    // Not a string: ignored (a promise's rejection too, so that it is not left unhandled).
    if (typeof (text as PromiseLike<unknown> | null)?.then === 'function') {
      Promise.resolve(text).catch(() => {});
    }
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
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
