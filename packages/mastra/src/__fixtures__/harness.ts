import { Agent } from '@mastra/core/agent';
import type { Processor } from '@mastra/core/processors';
import { MockLanguageModelV4 } from 'ai/test';

process.env.MASTRA_TELEMETRY_DISABLED ??= '1';

type LanguageModelV4CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];

/** One model turn: call some tools, or answer with text (which ends the generate/stream call). */
export type Move = { readonly call: readonly ToolCall[] } | { readonly text: string };
export interface ToolCall {
  readonly tool: string;
  readonly input: unknown;
}

export const call = (tool: string, input: unknown = {}): Move => ({ call: [{ tool, input }] });
export const calls = (...list: ToolCall[]): Move => ({ call: list });
export const say = (text = 'done'): Move => ({ text });

const META_TOOLS = new Set(['search_tools', 'load_tool']);
/** Calls the first tool the model was sent that is not a meta-tool (whatever name it was sent under). */
export const callFirstLoaded =
  (input: unknown) =>
  ({ tools }: ModelCall): Move => {
    const name = tools.find((tool) => !META_TOOLS.has(tool));
    return name ? call(name, input) : say('nothing loaded');
  };

/** A move chosen from what the model was sent (tool names, prompt). */
export type Script = readonly (Move | ((seen: ModelCall) => Move))[];

export interface ModelCall {
  readonly tools: readonly string[];
  readonly prompt: LanguageModelV4CallOptions['prompt'];
}

/** A tool as the model was sent it: the fields the tests read. */
export interface SentTool {
  readonly type: string;
  readonly name: string;
  readonly providerOptions: unknown;
}

/** Tool call ids are unique across every model of a test run, as a provider's are. */
let toolCallCounter = 0;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/**
 * A real `MockLanguageModelV4` that plays a script, one move per model call,
 * and records the tool names it was sent at every call. `generate` goes through
 * `doGenerate`, `stream` through `doStream`; both play the same script.
 */
export function scriptedModel(script: Script = []) {
  const queue = [...script];
  const steps: string[][] = [];
  const definitions: SentTool[][] = [];

  const next = (options: LanguageModelV4CallOptions) => {
    const tools = (options.tools ?? []).map((tool) => tool.name);
    steps.push(tools);
    definitions.push(
      (options.tools ?? []).map((tool) => ({
        type: tool.type,
        name: tool.name,
        providerOptions: 'providerOptions' in tool ? tool.providerOptions : undefined,
      })),
    );
    const planned = queue.shift() ?? say('script finished');
    const move = typeof planned === 'function' ? planned({ tools, prompt: options.prompt }) : planned;
    if ('text' in move) {
      return {
        content: [{ type: 'text' as const, text: move.text }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
      };
    }
    return {
      content: move.call.map((item, index) => ({
        type: 'tool-call' as const,
        toolCallId: `call-${++toolCallCounter}-${index}`,
        toolName: item.tool,
        input: JSON.stringify(item.input),
      })),
      finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
    };
  };

  const model = new MockLanguageModelV4({
    doGenerate: async (options) => ({ ...next(options), usage, warnings: [] }),
    doStream: async (options) => {
      const { content, finishReason } = next(options);
      const parts: unknown[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of content) {
        if (part.type === 'text') {
          parts.push(
            { type: 'text-start', id: 'text' },
            { type: 'text-delta', id: 'text', delta: part.text },
            { type: 'text-end', id: 'text' },
          );
        } else parts.push(part);
      }
      parts.push({ type: 'finish', finishReason, usage });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      } as never;
    },
  });

  return {
    model,
    /** Tool names sent at each model call, over every generate/stream call so far. */
    steps,
    /** The tools as sent at each model call (name, schema, provider options). */
    definitions,
    /** Adds moves to the script (for the next generate/stream call). */
    play(...moves: Script) {
      queue.push(...moves);
    },
    /** Forgets the recorded steps (between generate calls). */
    resetSteps() {
      steps.length = 0;
    },
  };
}

export type ScriptedModel = ReturnType<typeof scriptedModel>;

/** A step's tool list must be a prefix of the next one's (tools already sent keep their place). */
export function isPrefixChain(steps: readonly (readonly string[])[]): boolean {
  for (let index = 1; index < steps.length; index++) {
    const previous = steps[index - 1]!;
    const current = steps[index]!;
    if (previous.some((name, position) => current[position] !== name)) return false;
  }
  return true;
}

export interface ToolRun {
  readonly toolName: string;
  readonly args: unknown;
  readonly result: unknown;
}

export function toolRuns(results: readonly unknown[]): ToolRun[] {
  return results.map((chunk) => {
    const payload = ((chunk as { payload?: unknown }).payload ?? chunk) as Record<string, unknown>;
    return { toolName: String(payload.toolName), args: payload.args, result: payload.result };
  });
}

export interface AgentSetup {
  readonly processors: readonly Processor[];
  // biome-ignore lint/suspicious/noExplicitAny: an agent's tools (static record or dynamic function), as Mastra types them.
  readonly tools?: any;
  // biome-ignore lint/suspicious/noExplicitAny: Mastra's memory instance.
  readonly memory?: any;
  readonly script?: Script;
}

/** A real Mastra Agent on a scripted model, with the given input processors. */
export function createAgent(setup: AgentSetup) {
  const scripted = scriptedModel(setup.script);
  const agent = new Agent({
    id: 'tool-search-test-agent',
    name: 'tool-search-test-agent',
    instructions: 'You are a test agent.',
    model: scripted.model as never,
    tools: setup.tools ?? {},
    memory: setup.memory,
    inputProcessors: [...setup.processors] as never,
  });
  return { agent, ...scripted };
}

export type Mode = 'generate' | 'stream';

export interface RunResult {
  readonly text: string;
  readonly toolRuns: ToolRun[];
  // biome-ignore lint/suspicious/noExplicitAny: Mastra's response messages.
  readonly messages: any[];
}

/** Runs one generate or stream call to its end. */
export async function run(
  agent: Agent,
  mode: Mode,
  input: Parameters<Agent['generate']>[0],
  // biome-ignore lint/suspicious/noExplicitAny: Mastra's execution options.
  options: any = {},
): Promise<RunResult> {
  const all = { maxSteps: 10, ...options };
  if (mode === 'generate') {
    const result = await agent.generate(input, all);
    return {
      text: result.text,
      toolRuns: toolRuns(result.toolResults ?? []),
      messages: (result.response?.dbMessages ?? []) as never,
    };
  }
  const stream = await agent.stream(input, all);
  const output = await stream.getFullOutput();
  return {
    text: output.text,
    toolRuns: toolRuns(output.toolResults ?? []),
    messages: (output.response?.dbMessages ?? []) as never,
  };
}
