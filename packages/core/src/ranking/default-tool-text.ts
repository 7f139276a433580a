/**
 * The texts the hybrid ranker embeds: a tool's default text (name, description, tags,
 * parameter names and their enum values), and a request without its quoted values.
 */
import type { ToolDescriptor } from '../types';

/** Parameter names taken from a schema for the default tool text. */
const MAX_PARAMETER_NAMES = 32;
/** String enum values taken per parameter (its own, or its array items'), and per tool, for the default tool text. */
const MAX_ENUM_VALUES_PER_PARAMETER = 8;
const MAX_ENUM_VALUES = 16;
/**
 * A quoted value in a request ('latte', "Shape of You", `main.py`): a quote that opens after
 * the start, a space or an opening bracket, `:`, `,` or `=`, and closes before the end, a space,
 * a closing bracket or punctuation (so the apostrophes of "don't … it's" are not quotes).
 */
const QUOTED_VALUE = /(^|[\s([{:,=])(['"`])([^'"`\n]{1,200}?)\2(?=$|[\s)\]}.,;:!?])/g;

/** The string enum values of a parameter's schema and of its array items' schema. */
function enumValues(parameter: unknown, into: string[]): void {
  if (typeof parameter !== 'object' || parameter === null) return;
  const items = (parameter as { items?: unknown }).items;
  for (const schema of [parameter, typeof items === 'object' && items !== null ? items : undefined]) {
    const values = (schema as { enum?: unknown } | undefined)?.enum;
    if (!Array.isArray(values)) continue;
    let taken = 0;
    for (const value of values) {
      if (taken === MAX_ENUM_VALUES_PER_PARAMETER || into.length === MAX_ENUM_VALUES) break;
      if (typeof value === 'string') {
        into.push(value);
        taken++;
      }
    }
  }
}

/**
 * A request's text as embedded: without its quoted values ('latte', "Shape of You"), which are
 * arguments for a tool rather than what the request asks for (the lexical ranking still reads
 * them). A text that is nothing but quoted values is kept whole.
 */
export function withoutQuotedValues(text: string): string {
  if (!/['"`]/.test(text)) return text;
  const stripped = text.replace(QUOTED_VALUE, '$1 ');
  return stripped.trim().length > 0 ? stripped : text;
}

/**
 * The default text of a tool: name, description, tags, top-level parameter names and their
 * string enum values (at most 8 per parameter, 16 per tool).
 */
export function defaultToolText(tool: ToolDescriptor): string {
  const parts: string[] = [];
  if (typeof tool.name === 'string') parts.push(tool.name);
  if (typeof tool.description === 'string') parts.push(tool.description);
  if (Array.isArray(tool.tags)) {
    for (const tag of tool.tags) if (typeof tag === 'string') parts.push(tag);
  }
  const parameters: unknown = tool.parameters;
  if (typeof parameters === 'object' && parameters !== null && Object.hasOwn(parameters, 'properties')) {
    const properties = (parameters as { properties?: unknown }).properties;
    if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
      const names = Object.keys(properties).slice(0, MAX_PARAMETER_NAMES);
      parts.push(names.join(' '));
      const values: string[] = [];
      for (const name of names) {
        if (values.length === MAX_ENUM_VALUES) break;
        enumValues((properties as Record<string, unknown>)[name], values);
      }
      if (values.length > 0) parts.push(values.join(' '));
    }
  }
  return parts.join('. ');
}
