import { type MetaToolDefinition, withFields, withoutDeferLoading } from '@tool-search/core';
import { jsonSchema, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';

/** A core meta-tool definition wrapped as an AI SDK tool (never redefined here). */
export function toMetaTool(
  definition: MetaToolDefinition,
  execute: (input: unknown, options: ToolExecutionOptions<unknown>) => unknown,
): Tool {
  return {
    description: definition.description,
    // No validation here: the engine checks what the model sends and answers with a clear message.
    inputSchema: jsonSchema(definition.inputSchema as Parameters<typeof jsonSchema>[0]),
    execute,
  } as Tool;
}

/** A copy of the tool whose `execute` is replaced; tools without one are kept. */
export function withExecute(tool: Tool, execute: unknown): Tool {
  if (typeof tool.execute !== 'function' || typeof execute !== 'function') return tool;
  return withFields(tool, { execute } as Partial<Tool>);
}

/**
 * The tool as tool search sends it once loaded: without the AI SDK's own `deferLoading: true`
 * (which makes the SDK hold the tool back until its built-in `toolSearch()` finds it, so a
 * loaded tool would never be sent) and without a provider's (`providerOptions.anthropic.deferLoading`,
 * `providerOptions.openai.deferLoading`), which would hide it again behind the provider's own
 * tool search.
 */
export function sentAsLoaded(tool: Tool): Tool {
  const providerOptions = withoutDeferLoading(tool.providerOptions);
  const fields: Partial<Tool> = {};
  if (providerOptions) fields.providerOptions = providerOptions as Tool['providerOptions'];
  if (tool.deferLoading === true) fields.deferLoading = false;
  return Object.keys(fields).length > 0 ? withFields(tool, fields) : tool;
}

/** A tool set (own properties only: a tool may be named `__proto__`). */
export function toToolSet(entries: Iterable<readonly [string, Tool]>): ToolSet {
  const set: ToolSet = {};
  for (const [name, tool] of entries) {
    if (name === '__proto__') {
      Object.defineProperty(set, name, { value: tool, enumerable: true, writable: true, configurable: true });
    } else set[name] = tool;
  }
  return set;
}

/**
 * The tool's result as the SDK reads it, with `onSuccess` run once it has succeeded: a value at
 * once, a promise once it resolves, an async iterable (a streaming tool) once it ends without
 * error. A rejection, a throw in the stream or a stream left early runs nothing, and reaches the
 * SDK unchanged.
 */
export function afterSuccess(result: unknown, onSuccess: () => void): unknown {
  if ((typeof result === 'object' && result !== null) || typeof result === 'function') {
    if (typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
      return streamThenSucceed(result as AsyncIterable<unknown>, onSuccess);
    }
    if (typeof (result as PromiseLike<unknown>).then === 'function') {
      return Promise.resolve(result).then((value) => {
        onSuccess();
        return value;
      });
    }
  }
  onSuccess();
  return result;
}

async function* streamThenSucceed(stream: AsyncIterable<unknown>, onSuccess: () => void) {
  // yield* hands the SDK's next, return and throw to the tool's own stream.
  const last = yield* stream;
  onSuccess();
  return last;
}

/** The last value of an async iterable (a streaming tool's final output), or the value itself. */
export async function lastValue(result: unknown): Promise<unknown> {
  if (result === null || typeof result !== 'object' || !(Symbol.asyncIterator in result)) return result;
  let last: unknown;
  for await (const value of result as AsyncIterable<unknown>) last = value;
  return last;
}
