/** Bounds on what is read of a parameter schema: deep or huge (or cyclic) schemas stop here. */
const MAX_SCHEMA_DEPTH = 8;
const MAX_SCHEMA_TEXTS = 500;

/** Receives the texts of {@link forEachSchemaText}. */
export interface SchemaTextSink {
  schemaText(text: string): void;
}

interface Walk {
  readonly sink: SchemaTextSink;
  remaining: number;
}

function say(walk: Walk, text: string): void {
  if (walk.remaining-- > 0) walk.sink.schemaText(text);
}

/**
 * One pass over the node's own keys (schemas differ in shape, so reading every possible key
 * by name would mostly be misses): texts first, then nested schemas, in key order.
 */
function visit(walk: Walk, node: unknown, depth: number): void {
  if (typeof node !== 'object' || node === null || depth > MAX_SCHEMA_DEPTH || walk.remaining <= 0) return;
  if (Array.isArray(node)) {
    for (const item of node) visit(walk, item, depth + 1);
    return;
  }
  const schema = node as Record<string, unknown>;
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    switch (key) {
      case 'title':
      case 'description':
        if (typeof value === 'string') say(walk, value);
        break;
      case 'enum':
        if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') say(walk, item);
        break;
      case 'properties':
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
          const properties = value as Record<string, unknown>;
          for (const name of Object.keys(properties)) {
            say(walk, name);
            visit(walk, properties[name], depth + 1);
          }
        }
        break;
      case 'items':
      case 'additionalProperties':
      case 'anyOf':
      case 'oneOf':
      case 'allOf':
      case 'prefixItems':
        visit(walk, value, depth + 1);
        break;
    }
  }
}

/**
 * Hands `sink` what a JSON Schema says about a tool's inputs: property names, titles and
 * descriptions, string enum values, through nested objects, arrays and combinators. Bounded in
 * depth and count, so a cyclic schema ends; a schema that is not an object gives nothing.
 */
export function forEachSchemaText(schema: unknown, sink: SchemaTextSink): void {
  visit({ sink, remaining: MAX_SCHEMA_TEXTS }, schema, 0);
}

/** The texts of {@link forEachSchemaText}, as a list. */
export function schemaTexts(schema: unknown): string[] {
  const texts: string[] = [];
  forEachSchemaText(schema, { schemaText: (text) => texts.push(text) });
  return texts;
}
