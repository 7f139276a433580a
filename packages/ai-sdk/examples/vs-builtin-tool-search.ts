/**
 * Side by side: the AI SDK's built-in `toolSearch()` and `@tool-search/ai-sdk`, on the same
 * two-turn conversation, driven by the same scripted model (no API key needed).
 *
 *   pnpm --filter @tool-search/ai-sdk exec tsx --conditions=@tool-search/source examples/vs-builtin-tool-search.ts
 *
 * The model acts on what it is sent: it calls the forecast tool when it has it, and searches
 * when it does not. The built-in search forgets what it found when a generateText call ends,
 * so the second turn starts with the search tool alone and must search again. Ours keeps what
 * the thread loaded, so the second turn starts with the forecast tool and calls it at once.
 */
import { pathToFileURL } from 'node:url';
import { createToolSearch } from '@tool-search/ai-sdk';
import { generateText, isStepCount, type ModelMessage, type Tool, tool, toolSearch } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';

type CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;

export interface TurnReport {
  /** The tool names the model was sent at each step of the turn. */
  readonly toolsPerStep: string[][];
  /** Model calls the turn took. */
  readonly steps: number;
  /** Tool definitions sent over the whole turn. */
  readonly definitionsSent: number;
}

export interface ComparisonReport {
  readonly builtin: TurnReport[];
  readonly ours: TurnReport[];
}

const NEED = 'getForecast';
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A model that calls the forecast tool when it has it, and searches for it when it does not. */
function forecastSeekingModel(city: () => string) {
  const seen: string[][] = [];
  let id = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async (options: CallOptions): Promise<GenerateResult> => {
      const tools = (options.tools ?? []).map((entry) => entry.name);
      seen.push(tools);
      const last = options.prompt.at(-1);
      const lastResult = last?.role === 'tool' ? last.content.at(-1) : undefined;
      const toolCall = (toolName: string, input: unknown): GenerateResult => ({
        content: [{ type: 'tool-call', toolCallId: `call-${++id}`, toolName, input: JSON.stringify(input) }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      });
      if (lastResult?.type === 'tool-result' && lastResult.toolName === NEED) {
        return {
          content: [{ type: 'text', text: `Rain tomorrow in ${city()}.` }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        };
      }
      if (tools.includes(NEED)) return toolCall(NEED, { city: city() });
      const searchTool = tools.includes('search_tools') ? 'search_tools' : 'search';
      return toolCall(searchTool, { query: 'weather forecast' });
    },
  });
  return { model, seen };
}

function weatherTools(deferLoading: boolean): Record<string, Tool> {
  const make = (description: string, result: (city: string) => unknown) =>
    tool({
      deferLoading,
      description,
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => result(city),
    });
  return {
    getForecast: make('Get the weather forecast for the next days for a city.', (city) => ({
      city,
      rain: true,
    })),
    getAirQuality: make('Get the air quality index for a city.', (city) => ({ city, aqi: 42 })),
    bookFlight: make('Book a flight to a city.', (city) => ({ city, booked: true })),
  };
}

async function twoTurns(
  run: (messages: ModelMessage[], model: MockLanguageModelV4) => Promise<ModelMessage[]>,
): Promise<TurnReport[]> {
  const turns = ['Will it rain in Rome tomorrow?', 'And in Oslo?'];
  const cities = ['Rome', 'Oslo'];
  let turn = 0;
  const { model, seen } = forecastSeekingModel(() => cities[turn]!);
  const reports: TurnReport[] = [];
  let history: ModelMessage[] = [];
  for (; turn < turns.length; turn++) {
    const before = seen.length;
    history = [...history, { role: 'user', content: turns[turn]! }];
    history = [...history, ...(await run(history, model))];
    const toolsPerStep = seen.slice(before);
    reports.push({
      toolsPerStep,
      steps: toolsPerStep.length,
      definitionsSent: toolsPerStep.reduce((sum, tools) => sum + tools.length, 0),
    });
  }
  return reports;
}

/** Runs the same two-turn conversation with the built-in toolSearch() and with ours. */
export async function runComparison(): Promise<ComparisonReport> {
  const builtin = await twoTurns(async (messages, model) => {
    const result = await generateText({
      model,
      tools: { search: toolSearch(), ...weatherTools(true) },
      stopWhen: isStepCount(6),
      messages,
    });
    return result.responseMessages;
  });

  // autoLoad, like the built-in search: what a search finds is callable from the next step.
  const ours = createToolSearch({ tools: weatherTools(false), search: { autoLoad: true } });
  const oursReport = await twoTurns(async (messages, model) => {
    const result = await generateText({
      model,
      ...ours.forCall({ threadId: 'conversation-1' }),
      stopWhen: isStepCount(6),
      messages,
    });
    return result.responseMessages;
  });
  await ours.dispose();
  return { builtin, ours: oursReport };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await runComparison();
  for (const [system, turns] of Object.entries(report)) {
    console.log(system === 'builtin' ? 'AI SDK toolSearch()' : '@tool-search/ai-sdk');
    turns.forEach((turn: TurnReport, index: number) => {
      console.log(
        `  turn ${index + 1}: ${turn.steps} model calls, ${turn.definitionsSent} tool definitions sent; ` +
          `tools per step: ${turn.toolsPerStep.map((tools) => `[${tools.join(', ')}]`).join(' ')}`,
      );
    });
  }
}
