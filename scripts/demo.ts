/**
 * pnpm demo [-- [--framework ai-sdk|mastra|langchain] [--hybrid] [--real] [--native anthropic|openai] ["your request" ...]]
 *
 * Runs requests through one of the example agents (examples/*-agent) and prints, step by step,
 * what the model was sent, what it searched, loaded and called, and per request the tokens of the
 * tool definitions sent with tool search, and of all that tool search added to the prompts (its
 * meta-tools' calls and results, the calls that only searched or loaded), against sending the whole
 * catalog. Offline by default: the model is the example catalog's planner, a stand-in for an LLM
 * (no API key, no network). `--native` compares the default mode with the provider's deferred
 * loading (scripts/demo-native.ts).
 */
import {
  type DemoFramework,
  type DemoRequest,
  demoRequests,
  domains,
  type ExampleAgent,
  exampleTools,
  oneLine,
  parseDemoArguments,
  type RequestTrace,
  renderTrace,
  wholeCatalogTokensPerCall,
} from '../examples/catalog/src/index';
import { mcpUsage, runMcpDemoCommand } from './demo-mcp';

/** The ranker factory every example agent accepts (`RankerFactory` of @tool-search/core). */
type RankerFactory = Awaited<
  ReturnType<typeof import('../examples/ai-sdk-agent/src/index')['createOfflineHybridRanker']>
>;
interface FrameworkModule {
  readonly create: (options: { model: 'auto' | 'offline'; ranker?: RankerFactory }) => Promise<ExampleAgent>;
  readonly createHybridRanker: () => Promise<RankerFactory>;
}

/** Each example is imported only when chosen (each framework takes a few seconds to load). */
const frameworks: Record<DemoFramework, { readonly title: string; load(): Promise<FrameworkModule> }> = {
  'ai-sdk': {
    title: 'AI SDK',
    load: async () => {
      const example = await import('../examples/ai-sdk-agent/src/index');
      return { create: example.createAiSdkAgent, createHybridRanker: example.createOfflineHybridRanker };
    },
  },
  mastra: {
    title: 'Mastra',
    load: async () => {
      const example = await import('../examples/mastra-agent/src/index');
      return { create: example.createMastraAgent, createHybridRanker: example.createOfflineHybridRanker };
    },
  },
  langchain: {
    title: 'LangChain',
    load: async () => {
      const example = await import('../examples/langchain-agent/src/index');
      return { create: example.createLangChainAgent, createHybridRanker: example.createOfflineHybridRanker };
    },
  },
};

/**
 * A request whose words lead the keyword ranker astray ("next week" matches analytics and
 * on-call tools; no weather tool says "expected", and only two match "temperatures", by its
 * stem and weakly) while its meaning is the weather: what the hybrid ranker is for. With the offline word vectors the search ranks a
 * weather tool first (get_current_weather) and the offline planner loads the weather tool of
 * the results that takes a date (get_marine_forecast, for "next week"); with the keyword
 * ranker alone a weather tool is only fifth, and the planner loads get_retention_cohorts.
 */
const noSharedWords = 'what temperatures are expected in Oslo next week?';

const usage = `Usage: pnpm demo [-- [options] ["your request" ...]]

Runs requests through an example agent with tool search over a catalog of ${exampleTools.length} tools and
prints each step: the tools the model was sent, what it searched, loaded and called, and the tokens
of tool definitions with tool search, and of all that tool search added to the prompts, against
sending the whole catalog.

Options:
${mcpUsage}
  --framework <name>  ai-sdk (default), mastra or langchain
  --hybrid            rank with the hybrid ranker and the offline word-vector embedder
  --real              use a real model: OpenAI when OPENAI_API_KEY is set, else Anthropic
                      with ANTHROPIC_API_KEY (refused when neither is set)
                      (default: the offline planner, a stand-in for an LLM)
  --native <provider> anthropic or openai: the AI SDK agent in the default mode and behind the
                      provider's deferred loading, side by side, through the real provider
                      package and a local fake provider server (offline); per request: model
                      calls, tool-definition tokens in context per call, tool-list changes
  --help              this text

Examples:
  pnpm demo
  pnpm demo -- --framework langchain "book a table for two in Rome"
  pnpm demo -- --hybrid "${noSharedWords}"
  pnpm demo -- --native anthropic`;

// hasColors() honours NO_COLOR, FORCE_COLOR and what the terminal supports.
const color = process.stdout.isTTY === true && process.stdout.hasColors();
const bold = (text: string) => (color ? `\u001b[1m${text}\u001b[0m` : text);
const dim = (text: string) => (color ? `\u001b[2m${text}\u001b[0m` : text);
const number = (value: number) => value.toLocaleString('en-US');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One line on stderr that says what is running: redrawn with a spinner on a terminal, printed once otherwise. */
function createProgress(stream: NodeJS.WriteStream = process.stderr) {
  const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
  let text = '';
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;
  const draw = () => {
    const width = (stream.columns || 100) - 3;
    const line = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    stream.write(`\r\u001b[2K${frames[frame++ % frames.length]} ${line}`);
  };
  return {
    update(next: string) {
      text = next;
      if (!stream.isTTY) {
        stream.write(`… ${next}\n`);
        return;
      }
      draw();
      if (!timer) {
        timer = setInterval(draw, 80);
        timer.unref();
      }
    },
    clear() {
      if (timer) clearInterval(timer);
      timer = undefined;
      if (stream.isTTY) stream.write('\r\u001b[2K');
    },
  };
}

function ratio(withSearch: number, wholeCatalog: number): string {
  if (withSearch <= 0) return '';
  const times = wholeCatalog / withSearch;
  return `${times >= 10 ? Math.round(times) : times.toFixed(1)}×`;
}

/** A table cell: the text on one line, cut to `width`. */
function cell(text: string, width: number): string {
  const flat = oneLine(text, Number.POSITIVE_INFINITY);
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/** The per-request token figures side by side, each with how many times fewer than the whole catalog, and their total. */
function renderSummary(traces: readonly RequestTrace[]): string {
  const added = (trace: RequestTrace) => trace.tokens.allAdded?.total;
  const rows = traces.map((trace) => [
    cell(trace.request, 40),
    String(trace.tokens.modelCalls),
    trace.toolsCalled.join(', ') || '(none)',
    number(trace.tokens.withToolSearch),
    ratio(trace.tokens.withToolSearch, trace.tokens.wholeCatalog),
    added(trace) === undefined ? '–' : number(added(trace)!),
    added(trace) === undefined ? '' : ratio(added(trace)!, trace.tokens.wholeCatalog),
    number(trace.tokens.wholeCatalog),
  ]);
  const withSearch = traces.reduce((total, trace) => total + trace.tokens.withToolSearch, 0);
  const allAdded = traces.every((trace) => added(trace) !== undefined)
    ? traces.reduce((total, trace) => total + added(trace)!, 0)
    : undefined;
  const whole = traces.reduce((total, trace) => total + trace.tokens.wholeCatalog, 0);
  const header = [
    'request',
    'model calls',
    'tools called',
    'with tool search',
    '',
    'all added',
    '',
    'whole catalog',
  ];
  const footer = [
    'total',
    '',
    '',
    number(withSearch),
    ratio(withSearch, whole),
    allAdded === undefined ? '–' : number(allAdded),
    allAdded === undefined ? '' : ratio(allAdded, whole),
    number(whole),
  ];
  const table = [header, ...rows, footer];
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  const numeric = new Set([1, 3, 5, 7]);
  const line = (row: readonly string[]) =>
    `  ${row
      .map((cell, column) =>
        numeric.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd()}`;
  return [
    bold(line(header)),
    ...rows.map(line),
    bold(line(footer)),
    dim(
      [
        '  Prompt tokens (o200k) per request that differ between a run with tool search and one without; × = how many times fewer.',
        '  with tool search = the tool definitions sent (OpenAI function format) plus tool search’s system-prompt paragraph;',
        '  all added = all that tool search adds to the prompts: those definitions, its paragraph, the search_tools/load_tool',
        '  calls and results in the conversation, and the rest of the messages (system and user prompt) of the calls that only',
        '  searched or loaded, counted on the messages each model call was given (as JSON, OpenAI chat format);',
        '  whole catalog = every definition on each model call a run without tool search needs (its call and answer steps)',
      ].join('\n'),
    ),
  ].join('\n');
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('--mcp') && !argv.includes('--help') && !argv.includes('-h')) {
    return runMcpDemoCommand({
      argv: argv.filter((arg) => arg !== '--mcp'),
      color,
      progress: createProgress(),
    });
  }
  const parsed = parseDemoArguments(argv.filter((arg) => arg !== '--mcp'));
  if ('help' in parsed) {
    console.log(usage);
    return 0;
  }
  if ('error' in parsed) {
    console.error(parsed.usage ? `${parsed.error}\n\n${usage}` : parsed.error);
    return 2;
  }
  const started = performance.now();
  const framework = frameworks[parsed.framework];
  const requests: readonly string[] =
    parsed.requests.length > 0
      ? parsed.requests
      : [
          ...(parsed.hybrid ? [noSharedWords] : []),
          ...demoRequests.map((request: DemoRequest) => request.text),
        ];

  const progress = createProgress();
  if (parsed.native !== undefined) {
    const { runNativeDemo } = await import('./demo-native');
    return runNativeDemo({
      provider: parsed.native,
      hybrid: parsed.hybrid,
      requests,
      style: { bold, dim },
      progress,
    });
  }
  progress.update(`loading the ${framework.title} example agent…`);
  let agent: ExampleAgent;
  try {
    const example = await framework.load();
    progress.update(
      parsed.hybrid
        ? 'loading the word vectors for the hybrid ranker…'
        : `starting the ${framework.title} agent…`,
    );
    const ranker = parsed.hybrid ? await example.createHybridRanker() : undefined;
    agent = await example.create({ model: parsed.real ? 'auto' : 'offline', ranker });
  } catch (error) {
    progress.clear();
    console.error(`pnpm demo: could not start the ${framework.title} example: ${(error as Error).message}`);
    return 1;
  }
  progress.clear();
  const startup = performance.now() - started;

  const perCall = wholeCatalogTokensPerCall();
  console.log(
    bold(
      `tool-search demo · ${framework.title} agent${parsed.hybrid ? ' · hybrid ranker (word vectors)' : ''}`,
    ),
  );
  console.log(
    `The catalog: ${exampleTools.length} tools in ${domains.length} domains; all their definitions are ` +
      `${number(perCall)} tokens on every model call.\nWith tool search the model is sent two meta-tools ` +
      '(search_tools, load_tool) and the tools it loaded.',
  );
  if (agent.offline) {
    console.log(
      dim(
        `Model: ${agent.model}. It does what a model does with\n` +
          'tool search: searches with the request, loads the best result, calls it with arguments built from its\n' +
          'schema, and answers with the result. `--real` uses OpenAI or Anthropic when a key is set.',
      ),
    );
  } else console.log(dim(`Model: ${agent.model}.`));
  console.log('');

  const traces: RequestTrace[] = [];
  let failed = 0;
  try {
    for (const [index, request] of requests.entries()) {
      progress.update(`[${index + 1}/${requests.length}] ${framework.title}: "${oneLine(request, 200)}"`);
      try {
        const trace = await agent.ask(request);
        progress.clear();
        traces.push(trace);
        console.log(`${renderTrace(trace, { color })}\n`);
      } catch (error) {
        progress.clear();
        failed++;
        console.error(
          `"${oneLine(request, 200)}" failed: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
    }
  } finally {
    progress.clear();
    await agent.dispose();
  }

  if (traces.length > 1) console.log(`${renderSummary(traces)}\n`);
  const elapsed = performance.now() - started;
  const hint =
    parsed.requests.length === 0
      ? '\nYour own request, through another framework: pnpm demo -- --framework langchain "book a table for two in Rome"'
      : '';
  const answered =
    failed > 0
      ? `${traces.length} of ${requests.length} requests answered, ${failed} failed (said above on stderr),`
      : `${traces.length} request${traces.length === 1 ? '' : 's'}`;
  console.log(
    dim(`${answered} in ${seconds(elapsed)} (${seconds(startup)} of it loading the framework).${hint}`),
  );
  return failed > 0 ? 1 : 0;
}

process.exitCode = await main();
