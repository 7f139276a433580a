import type { BenchResults } from '../run-bench';
import type { NativeRow } from '../suites/native';
import { integer, table } from './format';

const providerTitle = (row: NativeRow) => (row.provider === 'anthropic' ? 'Anthropic' : 'OpenAI');
const mean = (total: number, count: number) => (count === 0 ? 0 : total / count);
const oneDecimal = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

const threadsText = (row: NativeRow) =>
  row.threads === 'one' ? `one thread for all ${row.requests} requests` : 'a thread per request';

/** The native and default rows of each provider and thread setting, paired. */
function pairs(rows: readonly NativeRow[]): { native: NativeRow; default: NativeRow }[] {
  return rows
    .filter((row) => row.mode === 'native')
    .flatMap((native) => {
      const fallback = rows.find(
        (row) => row.provider === native.provider && row.threads === native.threads && row.mode === 'default',
      );
      return fallback ? [{ native, default: fallback }] : [];
    });
}

/** Requests on which the native mode made exactly one model call fewer than the default mode. */
const oneFewer = (pair: { native: NativeRow; default: NativeRow }) =>
  pair.native.modelCallsPerRequest.filter(
    (calls, index) => calls === (pair.default.modelCallsPerRequest[index] ?? 0) - 1,
  ).length;

/** One headline line for the native suite (none when it did not run). */
export function nativeHeadline(results: BenchResults): string[] {
  const paired = pairs((results.native ?? []).filter((row) => row.threads === 'per-request'));
  if (paired.length === 0) return [];
  const parts = paired.map(
    (pair) =>
      `${providerTitle(pair.native)} ${oneDecimal(mean(pair.native.modelCalls, pair.native.requests))} model calls per request (default ${oneDecimal(mean(pair.default.modelCalls, pair.default.requests))}), ` +
      `${integer(mean(pair.native.toolDefinitionTokens, pair.native.modelCalls))} tool-definition tokens in context per call (default ${integer(mean(pair.default.toolDefinitionTokens, pair.default.modelCalls))}), ` +
      `${pair.native.toolListChanges} tool-list changes (default ${pair.default.toolListChanges})`,
  );
  return [`**Provider-native deferred loading** (the demo's requests): ${parts.join('; ')}.`];
}

/** The report's section on provider-native deferred loading (nothing when it did not run). */
export function nativeSection(results: BenchResults): string[] {
  const rows = results.native ?? [];
  if (rows.length === 0) return [];
  const requests = rows[0]!.requests;
  return [
    '## Provider-native deferred loading',
    '',
    `The AI SDK example agent over the 224-tool example catalog, each of the demo\u2019s ${integer(requests)} requests run in the default mode (the catalog hidden by \`activeTools\`; \`search_tools\`, then \`load_tool\`, then the tool) and in the native mode (every catalog tool sent with the provider\u2019s \`defer_loading\`; \`search_tools\` refers the tools it found, callable in the same turn). ` +
      'The provider package is the real one, talking to a local fake provider server that answers each call with the offline planner\u2019s decision on the body it received (what `pnpm demo -- --native anthropic|openai` prints). Every figure is read from the recorded request bodies. ' +
      '**Tool-definition tokens in context**: the definitions of the tools array\u2019s undeferred tools and of the deferred tools the conversation referred (Anthropic `tool_reference` / `tool_addition`; OpenAI `tool_search_output` / `additional_tools`), in OpenAI function format, o200k; a deferred tool never referred is not in the context. ' +
      '**Tool-list changes**: calls whose `tools` array differs from the previous call of the same thread; each one invalidates the provider\u2019s cached prompt from the tools on. ' +
      '**Threads**: each request in a new thread, or all of them in one thread in turn, where the tools earlier requests loaded come back at the start of each call (native: Anthropic `tool_addition`, OpenAI `additional_tools`; default: in the tools array) and a request\u2019s first call is compared with the previous request\u2019s last.',
    '',
    table(
      [
        'provider',
        'threads',
        'mode',
        'model calls per request',
        'tool-definition tokens in context per call',
        'calls whose tool list changed',
        'same tools called as the default mode',
      ],
      rows.map((row) => [
        `${providerTitle(row)} (${row.model})`,
        threadsText(row),
        row.mode,
        `${oneDecimal(mean(row.modelCalls, row.requests))} (${row.modelCallsPerRequest.join(' · ')})`,
        integer(mean(row.toolDefinitionTokens, row.modelCalls)),
        `${row.toolListChanges} of ${row.laterCalls}`,
        `${row.sameToolsAsDefault} of ${row.requests}`,
      ]),
      'lllrrrr',
    ),
    '',
    ...pairs(rows).map(
      (pair) =>
        `- ${providerTitle(pair.native)}, ${threadsText(pair.native)}: one model call fewer than the default mode on ${oneFewer(pair)} of ${pair.native.requests} requests; ${pair.native.toolListChanges === 0 ? 'the tools array never changed in the native mode' : `the tools array changed ${pair.native.toolListChanges} times in the native mode`} (default: ${pair.default.toolListChanges} changes).`,
    ),
    '',
    ...(pairs(rows).some(
      (pair) =>
        mean(pair.native.toolDefinitionTokens, pair.native.modelCalls) >
        mean(pair.default.toolDefinitionTokens, pair.default.modelCalls),
    )
      ? [
          'The native mode\u2019s context holds more definitions per call: `search_tools` refers every result the filter allows (`search.topK`, at most `maxLoadedTools`), where the default mode loads only the tool the model chose. They come after the cached prefix (in the search\u2019s result), and the tools array, the front of that prefix, stays the same.',
          '',
        ]
      : []),
  ];
}
