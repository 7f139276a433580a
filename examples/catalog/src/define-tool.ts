import type { z } from 'zod';

/** The input schema of every example tool: a zod object (what MCP servers and the frameworks expect). */
export type ExampleToolInput = z.ZodObject;

/**
 * One tool of the example catalog: what a framework needs to wrap it (name, description, zod
 * input schema) plus a deterministic local executor that stands in for the real service.
 */
export interface ExampleTool<TInput extends ExampleToolInput = ExampleToolInput, TOutput = unknown> {
  /** snake_case, unique across the catalog. */
  readonly name: string;
  /** One or two honest sentences, as the model would read them. */
  readonly description: string;
  /** The domain first (`'payments'`), then finer areas (`'stripe'`, `'refunds'`). */
  readonly tags: readonly string[];
  /** The domain id, which is also `tags[0]`. */
  readonly domain: string;
  readonly input: TInput;
  /**
   * The local executor: no network, no clock, no randomness except seeded by the input, so the
   * same input always gives the same result. Expects input already parsed by `input`; use
   * `runExampleTool` to parse and run raw arguments.
   */
  execute(input: z.output<TInput>): TOutput;
}

export interface DefineToolOptions<TInput extends ExampleToolInput, TOutput> {
  readonly name: string;
  readonly description: string;
  /** The domain first. */
  readonly tags: readonly [string, ...string[]];
  readonly input: TInput;
  readonly execute: (input: z.output<TInput>) => TOutput;
}

/** Declares one example tool. Its executor's argument type is inferred from the zod input. */
export function defineTool<TInput extends ExampleToolInput, TOutput>(
  options: DefineToolOptions<TInput, TOutput>,
): ExampleTool<TInput, TOutput> {
  const { name, description, tags, input, execute } = options;
  return {
    name,
    description,
    tags,
    domain: tags[0],
    input,
    execute(parsed) {
      return execute(parsed);
    },
  };
}
