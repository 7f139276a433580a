/**
 * pnpm bench                       every suite; writes docs/benchmarks.md and docs/benchmarks/*.svg
 * pnpm bench -- --quick            a subsample in under a minute; writes .reports/benchmarks-quick.md
 * pnpm bench -- --tools FILE --queries FILE
 *                                  your own catalog: quality and the topK × minScore table
 * pnpm bench -- --only native      the native deferred-loading suite alone; writes .reports/benchmarks-native.md
 * pnpm bench -- --only mcp         the MCP suite alone; writes .reports/benchmarks-mcp.md
 * Options: --max-queries N, --scan-max-queries N, --parallel N, --out FILE, --json FILE,
 * --from-json FILE (write the report again from the figures a run saved with --json),
 * --suite learning (the learning suite alone: its section of the report is rewritten, the rest kept).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fullConfig, mcpOnlyConfig, nativeOnlyConfig, ownConfig, quickConfig } from './configs';
import { createProgress } from './progress';
import { REPO_ROOT } from './quality/eval-data';
import { consoleSummary, learningSummary } from './report/console';
import { type BenchResults, runBench } from './run-bench';
import { type LearningSuiteResult, runLearningSuite } from './suites/learning';
import { defaultOutput, writeLearningReport, writeReport } from './write-report';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((argument) => argument !== '--'),
  options: {
    quick: { type: 'boolean', default: false },
    tools: { type: 'string' },
    queries: { type: 'string' },
    'max-queries': { type: 'string' },
    'scan-max-queries': { type: 'string' },
    parallel: { type: 'string' },
    out: { type: 'string' },
    json: { type: 'string' },
    'from-json': { type: 'string' },
    only: { type: 'string' },
    suite: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(
    'pnpm bench [-- --quick | --only native | --only mcp | --tools FILE --queries FILE] [--suite learning] [--max-queries N] [--scan-max-queries N] [--parallel N] [--out FILE] [--json FILE] [--from-json FILE]',
  );
  process.exit(0);
}

const positive = (text: string | undefined, name: string): number | undefined => {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} takes a positive integer, not ${text}`);
  return value;
};
const maxQueries = positive(values['max-queries'], 'max-queries');
const scanMaxQueries = positive(values['scan-max-queries'], 'scan-max-queries');
// pnpm runs the script in packages/bench; paths on the command line are the caller's.
const callerPath = (file: string): string => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
const parallel = positive(values.parallel, 'parallel');
if ((values.tools === undefined) !== (values.queries === undefined)) {
  throw new Error('--tools and --queries go together: a catalog and the queries to measure it with');
}

if (values.only !== undefined && values.only !== 'native' && values.only !== 'mcp') {
  throw new Error(`--only takes the name of a suite that runs alone: native or mcp, not ${values.only}`);
}

const config =
  values.only === 'native'
    ? nativeOnlyConfig()
    : values.only === 'mcp'
      ? mcpOnlyConfig()
      : values.tools !== undefined && values.queries !== undefined
        ? ownConfig({
            tools: callerPath(values.tools),
            queries: callerPath(values.queries),
            ...(maxQueries ? { maxQueries } : {}),
            ...(scanMaxQueries ? { scanMaxQueries } : {}),
            ...(parallel ? { parallel } : {}),
          })
        : values.quick
          ? quickConfig(parallel ? { parallel } : {})
          : fullConfig({
              ...(maxQueries ? { maxQueries } : {}),
              ...(scanMaxQueries ? { scanMaxQueries } : {}),
              ...(parallel ? { parallel } : {}),
            });

// --suite learning: that suite alone, its section of the report rewritten and the rest kept.
if (values.suite !== undefined) {
  if (values.suite !== 'learning') throw new Error(`--suite takes "learning", not ${values.suite}`);
  if (config.learning === null)
    throw new Error('--suite learning needs the eval sets (not --tools/--queries)');
  const progress = createProgress();
  const started = performance.now();
  // With --from-json: the figures a learning run saved with --json, written again.
  const learning = values['from-json']
    ? (JSON.parse(await readFile(callerPath(values['from-json']), 'utf8')) as LearningSuiteResult)
    : await runLearningSuite({ sources: config.sources, plan: config.learning, progress });
  progress.end();
  const markdown = values.out ? callerPath(values.out) : defaultOutput(REPO_ROOT, config.mode);
  const written = await writeLearningReport(learning, { markdown });
  if (values.json) await writeFile(callerPath(values.json), JSON.stringify(learning, null, 2));
  console.log(
    learningSummary(learning, performance.now() - started, [
      ...written,
      ...(values.json ? [callerPath(values.json)] : []),
    ]),
  );
  process.exit(0);
}

// --from-json: write the report again from a run's saved figures (no measuring).
const progress = createProgress();
const results: BenchResults = values['from-json']
  ? savedResults(JSON.parse(await readFile(callerPath(values['from-json']), 'utf8')) as BenchResults)
  : await runBench(config, progress);
progress.end();
const written = await writeReport(results, {
  markdown: values.out
    ? callerPath(values.out)
    : values.only === 'native'
      ? path.join(REPO_ROOT, '.reports', 'benchmarks-native.md')
      : values.only === 'mcp'
        ? path.join(REPO_ROOT, '.reports', 'benchmarks-mcp.md')
        : defaultOutput(REPO_ROOT, results.mode, results.quality.sets[0]?.name),
  ...(values.json ? { json: callerPath(values.json) } : {}),
});
console.log(consoleSummary(results, written));

/** A saved run as this version reports it: runs saved before the real-request or worst-case rows have none. */
function savedResults(saved: BenchResults): BenchResults {
  return {
    ...saved,
    speed: saved.speed.map((row) => ({ ...row, requests: row.requests ?? 'generated' })),
    realRequestSpeed: saved.realRequestSpeed ?? [],
    worstCase: saved.worstCase ?? [],
    native: saved.native ?? [],
    learning: saved.learning ?? null,
    config: {
      ...saved.config,
      worstCase: saved.config.worstCase ?? null,
      native: saved.config.native ?? null,
    },
  };
}
