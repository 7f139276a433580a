import { createTool } from '@mastra/core/tools';
import type { JsonSchema, MetaToolCallOptions, MetaToolDefinition } from '@tool-search/core';

/**
 * A Standard Schema that carries the core's JSON Schema for the model and lets
 * every value through: the engine validates a meta-tool's input itself and
 * answers a malformed call with a result that tells the model what to send,
 * instead of Mastra's generic validation error.
 */
export function modelFacingSchema(jsonSchema: JsonSchema) {
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'tool-search',
      validate: (value: unknown) => ({ value }),
      jsonSchema: {
        input: () => jsonSchema as Record<string, unknown>,
        output: () => jsonSchema as Record<string, unknown>,
      },
    },
  };
}

/**
 * A meta-tool definition from the core, wrapped as a Mastra tool that runs `run`, handing it the
 * run's abort signal: aborting the run ends a slow search or load at once. `toModelOutput` shapes
 * what the model is sent of the result (native mode: Anthropic's tool references).
 */
export function createMetaTool(
  definition: MetaToolDefinition,
  run: (input: unknown, options: MetaToolCallOptions) => Promise<unknown>,
  toModelOutput?: (output: unknown) => unknown,
) {
  return createTool({
    id: definition.name,
    description: definition.description,
    inputSchema: modelFacingSchema(definition.inputSchema) as never,
    execute: async (input: unknown, context) => run(input, { signal: context?.abortSignal }),
    ...(toModelOutput ? { toModelOutput: toModelOutput as never } : {}),
  });
}
