import { formatQualityTable } from '../quality/format';
import type { BenchResults } from '../run-bench';
import type { SpeedRow } from '../suites/speed-job';
import type { WorstCaseRow } from '../suites/worst-case';
import type { Chart } from './charts';
import { headlines, peerWins } from './findings';
import { bytes, duration, integer, metric, ms, percent, ratio, table } from './format';
import { learningSection } from './learning-section';
import { mcpHeadline, mcpSection } from './mcp-section';
import { nativeHeadline, nativeSection } from './native-section';

/** The plain BM25 floor that ../shared/eval/README.md states, to check the harness against. */
const README_FLOOR = ['.581', '.662', '.848', '.414'];
const README_SETS = ['toolbench', 'bfcl', 'seal-tools', 'metatool'];

/** Does the baseline give the README's figures on every one of its sets? */
const reproduces = (
  baseline: readonly { set: string; overall: { metrics: { ndcg10: number } } }[],
): boolean =>
  README_SETS.every((name, index) => {
    const report = baseline.find((entry) => entry.set === name);
    return report !== undefined && metric(report.overall.metrics.ndcg10) === README_FLOOR[index];
  });

const MODE_TITLE = {
  full: 'full run',
  quick: 'quick run (subsampled: not the published figures)',
  own: 'own catalog',
};

function header(results: BenchResults): string[] {
  const { machine, load } = results;
  // The bench itself keeps up to three threads busy (two quality workers and this one): the
  // load before it started says whether other work shared the machine.
  const loaded = load.start > machine.cores * 0.5;
  return [
    results.mode === 'own'
      ? `# Tool search on ${results.quality.sets[0]?.name ?? 'your catalog'}`
      : '# Benchmarks',
    '',
    `> Written by \`pnpm bench\` (${MODE_TITLE[results.mode]}) on ${results.startedAt.slice(0, 10)}, in ${duration(results.durationMs)}. Run it again rather than editing this file.`,
    '',
    `**Machine**: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.platform}. ` +
      `**Load** (one-minute average, the bench's own threads included): ${load.start.toFixed(1)} at the start, ${load.end.toFixed(1)} at the end, ${load.peak.toFixed(1)} at its peak.` +
      (loaded
        ? ' The machine was busy with other work during this run, so absolute times are higher and noisier than on an idle machine; every system was measured in the same run, so compare the ratios.'
        : ''),
    '',
  ];
}

function systemsSection(results: BenchResults): string[] {
  return [
    '## Systems',
    '',
    'Each is driven the way its users drive it; every figure below comes from this one run.',
    '',
    table(
      ['system', 'package', 'version', 'driven as'],
      results.systems.map((system) => [
        system.label,
        system.packageName,
        system.version,
        `\`${system.drivenAs}\``,
      ]),
    ),
    '',
  ];
}

function chartImage(chart: Chart | undefined, chartDir: string): string[] {
  return chart ? [`![${chart.title}](${chartDir}/${chart.file})`, ''] : [];
}

function qualitySection(results: BenchResults, charts: Map<string, Chart>, chartDir: string): string[] {
  const { quality } = results;
  if (quality.reports.length === 0) return [];
  const subsampled = quality.sets.some((set) => set.queriesCompared < set.queries);
  const scanning = results.systems.filter((system) => system.scansCatalog).map((system) => system.label);
  const ranksAll = results.systems.filter((system) => !system.scansCatalog).map((system) => system.label);
  const lines = [
    '## Quality',
    '',
    'Top 10 per query from each system, scored against the relevant tools of each query (binary relevance). ' +
      'R@k: share of the relevant tools in the top k. MRR@10, NDCG@10. Comp@5: share of queries with every relevant tool in the top 5, i.e. the agent has all it needs after one search. ' +
      "Each system is asked for 10 results and the top-1 and top-5 figures are read from them: ours ranks its first five the same at topK 5 (see the topK table), but Mastra's processor re-ranks the first 2 × topK of its BM25 by name, so at its default topK 5 its first five can differ slightly from these.",
    '',
    table(
      ['set', 'tools', 'queries in the set', `ranked by ${ranksAll.join(', ')}`, 'compared (every system)'],
      quality.sets.map((set) => [
        set.name,
        integer(set.tools),
        integer(set.queries),
        integer(set.queriesRun),
        integer(set.queriesCompared),
      ]),
      'lrrrr',
    ),
    '',
  ];
  const scanTimes = quality.reports
    .filter((report) => scanning.includes(report.ranker))
    .filter((report) => (quality.sets.find((set) => set.name === report.set)?.tools ?? 0) >= 1000)
    .map((report) => report.queryMs);
  const scanCost =
    scanTimes.length > 0
      ? ` (${ms(Math.min(...scanTimes))} to ${ms(Math.max(...scanTimes))} per search on the sets of 1,000 tools or more, in this run)`
      : '';
  if (subsampled) {
    lines.push(
      `_Every search of ${scanning.join(' and ')} scans the whole catalog${scanCost}, so ${results.mode === 'full' ? 'the full run ranks' : 'this run ranks'} a deterministic subsample of each set with them (each split keeps its share); the comparison below is on those queries for every system, and the next table gives ours and the baseline on every query._`,
      '',
    );
  }
  lines.push(
    ...chartImage(charts.get('quality-ndcg.svg'), chartDir),
    ...chartImage(charts.get('quality-comp5.svg'), chartDir),
    formatQualityTable(quality.reports),
    '',
  );
  if (quality.fullReports.length > 0) {
    const baseline = quality.fullReports.filter((report) => report.ranker === 'plain BM25 (baseline)');
    lines.push(
      '**Every query of each set** (the systems with an index):',
      '',
      formatQualityTable(quality.fullReports),
      '',
      ...(baseline.length > 0
        ? [
            `The baseline here scores NDCG@10 ${baseline.map((report) => `${metric(report.overall.metrics.ndcg10)} on ${report.set}`).join(', ')}; ../shared/eval/README.md gives ${README_FLOOR.join(' / ')} for its plain BM25 on toolbench / bfcl / seal-tools / metatool${reproduces(baseline) ? ', so the harness reproduces the published floor' : ''}.`,
            '',
          ]
        : []),
      '<details><summary>Per split, every query (the id prefix of each query)</summary>',
      '',
      formatQualityTable(quality.fullReports, { splits: true }),
      '',
      '</details>',
      '',
    );
  }
  lines.push(
    `<details><summary>Per split, ${subsampled ? 'the compared queries, every system' : 'every system'}</summary>`,
    '',
    formatQualityTable(quality.reports, { splits: true }),
    '',
    '</details>',
    '',
  );
  return lines;
}

function chooseSection(results: BenchResults): string[] {
  if (results.choose.length === 0) return [];
  const lines = [
    '## Choosing `topK` and `minScore`',
    '',
    'Our engine at each setting, through `search_tools` exactly as the model calls it. In each cell: the share of the relevant tools returned (recall), then the mean tokens of the `search_tools` result the model reads, then the mean tokens of the returned tools\u2019 definitions (what loading them all adds to every later step; with `autoLoad` that is what happens). ' +
      'Scores are 0..1; a higher `minScore` returns fewer tools, and more searches come back empty (last column, at topK 5).',
    '',
    `Measure your own catalog the same way: \`pnpm bench -- --tools tools.jsonl --queries queries.jsonl\` (the format of \`../shared/eval\`: one \`{"name","description","parameters"}\` per line, and one \`{"id","query","relevant":[names]}\` per line).`,
    '',
  ];
  for (const entry of results.choose) {
    const topKs = [...new Set(entry.rows.map((row) => row.topK))];
    const minScores = [...new Set(entry.rows.map((row) => row.minScore))];
    lines.push(`**${entry.set}** (${integer(entry.queries)} queries)`, '');
    lines.push(
      table(
        ['minScore', ...topKs.map((topK) => `topK ${topK}: recall · result · defs`), 'empty at topK 5'],
        minScores.map((minScore) => {
          const cells = topKs.map((topK) => {
            const row = entry.rows.find(
              (candidate) => candidate.topK === topK && candidate.minScore === minScore,
            );
            return row
              ? `${metric(row.recall)} · ${integer(row.resultTokens)} · ${integer(row.definitionTokens)}`
              : 'n/a';
          });
          const five = entry.rows.find((row) => row.topK === 5 && row.minScore === minScore);
          return [String(minScore), ...cells, five ? percent(five.empty) : 'n/a'];
        }),
        `l${'r'.repeat(topKs.length + 1)}`,
      ),
      '',
    );
  }
  return lines;
}

/**
 * The cells of speed rows (system, tools, build, median, p99, searches timed), each against ours
 * at the same size among `rows`.
 */
function speedCells(results: BenchResults, rows: readonly SpeedRow[]): string[][] {
  const label = (id: string) => results.systems.find((system) => system.id === id)?.label ?? id;
  return rows.map((row) => {
    const mine = rows.find((entry) => entry.systemId === 'ours' && entry.tools === row.tools);
    const versus = (value: number, base: number | undefined) =>
      row.systemId === 'ours' || base === undefined ? '' : ` (${ratio(value / base)})`;
    if (row.stopped) return [label(row.systemId), integer(row.tools), row.stopped, '—', '—', '0'];
    return [
      label(row.systemId),
      integer(row.tools),
      `${ms(row.buildMs)}${versus(row.buildMs, mine?.buildMs)}`,
      `${ms(row.medianQueryMs)}${versus(row.medianQueryMs, mine?.medianQueryMs)}`,
      row.queriesTimed >= 100 ? ms(row.p99QueryMs) : `${ms(row.p99QueryMs)} (max of ${row.queriesTimed})`,
      integer(row.queriesTimed),
    ];
  });
}

/** The speed table's rows for real requests, with their explanation (nothing when not run). */
function realRequestLines(results: BenchResults): string[] {
  const rows = results.realRequestSpeed;
  if (rows.length === 0) return [];
  const body = speedCells(results, rows);
  return [
    '### Real requests',
    '',
    'The generated requests above share most of their words with one tool, which real requests rarely do: the eval sets\u2019 requests are long and match each tool only in part, so the keyword ranker weighs more candidates and the hybrid ranker runs its similarity scan for most of them (see `packages/core/docs/hybrid-ranking.md`). Here the catalog is the eval sets\u2019 own tools, taken in turn from each set (each name once) and topped up with generated tools, and the requests are the sets\u2019 requests, taken in turn from each set; measured as above.',
    '',
    table(['system', 'tools', 'build', 'search, median', 'search, p99', 'searches timed'], body, 'lrrrrr'),
    '',
  ];
}

function speedSection(results: BenchResults, charts: Map<string, Chart>, chartDir: string): string[] {
  if (results.speed.length === 0 || results.config.speed === null) return [];
  const plan = results.config.speed;
  const label = (id: string) => results.systems.find((system) => system.id === id)?.label ?? id;
  const rows = speedCells(results, results.speed).map((cells, index) => {
    const row = results.speed[index]!;
    return [...cells, row.stopped ? '—' : bytes(row.memoryBytesPerTool)];
  });
  const notes: string[] = [];
  for (const row of results.speed.filter((entry) => entry.stopped)) {
    const earlier = results.speed
      .filter((entry) => entry.systemId === row.systemId && !entry.stopped && entry.tools < row.tools)
      .sort((left, right) => left.tools - right.tools);
    const [first, last] = [earlier[0], earlier.at(-1)];
    const growth =
      first && last && last.tools > first.tools
        ? ` Its build took ${ms(first.buildMs)} at ${integer(first.tools)} tools and ${ms(last.buildMs)} at ${integer(last.tools)} (${ratio(last.buildMs / first.buildMs)} for a ${ratio(last.tools / first.tools)} catalog).`
        : '';
    notes.push(`- ${label(row.systemId)} at ${integer(row.tools)} tools: ${row.stopped}.${growth}`);
  }
  return [
    '## Speed and memory',
    '',
    `Synthetic catalogs from a seeded generator (\`src/synthetic/catalog.ts\`: realistic names in mixed styles, one to three sentences, one to six parameters), of ${plan.sizes.map(integer).join(', ')} tools, with generated requests. ` +
      (plan.isolate
        ? 'Each system and size is measured alone, in a fresh worker thread. '
        : 'Each system and size is measured alone, in this thread (the quick run). ') +
      '**Build**: from the user\u2019s tool objects to the first search that can run (the median of several builds, each after a full GC, following one untimed 200-tool build; fewer at 100k). V8 is still optimising during the first builds, so this lies between a first build in a fresh process and a build in a long-running one. ' +
      `**Search**: one \`search_tools\` call as the model makes it, topK 5 (every system\u2019s default), timed one by one after a warm-up; at most ${duration(plan.queryBudgetMs)} of searches per measurement, so a slow system is timed on fewer. ` +
      (plan.measureMemory
        ? '**Memory per tool**: what the built system holds after a full GC (JS heap plus array buffers, where an index may keep its postings), beyond the tool objects themselves. '
        : '') +
      `${plan.isolate ? `A peer\u2019s measurement still running after ${duration(plan.peerTimeoutMs)} is stopped (ours: ${duration(plan.jobTimeoutMs)}). ` : ''}Ratios in brackets are against ours (above 1× is slower than ours).` +
      (results.load.start > results.machine.cores * 0.5
        ? ' On this busy machine a p99 of a sub-millisecond search mostly shows time slices lost to other processes.'
        : ''),
    '',
    ...chartImage(charts.get('speed-query.svg'), chartDir),
    ...chartImage(charts.get('speed-build.svg'), chartDir),
    table(
      ['system', 'tools', 'build', 'search, median', 'search, p99', 'searches timed', 'memory per tool'],
      rows,
      'lrrrrrr',
    ),
    '',
    ...(notes.length > 0 ? [...notes, ''] : []),
    ...realRequestLines(results),
    ...chartImage(charts.get('memory.svg'), chartDir),
    'The AI SDK\u2019s `toolSearch()` keeps no index: each search tokenises every deferred tool\u2019s name and description, inside a `generateText` step (its only entry point), so its search time includes that step. Mastra\u2019s processor builds a BM25 index whose build recomputes the average document length after every added tool, and it looks each result up by scanning the catalog; both grow with the catalog.',
    '',
  ];
}

function stepSection(results: BenchResults, charts: Map<string, Chart>, chartDir: string): string[] {
  if (results.steps.length === 0 || results.config.steps === null) return [];
  const plan = results.config.steps;
  const rows = results.steps.map((row) => {
    const mine = results.steps.find(
      (entry) => entry.adapter === row.adapter && entry.mode === row.mode && entry.system === 'tool-search',
    );
    return [
      row.adapter,
      row.mode === 'catalog' ? 'catalog tools' : 'request-resolved tools',
      row.system + (row.system === 'mastra' ? ' (its own)' : ''),
      `${ms(row.medianMs)}${row.system === 'mastra' && mine ? ` (${ratio(row.medianMs / mine.medianMs)})` : ''}`,
      ms(row.p99Ms),
      row.firstStepMedianMs === null ? '—' : ms(row.firstStepMedianMs),
      integer(row.iterations),
      row.roundTripsPerStep === undefined ? '' : String(row.roundTripsPerStep),
    ];
  });
  return [
    '## Time one agent step adds',
    '',
    `Each adapter\u2019s step hook timed on the arguments its framework really passes (captured from a real run driven by the framework\u2019s own test model), with ${integer(plan.size)} catalog tools, or ${integer(plan.size)} request-resolved tools (\`includeResolvedTools\`), and ${results.steps[0]?.loaded ?? 5} tools loaded. ` +
      'Mastra: `processInputStep` of ours and of Mastra\u2019s own `ToolSearchProcessor`, side by side. AI SDK: `prepareStep`. LangChain: the middleware\u2019s `wrapModelCall` around a model that answers at once. Redis: our engine\u2019s step with the load state in Redis (a local redis-server) instead of memory. ' +
      `${integer(plan.iterations)} steps per row after a warm-up (${integer(plan.slowIterations)} for Mastra\u2019s own processor with request tools, which rebuilds its index every step).`,
    '',
    ...chartImage(charts.get('steps.svg'), chartDir),
    table(
      [
        'adapter',
        'tools',
        'processor',
        'step, median',
        'step, p99',
        'first step of a request, median',
        'steps timed',
        'Redis round trips per step',
      ],
      rows,
      'lllrrrrr',
    ),
    '',
    plan.redis ? '' : '_No `redis-server` on this machine: the Redis row was skipped._\n',
  ];
}

/** Slowest worst-case input within this multiple of a typical request: the goal of linear-time text paths. */
export const WORST_CASE_GOAL = 10;

/** The slowest worst-case input's time per character, as a multiple of a typical request's. */
export const perCharacter = (row: WorstCaseRow): number =>
  row.worstMs / row.inputLength / (row.typicalMs / row.typicalLength);

function worstCaseSection(results: BenchResults): string[] {
  const plan = results.config.worstCase;
  if (results.worstCase.length === 0 || plan === null) return [];
  const rows = results.worstCase.map((row) => [
    `\`${row.entry}\``,
    `${ms(row.typicalMs)} (${integer(row.typicalLength)} characters)`,
    `${ms(row.worstMs)} (${integer(row.inputLength)} characters)`,
    ratio(row.worstMs / row.typicalMs),
    ratio(perCharacter(row)),
    `\`${row.worstInput.replace(/`/g, "'")}\``,
  ]);
  const beyond = results.worstCase.filter(
    (row) => row.worstMs > WORST_CASE_GOAL * row.typicalMs && perCharacter(row) > WORST_CASE_GOAL,
  );
  return [
    '## Worst-case input',
    '',
    `Each entry point of ours that reads model or user text, on a synthetic catalog of ${integer(plan.size)} tools (over 2,000: an unknown \`load_tool\` name\u2019s suggestions come from a search). ` +
      `**Typical**: the median of ${integer(plan.queries)} generated requests (for \`load_tool\`, names of the catalog). ` +
      `**Slowest worst case**: each of the ${results.worstCase[0]!.inputs} worst-case inputs of \`@tool-search/core/testing\` (runs of spaces, tabs, commas, punctuation, ", and , and \u2026", alternating combining marks, invisibles between marks, identifier glue, scripts without spaces) at the search_tools cap (for \`load_tool\`, as a ${integer(plan.nameLength)}-character name), the median of ${plan.runs} runs each, in rounds of every input once; the slowest is shown. ` +
      'Before the text paths were made linear, a 1,000-character run of spaces took 0.3\u20130.8 s to search and a 9,000-character `load_tool` name 348 s. ' +
      `The goal: the slowest within ${WORST_CASE_GOAL}\u00d7 a typical request, or, where the work is the text\u2019s alone (\`tokenize\`, \`splitClauses\`: a worst case is far longer than a request), within ${WORST_CASE_GOAL}\u00d7 per character.`,
    '',
    table(
      [
        'entry point',
        'typical, median',
        'slowest worst case',
        '\u00d7 typical',
        '\u00d7 typical per character',
        'slowest input',
      ],
      rows,
      'lrrrrl',
    ),
    '',
    beyond.length === 0
      ? `Every entry point is within the goal.`
      : `Beyond the goal: ${beyond.map((row) => `\`${row.entry}\``).join(', ')}.`,
    '',
  ];
}

function tokenSection(results: BenchResults, charts: Map<string, Chart>, chartDir: string): string[] {
  if (results.tokens.length === 0) return [];
  const loaded = results.tokens[0]!.loadedCount;
  return [
    '## Tokens per step',
    '',
    `Catalogs of each size drawn (seeded) from the real tools of the eval sets. **All tools**: every definition sent on every step, as without tool search. **With tool search**: what each system\u2019s framework actually sent the model, captured from a real model call (\`generateText\` with the AI SDK\u2019s mock model; a Mastra \`Agent\` for Mastra): the first step, and for ours the step after the model loaded ${loaded} tools. ` +
      'Each definition is serialised as the request carries it (OpenAI function format: name, description, JSON Schema) and counted with `gpt-tokenizer` (o200k_base). The instruction paragraph each adds to the system prompt is counted apart.',
    '',
    ...chartImage(charts.get('tokens.svg'), chartDir),
    table(
      [
        'catalog',
        'all tools',
        'ours, first step',
        `ours, ${loaded} loaded`,
        'saved per step',
        'ours, instructions',
        'Mastra, first step',
        'Mastra, instructions',
        'AI SDK toolSearch(), first step',
      ],
      results.tokens.map((row) => [
        `${integer(row.tools)} tools`,
        integer(row.allTools),
        integer(row.oursFirstStep),
        integer(row.oursAfterLoad),
        percent(1 - (row.oursAfterLoad + row.oursInstructions) / row.allTools),
        integer(row.oursInstructions),
        integer(row.mastraFirstStep),
        integer(row.mastraInstructions),
        integer(row.aiSdkFirstStep),
      ]),
      'lrrrrrrrr',
    ),
    '',
    '"Saved per step" counts our instruction paragraph against us. Search results come back as tool results, once per search, not once per step (see the `topK` table above for their size).',
    '',
  ];
}

function reproduceSection(results: BenchResults): string[] {
  const quick = results.mode === 'quick';
  return [
    '## Reproduce',
    '',
    '```sh',
    'pnpm install',
    'pnpm bench                 # everything, writes docs/benchmarks.md and docs/benchmarks/*.svg (under ten minutes on 2 cores)',
    'pnpm bench -- --quick      # a subsample in under a minute, writes .reports/benchmarks-quick.md',
    'pnpm bench -- --only mcp   # the MCP suite alone, writes .reports/benchmarks-mcp.md',
    'pnpm bench -- --tools my-tools.jsonl --queries my-queries.jsonl   # your own catalog: quality and the topK/minScore table',
    'pnpm bench -- --only native   # provider-native deferred loading alone, writes .reports/benchmarks-native.md',
    '```',
    '',
    'The eval sets are read from `../shared/eval` (relative to the repository root), or from `$TOOL_SEARCH_EVAL_DIR`. ' +
      'Options: `--max-queries N` (subsample each set), `--parallel N` (worker threads for quality), `--out FILE`, `--json FILE` (every figure, per query included). ' +
      'The bench needs nothing but this checkout; the Redis row needs a `redis-server` on the PATH.',
    '',
    quick
      ? ''
      : `Suite times in this run: ${Object.entries(results.suiteMs)
          .map(([name, time]) => `${name} ${duration(time)}`)
          .join(', ')} (quality runs on worker threads while tokens and the topK table run alongside).`,
    '',
  ];
}

/** The whole report; charts are linked from `chartDir` (relative to the report). */
export function renderMarkdown(results: BenchResults, charts: readonly Chart[], chartDir: string): string {
  const byFile = new Map(charts.map((chart) => [chart.file, chart]));
  const wins = peerWins(results);
  const lines = [
    ...header(results),
    ...systemsSection(results),
    '## Headlines',
    '',
    ...[...headlines(results), ...nativeHeadline(results), ...mcpHeadline(results)].map(
      (line) => `- ${line}`,
    ),
    '',
    ...qualitySection(results, byFile, chartDir),
    ...chooseSection(results),
    ...speedSection(results, byFile, chartDir),
    ...stepSection(results, byFile, chartDir),
    ...worstCaseSection(results),
    ...tokenSection(results, byFile, chartDir),
    ...nativeSection(results),
    ...learningSection(results.learning, byFile, chartDir),
    ...mcpSection(results),
    '## Where a peer wins',
    '',
    'Every figure of this run on which a peer beats ours (the plain BM25 baseline included; per-split quality for splits of 30 queries or more), listed by the bench itself:',
    '',
    ...(wins.length > 0 ? wins.map((line) => `- ${line}`) : ['- None in this run.']),
    '',
    ...reproduceSection(results),
  ];
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
