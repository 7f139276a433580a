import { isStandardSchemaWithJSON, standardSchemaToJSONSchema, toStandardSchema } from '@mastra/core/schema';
import {
  type CatalogEntry,
  isLazyTool,
  type JsonSchema,
  type ToolDescriptor,
  toolRecord,
} from '@tool-search/core';
import { lazyCatalogEntry } from './lazy-tools';

function isObject(value: unknown): value is Record<string, unknown> {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

function isPlainJsonSchema(value: unknown): value is JsonSchema {
  return (
    isObject(value) &&
    typeof value !== 'function' &&
    ('type' in value || 'properties' in value || '$schema' in value) &&
    !('~standard' in value) &&
    !('_def' in value) &&
    !('_zod' in value)
  );
}

const isZod = (value: object) => '_def' in value || '_zod' in value;

/**
 * The JSON Schema of a tool's input, whatever form the tool carries it in: a
 * Mastra tool's `inputSchema` (Zod, a Standard Schema with JSON Schema, or JSON
 * Schema), or the `parameters` of a tool the agent already converted for the
 * request (Zod, or an AI SDK schema holding `jsonSchema`). A schema that cannot
 * be converted is left out: search then sees the name and description only.
 */
export function inputJsonSchema(tool: unknown): JsonSchema | undefined {
  if (!isObject(tool)) return undefined;
  const schema = tool.inputSchema ?? tool.parameters;
  if (!isObject(schema)) return undefined;
  try {
    const carried = (schema as { jsonSchema?: unknown }).jsonSchema;
    if (isPlainJsonSchema(carried)) return carried;
    if (isPlainJsonSchema(schema)) return schema;
    if (!isZod(schema) && !isStandardSchemaWithJSON(schema)) return undefined;
    return standardSchemaToJSONSchema(toStandardSchema(schema as never), { io: 'input' }) as JsonSchema;
  } catch {
    return undefined;
  }
}

/**
 * A descriptor whose `parameters` are converted on first read: the ranker reads
 * them when it indexes (at the first search), so a step that does not search
 * never pays for converting a request's tools.
 */
function describe(name: string, tool: Record<string, unknown>): ToolDescriptor {
  const description = typeof tool.description === 'string' ? tool.description : undefined;
  let parameters: JsonSchema | undefined;
  let converted = false;
  return {
    name,
    ...(description === undefined ? {} : { description }),
    get parameters() {
      if (!converted) {
        parameters = inputJsonSchema(tool);
        converted = true;
      }
      return parameters;
    },
  };
}

const entriesByTool = new WeakMap<object, Map<string, CatalogEntry<unknown>>>();

/** One tool under its key as the engine holds it; the same tool under the same key gives the same entry. */
export function toCatalogEntry(key: string, tool: unknown): CatalogEntry<unknown> {
  if (isLazyTool(tool)) return lazyCatalogEntry(key, tool);
  const identity = isObject(tool) ? tool : undefined;
  const cached = identity ? entriesByTool.get(identity)?.get(key) : undefined;
  if (cached) return cached;
  const fields = identity ?? {};
  const id = fields.id;
  const entry: CatalogEntry<unknown> = {
    descriptor: describe(key, fields),
    tool,
    ...(typeof id === 'string' && id !== key ? { aliases: [id] } : {}),
  };
  if (identity) {
    let byKey = entriesByTool.get(identity);
    if (!byKey) {
      byKey = new Map();
      entriesByTool.set(identity, byKey);
    }
    byKey.set(key, entry);
  }
  return entry;
}

/**
 * A tool record given as an option, checked (the core's {@link toolRecord}): an object (not an
 * array) of Mastra tools keyed by name, each an object.
 */
export function ownTools(record: unknown, label: string): Record<string, object> {
  toolRecord(record, label, 'Mastra tools');
  return record as Record<string, object>;
}

/**
 * Mastra's tools (a record keyed by name) as catalog entries: the key is the
 * canonical name, a different `id` is an alias (Mastra lets the model load a tool
 * by either).
 */
export function toCatalogEntries(
  tools: Readonly<Record<string, unknown>> | undefined,
): CatalogEntry<unknown>[] {
  if (!isObject(tools)) return [];
  return Object.entries(tools).map(([key, tool]) => toCatalogEntry(key, tool));
}
