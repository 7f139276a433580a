/**
 * Token counts of tool definitions, as a model provider receives them: each tool serialised in
 * OpenAI's function-tool format (`{"type":"function","function":{name, description, parameters}}`)
 * and encoded with `gpt-tokenizer` (o200k_base, the GPT-4o / GPT-5 family's encoding).
 */
import { countTokens } from 'gpt-tokenizer';
import { exampleTools, type JsonSchemaObject, toToolDescriptor } from './catalog';

/** A tool definition: a descriptor (`parameters`) or a meta-tool definition (`inputSchema`). */
export interface ToolDefinitionForTokens {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: JsonSchemaObject;
  readonly inputSchema?: JsonSchemaObject;
}

export interface OpenAIFunctionTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters: JsonSchemaObject;
  };
}

/** The definition in OpenAI's function-tool format (an empty object schema when it has none). */
export function toOpenAIFunctionTool(definition: ToolDefinitionForTokens): OpenAIFunctionTool {
  const parameters = definition.parameters ?? definition.inputSchema ?? { type: 'object', properties: {} };
  return {
    type: 'function',
    function: {
      name: definition.name,
      ...(definition.description ? { description: definition.description } : {}),
      parameters,
    },
  };
}

/** Tokens of a text (o200k_base). */
export function countTextTokens(text: string): number {
  return countTokens(text);
}

const cache = new Map<string, number>();
const cacheLimit = 4096;

/** Tokens of one definition serialised as JSON in OpenAI's function-tool format. */
export function countToolTokens(definition: ToolDefinitionForTokens): number {
  const serialised = JSON.stringify(toOpenAIFunctionTool(definition));
  let tokens = cache.get(serialised);
  if (tokens === undefined) {
    tokens = countTokens(serialised);
    if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value as string);
    cache.set(serialised, tokens);
  }
  return tokens;
}

/** Tokens of a set of definitions as sent with one request (the sum over the tools). */
export function countToolDefinitionTokens(definitions: readonly ToolDefinitionForTokens[]): number {
  let total = 0;
  for (const definition of definitions) total += countToolTokens(definition);
  return total;
}

/** Tokens of the whole example catalog's definitions: what one request costs without tool search. */
export function countExampleCatalogTokens(): number {
  return countToolDefinitionTokens(exampleTools.map(toToolDescriptor));
}
