import { tool } from '@langchain/core/tools';
import type { fakeModel } from 'langchain';
import type { LangChainTool } from '../options';

/** Every execution of a fixture tool, in order: name and arguments. */
export interface ExecutionLog {
  readonly calls: { name: string; input: unknown }[];
  count(name: string): number;
}

export function createExecutionLog(): ExecutionLog {
  const calls: { name: string; input: unknown }[] = [];
  return { calls, count: (name) => calls.filter((call) => call.name === name).length };
}

/** A LangChain tool with a JSON Schema input that records its executions and answers `name(input)`. */
export function recordingTool(
  log: ExecutionLog,
  name: string,
  description: string,
  properties: Record<string, { type: string; description?: string }> = {},
): LangChainTool {
  return tool(
    async (input: unknown) => {
      log.calls.push({ name, input });
      return `${name} ran with ${JSON.stringify(input)}`;
    },
    { name, description, schema: { type: 'object', properties } },
  );
}

/** A small catalog in which each query below finds exactly one tool first. */
export function createCatalog(log: ExecutionLog): LangChainTool[] {
  return [
    recordingTool(log, 'get_weather', 'Get the current weather forecast for a city', {
      city: { type: 'string' },
    }),
    recordingTool(log, 'send_email', 'Send an email message to a recipient', { to: { type: 'string' } }),
    recordingTool(log, 'create_ticket', 'Create a support ticket in the issue tracker', {
      title: { type: 'string' },
    }),
    recordingTool(log, 'convert_currency', 'Convert an amount of money between currencies', {
      amount: { type: 'number' },
    }),
    recordingTool(log, 'book_flight', 'Book a flight to a destination airport', { to: { type: 'string' } }),
  ];
}

type FakeModel = ReturnType<typeof fakeModel>;

/**
 * Records the names of the tools LangChain binds to the model for each call: `createAgent` and
 * the binder call the model's own `bindTools` once per model call, with exactly what is sent.
 */
export function recordBoundTools(model: FakeModel): string[][] {
  const bound: string[][] = [];
  recordBoundDefinitions(model, (tools) => {
    // A LangChain tool has a name; a function definition (a structured-output tool) names its
    // function; a provider's tool spec has a type.
    bound.push(tools.map((entry) => entry.name ?? entry.function?.name ?? entry.type ?? '?'));
  });
  return bound;
}

/** What a bound tool may be: a LangChain tool, a function definition, a provider's tool spec. */
export interface BoundTool {
  readonly name?: string;
  readonly type?: string;
  readonly function?: { name?: string };
  readonly extras?: unknown;
}

/** The tools LangChain binds to the model for each call, as given to `bindTools`. */
export function recordBoundDefinitions(
  model: FakeModel,
  onBind: (tools: BoundTool[]) => void = () => {},
): BoundTool[][] {
  const bound: BoundTool[][] = [];
  const bindTools = model.bindTools.bind(model);
  model.bindTools = ((tools: BoundTool[]) => {
    bound.push(tools);
    onBind(tools);
    return bindTools(tools as Parameters<FakeModel['bindTools']>[0]);
  }) as FakeModel['bindTools'];
  return bound;
}
