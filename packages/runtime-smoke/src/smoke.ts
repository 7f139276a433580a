/**
 * The smoke program: what a user of the runtime-neutral packages does, in one run, on whatever
 * runtime loads it (Node, Bun, Deno, workerd, edge-runtime, a browser). It uses no API of any
 * runtime beyond the web platform's, and throws on the first thing that is not as expected.
 */
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { tool as langChainTool } from '@langchain/core/tools';
import { createToolSearch } from '@tool-search/ai-sdk';
import {
  catalogFingerprint,
  createHybridRanker,
  createReceiptSigner,
  createToolIndex,
  LOAD_TOOL_NAME,
  SEARCH_TOOLS_NAME,
  type ToolDescriptor,
} from '@tool-search/core';
import { createToolSearchBinder } from '@tool-search/langchain';
import { createWordVectorEmbedder } from '@tool-search/word-vectors';
import { generateText, isStepCount, jsonSchema, type ModelMessage, type Tool, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { fakeModel } from 'langchain';

export interface SmokeReport {
  /** How many tools the catalog had. */
  readonly tools: number;
  /** Milliseconds each part took, on this runtime. */
  readonly timings: Readonly<Record<string, number>>;
}

const META = [SEARCH_TOOLS_NAME, LOAD_TOOL_NAME];
/** A request no weather tool shares a word with: only the word vectors can find them. */
const UMBRELLA = 'umbrella or sunscreen in Rome';

function check(condition: boolean, message: string, actual?: unknown): asserts condition {
  if (!condition)
    throw new Error(`smoke: ${message}${actual === undefined ? '' : `, got ${JSON.stringify(actual)}`}`);
}

const same = (actual: unknown, expected: unknown) => JSON.stringify(actual) === JSON.stringify(expected);

// A few hundred tools: 6 hand-written ones the checks look for, and 24 subjects × 12 actions.
const SUBJECTS = [
  'invoice',
  'customer',
  'order',
  'shipment',
  'warehouse',
  'employee',
  'payroll',
  'calendar',
  'meeting',
  'document',
  'spreadsheet',
  'playlist',
  'podcast',
  'recipe',
  'garden',
  'vehicle',
  'parking',
  'library',
  'course',
  'ticket',
  'server',
  'database',
  'backup',
  'firewall',
];
const ACTIONS = [
  'create',
  'read',
  'update',
  'delete',
  'list',
  'search',
  'archive',
  'restore',
  'export',
  'import',
  'share',
  'summarize',
];

const cityInput = jsonSchema<{ city: string }>({
  type: 'object',
  properties: { city: { type: 'string', description: 'City name, e.g. "Rome"' } },
  required: ['city'],
  additionalProperties: false,
});
const anyInput = jsonSchema<Record<string, unknown>>({ type: 'object', properties: {} });

function createCatalog(ran: string[]): Record<string, Tool> {
  const tools: Record<string, Tool> = {
    getWeather: tool({
      description: 'Get the current weather conditions (temperature, wind, humidity) for a city.',
      inputSchema: cityInput,
      execute: async ({ city }) => {
        ran.push(`getWeather:${city}`);
        return { city, temperature: 21, conditions: 'sunny' };
      },
    }),
    getForecast: tool({
      description: 'Get the weather forecast for the next days for a city.',
      inputSchema: cityInput,
      execute: async ({ city }) => {
        ran.push(`getForecast:${city}`);
        return { city, forecast: ['rain', 'sun', 'sun'] };
      },
    }),
    send_email: tool({
      description: 'Send an email message to a recipient with a subject and a body.',
      inputSchema: anyInput,
      execute: async () => {
        ran.push('send_email');
        return { sent: true };
      },
    }),
    convert_currency: tool({
      description: 'Convert an amount of money from one currency to another at the current exchange rate.',
      inputSchema: anyInput,
      execute: async () => ({ amount: 1 }),
    }),
    book_flight: tool({
      description: 'Book a plane ticket between two airports on a date.',
      inputSchema: anyInput,
      execute: async () => ({ booked: true }),
    }),
    translate_text: tool({
      description: 'Translate a text into another language.',
      inputSchema: anyInput,
      execute: async () => ({ text: '' }),
    }),
  };
  for (const subject of SUBJECTS) {
    for (const action of ACTIONS) {
      tools[`${action}_${subject}`] = tool({
        description: `${action[0]!.toUpperCase()}${action.slice(1)} a ${subject} record in the ${subject} service.`,
        inputSchema: anyInput,
        execute: async () => ({ ok: true }),
      });
    }
  }
  return tools;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

type Turn = readonly { readonly toolName: string; readonly input: unknown }[] | string;

/** The AI SDK's mock model answering from a script; records the tool names sent at each step. */
function scriptedModel(turns: readonly Turn[]) {
  const toolsPerStep: string[][] = [];
  let nextId = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      toolsPerStep.push((options.tools ?? []).map((sent) => sent.name));
      const turn = turns[toolsPerStep.length - 1];
      check(turn !== undefined, `the script has no turn ${toolsPerStep.length - 1}`);
      if (typeof turn === 'string') {
        return {
          content: [{ type: 'text', text: turn }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        };
      }
      return {
        content: turn.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: `call-${++nextId}`,
          toolName: call.toolName,
          input: JSON.stringify(call.input),
        })),
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  return { model, toolsPerStep };
}

/** Signed by `node:crypto` before the engine hashed with @noble/hashes (see crypto.test.ts in core). */
function checkFixedReceipts(): void {
  const fingerprint = catalogFingerprint(['get_weather', 'search_flights', 'météo', 'ticket_\u{1F3AB}']);
  check(fingerprint === '4bqOuK1ucHy66nvTiIaR057t19Qws2hIsWL_BPO9NMQ', 'catalog fingerprint', fingerprint);
  const signer = createReceiptSigner('correct horse battery staple', { catalogFingerprint: fingerprint });
  const grant = { success: true, toolName: 'get_weather', loaded: ['get_weather'], alreadyLoaded: [] };
  const receipt = 'v2.7Tr0pKsRVA6vg9PVCjZ4SQTYwRtkOhVw1JiCvLiTr6w';
  check(signer.sign('thread-7', 'load_tool', grant) === receipt, 'receipt signed as node:crypto signed it');
  check(signer.verify('thread-7', 'load_tool', grant, receipt), 'receipt verifies');
  check(!signer.verify('thread-8', 'load_tool', grant, receipt), "another thread's receipt does not verify");
  check(
    !signer.verify('thread-7', 'load_tool', grant, `${receipt.slice(0, -1)}x`),
    'an edited receipt fails',
  );
}

function checkKeywordIndex(tools: Record<string, Tool>): void {
  const descriptors: ToolDescriptor[] = Object.entries(tools).map(([name, entry]) => ({
    name,
    description: typeof entry.description === 'string' ? entry.description : '',
  }));
  const index = createToolIndex({ tools: descriptors });
  check(index.size === descriptors.length, 'index size', index.size);
  const weather = index.search('weather', { topK: 3 });
  check(weather[0]?.name === 'getWeather', 'getWeather first for "weather"', weather);
  check(
    weather.every((result) => result.score >= 0 && result.score <= 1),
    'scores in 0..1',
    weather,
  );
  // The words of the hybrid search below are in no weather tool's text: keywords alone miss them.
  const lexical = index.search(UMBRELLA, { topK: 2 }).map((result) => result.name);
  check(
    !lexical.includes('getWeather') && !lexical.includes('getForecast'),
    'keywords find no weather tool',
    lexical,
  );
  const tickets = index.search('archive tickets', { topK: 1 });
  check(tickets[0]?.name === 'archive_ticket', 'archive_ticket for "archive tickets"', tickets);
}

async function timed<T>(
  timings: Record<string, number>,
  name: string,
  run: () => Promise<T> | T,
): Promise<T> {
  const start = performance.now();
  const result = await run();
  timings[name] = Math.round(performance.now() - start);
  return result;
}

/**
 * LangChain: the binder in a hand-written loop with LangChain's fakeModel (search, load, call).
 * Not `createAgent`: its tool node calls `AbortSignal.any`, which edge-runtime 4 lacks.
 */
async function checkLangChainBinder(): Promise<void> {
  const ran: string[] = [];
  const objectSchema = { type: 'object', properties: {} } as const;
  const catalog = [
    langChainTool(
      async () => {
        ran.push('getWeather');
        return 'sunny, 21 °C';
      },
      { name: 'getWeather', description: 'Get the current weather for a city.', schema: objectSchema },
    ),
    ...SUBJECTS.map((subject) =>
      langChainTool(async () => 'ok', {
        name: `list_${subject}`,
        description: `List the ${subject} records.`,
        schema: objectSchema,
      }),
    ),
  ];
  const model = fakeModel()
    .respondWithTools([{ name: SEARCH_TOOLS_NAME, args: { query: 'weather' } }])
    .respondWithTools([{ name: LOAD_TOOL_NAME, args: { toolName: 'getWeather' } }])
    .respondWithTools([{ name: 'getWeather', args: {} }])
    .respond(new AIMessage('Sunny in Rome.'));
  const binder = createToolSearchBinder({ tools: catalog });
  const messages: BaseMessage[] = [new HumanMessage('Weather in Rome?')];
  const boundPerStep: string[][] = [];
  for (let step = 0; step < 6; step++) {
    const bound = await binder.bind({ model, threadId: 'langchain', messages });
    boundPerStep.push([...bound.visible]);
    const response = await bound.model.invoke(messages);
    messages.push(response);
    if (!response.tool_calls?.length) break;
    messages.push(...(await bound.runToolCalls(response)));
  }
  check(same(ran, ['getWeather']), 'LangChain ran the loaded tool', ran);
  check(
    same(boundPerStep, [META, META, [...META, 'getWeather'], [...META, 'getWeather']]),
    'LangChain bound per step',
    boundPerStep,
  );
  check(messages.at(-1)?.text === 'Sunny in Rome.', 'LangChain final answer', messages.at(-1)?.text);
}

export async function runSmoke(): Promise<SmokeReport> {
  const timings: Record<string, number> = {};
  const ran: string[] = [];
  const tools = createCatalog(ran);
  const count = Object.keys(tools).length;
  check(count >= 200, 'a few hundred tools', count);

  await timed(timings, 'receipts', checkFixedReceipts);
  await timed(timings, 'keywordIndex', () => checkKeywordIndex(tools));

  const embedder = await timed(timings, 'wordVectors', () => {
    const created = createWordVectorEmbedder();
    const [rain, forecast, email] = created.embed([
      'will it rain tomorrow',
      'weather forecast for the next days',
      'send an email message',
    ]);
    const dot = (a: Float32Array, b: Float32Array) =>
      a.reduce((sum, value, index) => sum + value * b[index]!, 0);
    const near = dot(rain!, forecast!);
    const far = dot(rain!, email!);
    check(near > 0.5 && far < 0.2, '"will it rain" near "weather forecast", far from "send an email"', {
      near,
      far,
    });
    return created;
  });

  const toolSearch = createToolSearch({
    tools,
    storage: 'context',
    signingSecret: 'smoke-secret',
    ranker: createHybridRanker({ embedder }),
  });

  // Search (the hybrid ranker, on word vectors alone), load, call the loaded tool, and a call of a tool never loaded (the guard).
  const first = scriptedModel([
    [{ toolName: SEARCH_TOOLS_NAME, input: { query: UMBRELLA } }],
    [{ toolName: LOAD_TOOL_NAME, input: { toolName: 'getForecast' } }],
    [
      { toolName: 'getForecast', input: { city: 'Rome' } },
      { toolName: 'send_email', input: {} },
    ],
    'Rain tomorrow, then sun.',
  ]);
  const turn = await timed(timings, 'generateText', () =>
    generateText({
      model: first.model,
      ...toolSearch.forCall({ threadId: 'smoke' }),
      stopWhen: isStepCount(6),
      prompt: 'Will it rain in Rome tomorrow?',
    }),
  );
  check(
    same(first.toolsPerStep, [META, META, [...META, 'getForecast'], [...META, 'getForecast']]),
    'tools sent per step',
    first.toolsPerStep,
  );
  const [searched] = turn.steps[0]!.toolResults;
  const found = (searched?.output as { results?: { name: string }[] } | undefined)?.results?.map(
    (entry) => entry.name,
  );
  check(
    same(found?.slice(0, 2).sort(), ['getForecast', 'getWeather']),
    'the hybrid ranker puts the weather tools first for "umbrella or sunscreen"',
    found,
  );
  check(same(ran, ['getForecast:Rome']), 'only the loaded tool ran (send_email refused by the guard)', ran);
  const refused = turn.steps[2]!.content.find(
    (part) => part.type === 'tool-error' && part.toolName === 'send_email',
  );
  check(
    refused !== undefined &&
      String((refused as { error?: unknown }).error).includes('is not loaded, so it was not run'),
    'the model is told send_email is not loaded',
    refused,
  );
  check(turn.text === 'Rain tomorrow, then sun.', 'final text', turn.text);

  // 'context' storage: the next call of the thread reads its loads from the signed history.
  const history: ModelMessage[] = [
    { role: 'user', content: 'Will it rain in Rome tomorrow?' },
    ...turn.responseMessages,
    { role: 'user', content: 'And in Oslo?' },
  ];
  const next = scriptedModel(['Sun in Oslo.']);
  await timed(timings, 'contextRoundTrip', () =>
    generateText({ model: next.model, ...toolSearch.forCall({ threadId: 'smoke' }), messages: history }),
  );
  check(
    same(next.toolsPerStep, [[...META, 'getForecast']]),
    'the signed history loads getForecast',
    next.toolsPerStep,
  );
  const forged = JSON.parse(
    JSON.stringify(history).replaceAll('getForecast', 'send_email'),
  ) as ModelMessage[];
  const replay = scriptedModel(['No.']);
  await generateText({ model: replay.model, ...toolSearch.forCall({ threadId: 'smoke' }), messages: forged });
  check(same(replay.toolsPerStep, [META]), 'a forged history loads nothing', replay.toolsPerStep);

  await timed(timings, 'langChain', checkLangChainBinder);
  await toolSearch.dispose?.();
  return { tools: count, timings };
}
