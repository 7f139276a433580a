/**
 * pnpm demo -- --native anthropic|openai [--hybrid] ["your request" ...]
 *
 * The AI SDK example agent in the default mode (the catalog hidden by `activeTools`, found tools
 * loaded with `load_tool`) and behind the provider's own deferred loading, side by side, each
 * request run in both. The model is the offline planner, but the provider package is the real
 * one (`@ai-sdk/anthropic`, `@ai-sdk/openai`): it talks to a local fake provider server on a
 * loopback port, which answers each call with the planner's decision on the body it received.
 * The figures come from those bodies: model calls, the tool definitions the model's context holds
 * per call, and the calls whose `tools` array changed from the previous one.
 */
import type { NativeComparison, NativeComparisonRow } from '../examples/ai-sdk-agent/src/index';
import type { NativeProvider, ProviderRequestFigures } from '../examples/catalog/src/index';

const providerTitles: Readonly<Record<NativeProvider, string>> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
};

/** How the native mode's search brings the found tools in, per provider. */
const nativeSearch: Readonly<Record<NativeProvider, string>> = {
  anthropic: 'search_tools refers the found tools (tool_reference blocks in its result)',
  openai:
    "the search is OpenAI's client-executed tool_search (ours behind it), answered with the found tools' definitions",
};

const number = (value: number) => value.toLocaleString('en-US');
const perCall = (figures: ProviderRequestFigures) =>
  figures.modelCalls === 0 ? 0 : Math.round(figures.toolDefinitionTokens / figures.modelCalls);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function columns(
  rows: readonly (readonly string[])[],
  numeric: ReadonlySet<number>,
  indent = '  ',
): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map(
    (row) =>
      indent +
      row
        .map((cell, column) =>
          numeric.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
        )
        .join('  ')
        .trimEnd(),
  );
}

/** Tool names, the first three and how many more (a search refers up to topK tools). */
const listed = (names: readonly string[]) =>
  names.length === 0
    ? '(none)'
    : names.length <= 3
      ? names.join(', ')
      : `${names.slice(0, 3).join(', ')} +${names.length - 3} more`;

/** One request: each model call of each mode, what the model did, what its context held. */
export function renderNativeRequest(row: NativeComparisonRow, style: Style): string {
  const lines = [style.bold(`"${row.request}"`)];
  const table: string[][] = [
    ['mode', 'call', 'the model did', 'tool definitions in its context', 'tokens', 'tools array'],
  ];
  for (const run of [row.default, row.native]) {
    run.figures.calls.forEach((call, index) => {
      table.push([
        index === 0 ? run.mode : '',
        String(index + 1),
        run.actions[index] ?? '',
        listed(call.inContext),
        number(call.toolDefinitionTokens),
        index === 0
          ? `${plural(call.toolsSent, 'tool')}`
          : call.toolListChanged
            ? `changed (${plural(call.toolsSent, 'tool')})`
            : 'unchanged',
      ]);
    });
  }
  const [header, ...body] = columns(table, new Set([1, 4]));
  lines.push(style.dim(header!), ...body);
  const fewer = row.default.figures.modelCalls - row.native.figures.modelCalls;
  lines.push(
    `  ${style.bold('native')} ${plural(row.native.figures.modelCalls, 'model call')}` +
      ` (${fewer >= 0 ? `${fewer} fewer` : `${-fewer} more`}), ${number(perCall(row.native.figures))} tool-definition tokens per call,` +
      ` ${plural(row.native.figures.toolListChanges, 'tool-list change')}` +
      ` · default ${plural(row.default.figures.modelCalls, 'model call')}, ${number(perCall(row.default.figures))} per call,` +
      ` ${plural(row.default.figures.toolListChanges, 'tool-list change')}` +
      ` · tools called: ${row.native.trace.toolsCalled.join(', ') || '(none)'}`,
  );
  return lines.join('\n');
}

/** The three figures per request, default next to native, and their totals. */
export function renderNativeSummary(comparison: NativeComparison, style: Style): string {
  const rows = comparison.rows;
  const sum = (pick: (row: NativeComparisonRow) => number) =>
    rows.reduce((total, row) => total + pick(row), 0);
  const tokensPerCall = (mode: 'default' | 'native') => {
    const calls = sum((row) => row[mode].figures.modelCalls);
    return calls === 0 ? 0 : Math.round(sum((row) => row[mode].figures.toolDefinitionTokens) / calls);
  };
  const pair = (left: string, right: string) => `${left} → ${right}`;
  const table: string[][] = [
    ['request', 'model calls', 'tool-def tokens per call', 'tool-list changes'],
    ...rows.map((row) => [
      row.request.length > 48 ? `${row.request.slice(0, 47)}…` : row.request,
      pair(String(row.default.figures.modelCalls), String(row.native.figures.modelCalls)),
      pair(number(perCall(row.default.figures)), number(perCall(row.native.figures))),
      pair(String(row.default.figures.toolListChanges), String(row.native.figures.toolListChanges)),
    ]),
    [
      'total',
      pair(
        String(sum((row) => row.default.figures.modelCalls)),
        String(sum((row) => row.native.figures.modelCalls)),
      ),
      pair(number(tokensPerCall('default')), number(tokensPerCall('native'))),
      pair(
        String(sum((row) => row.default.figures.toolListChanges)),
        String(sum((row) => row.native.figures.toolListChanges)),
      ),
    ],
  ];
  const lines = columns(table, new Set([1, 2, 3]));
  return [
    style.bold(lines[0]!),
    ...lines.slice(1, -1),
    style.bold(lines.at(-1)!),
    style.dim(
      [
        '  default → native, read from the request bodies the provider package sent. model calls = calls per request;',
        '  tool-def tokens per call = tokens (o200k, OpenAI function format) of the tool definitions the model’s context',
        '  held, averaged over the calls: the tools array’s undeferred tools, and the deferred ones the conversation',
        '  referred (tool_reference / tool_addition, tool_search_output / additional_tools); a deferred tool never',
        '  referred is not in the context; tool-list changes = calls whose tools array differs from the previous call’s',
        '  (each one invalidates the provider’s cached prompt from the tools on).',
      ].join('\n'),
    ),
  ].join('\n');
}

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
}

/** Runs the comparison and prints it. Returns the exit code. */
export async function runNativeDemo(options: {
  readonly provider: NativeProvider;
  readonly hybrid: boolean;
  readonly requests: readonly string[];
  readonly style: Style;
  readonly progress: { update(text: string): void; clear(): void };
}): Promise<number> {
  const { style, progress, provider } = options;
  const title = providerTitles[provider];
  const started = performance.now();
  progress.update('loading the AI SDK example agent and the provider package…');
  const example = await import('../examples/ai-sdk-agent/src/index');
  const ranker = options.hybrid ? await example.createOfflineHybridRanker() : undefined;
  let comparison: NativeComparison;
  try {
    comparison = await example.runNativeComparison({
      provider,
      requests: options.requests,
      ...(ranker ? { ranker } : {}),
      onProgress: (request, mode) =>
        progress.update(`${mode} mode: "${request.length > 80 ? `${request.slice(0, 79)}…` : request}"`),
    });
  } catch (error) {
    progress.clear();
    console.error(
      `pnpm demo --native ${provider}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
  progress.clear();
  console.log(
    style.bold(
      `tool-search demo · AI SDK agent · ${title}'s deferred loading (native) next to the default mode${options.hybrid ? ' · hybrid ranker' : ''}`,
    ),
  );
  console.log(
    style.dim(
      `Model: the offline planner (a stand-in for an LLM) behind the real ${comparison.model}, which talks to a local\n` +
        `fake ${title} server on a loopback port: each call is answered with the planner's decision on the body it\n` +
        'received (no key, no network). Default mode: search_tools, load_tool, then the tool (a new tools array).\n' +
        `Native: every catalog tool is sent deferred; ${nativeSearch[provider]}, callable from the next step.`,
    ),
  );
  console.log('');
  for (const row of comparison.rows) console.log(`${renderNativeRequest(row, style)}\n`);
  console.log(`${renderNativeSummary(comparison, style)}\n`);
  if (comparison.warnings.length > 0) {
    // The catalog's schemas are sent on every call (deferred): the SDK's warnings about them, once each.
    console.log(style.dim(`The AI SDK warned (once each here): ${comparison.warnings.join(' · ')}\n`));
  }
  const elapsed = (performance.now() - started) / 1000;
  console.log(
    style.dim(`${plural(comparison.rows.length, 'request')} in each mode in ${elapsed.toFixed(1)} s.`),
  );
  return 0;
}
