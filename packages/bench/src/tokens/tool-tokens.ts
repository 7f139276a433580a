import type { JsonSchema } from '@tool-search/core';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/** A tool definition as a framework hands it to the provider: name, description, JSON Schema. */
export interface SentTool {
  readonly name: string;
  readonly description?: string;
  /** The input schema (`parameters` in a descriptor, `inputSchema` in a model call). */
  readonly parameters?: JsonSchema;
}

/** The definition in OpenAI's function-tool format, as the request body carries it. */
export function toOpenAIFunction(tool: SentTool) {
  return {
    type: 'function' as const,
    function: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.parameters ?? { type: 'object', properties: {} },
    },
  };
}

/** Tokens of a text with o200k_base (the GPT-4o / GPT-5 family's encoding). */
export function countTextTokens(text: string): number {
  return text.length === 0 ? 0 : countTokens(text);
}

/** Tokens of one definition serialised as JSON in OpenAI's function-tool format. */
export function countToolTokens(tool: SentTool): number {
  return countTextTokens(JSON.stringify(toOpenAIFunction(tool)));
}

/** Tokens of the definitions sent with one request (the sum over the tools). */
export function countToolsTokens(tools: readonly SentTool[]): number {
  return tools.reduce((sum, tool) => sum + countToolTokens(tool), 0);
}
