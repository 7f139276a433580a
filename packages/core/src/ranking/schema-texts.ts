/** Bounds on what is read of a parameter schema: deep or huge (or cyclic) schemas stop here. */
const MAX_SCHEMA_DEPTH = 8;
const MAX_SCHEMA_TEXTS = 500;

type SchemaNode = {
  readonly title?: unknown;
  readonly description?: unknown;
  readonly enum?: unknown;
  readonly properties?: unknown;
  readonly items?: unknown;
  readonly additionalProperties?: unknown;
  readonly anyOf?: unknown;
  readonly oneOf?: unknown;
  readonly allOf?: unknown;
  readonly prefixItems?: unknown;
};

interface Walk {
  readonly emit: (text: string) => void;
  remaining: number;
}

function say(walk: Walk, text: string): void {
  if (walk.remaining-- > 0) walk.emit(text);
}

function visit(walk: Walk, node: unknown, depth: number): void {
  if (typeof node !== 'object' || node === null || depth > MAX_SCHEMA_DEPTH || walk.remaining <= 0) return;
  if (Array.isArray(node)) {
    for (const item of node) visit(walk, item, depth + 1);
    return;
  }
  const schema = node as SchemaNode;
  if (typeof schema.title === 'string') say(walk, schema.title);
  if (typeof schema.description === 'string') say(walk, schema.description);
  if (Array.isArray(schema.enum)) {
    for (const value of schema.enum) if (typeof value === 'string') say(walk, value);
  }
  const properties = schema.properties;
  if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
    for (const name of Object.keys(properties)) {
      say(walk, name);
      visit(walk, (properties as Record<string, unknown>)[name], depth + 1);
    }
  }
  visit(walk, schema.items, depth + 1);
  visit(walk, schema.additionalProperties, depth + 1);
  visit(walk, schema.anyOf, depth + 1);
  visit(walk, schema.oneOf, depth + 1);
  visit(walk, schema.allOf, depth + 1);
  visit(walk, schema.prefixItems, depth + 1);
}

/**
 * Calls `emit` with what a JSON Schema says about a tool's inputs: property names, titles and
 * descriptions, string enum values, through nested objects, arrays and combinators. Bounded in
 * depth and count, so a cyclic schema ends; a schema that is not an object gives nothing.
 */
export function forEachSchemaText(schema: unknown, emit: (text: string) => void): void {
  visit({ emit, remaining: MAX_SCHEMA_TEXTS }, schema, 0);
}

/** The texts of {@link forEachSchemaText}, as a list. */
export function schemaTexts(schema: unknown): string[] {
  const texts: string[] = [];
  forEachSchemaText(schema, (text) => texts.push(text));
  return texts;
}
