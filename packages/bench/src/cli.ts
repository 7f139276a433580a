/**
 * pnpm bench                       every suite; writes docs/benchmarks.md and docs/benchmarks/*.svg
 * pnpm bench -- --quick            a subsample in under a minute; writes .reports/benchmarks-quick.md
 * pnpm bench -- --tools FILE --queries FILE
 *                                  your own catalog: quality and the topK × minScore table
 * pnpm bench -- --only mcp         the MCP suite alone; writes .reports/benchmarks-mcp.md
 * Options: --max-queries N, --scan-max-queries N, --parallel N, --out FILE, --json FILE,
 * --from-json FILE (write the report again from the figures a run saved with --json).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fullConfig, mcpOnlyConfig, ownConfig, quickConfig } from './configs';
import { createProgress } from './progress';
import { REPO_ROOT } from './quality/eval-data';
import { consoleSummary } from './report/console';
import { type BenchResults, runBench } from './run-bench';
import { defaultOutput, writeReport } from './write-report';

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
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(
    'pnpm bench [-- --quick | --only mcp | --tools FILE --queries FILE] [--max-queries N] [--scan-max-queries N] [--parallel N] [--out FILE] [--json FILE] [--from-json FILE]',
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

if (values.only !== undefined && values.only !== 'mcp') {
  throw new Error(`--only takes the name of a suite that runs alone: mcp, not ${values.only}`);
}

const config =
  values.only === 'mcp'
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

// --from-json: write the report again from a run's saved figures (no measuring).
const progress = createProgress();
const results: BenchResults = values['from-json']
  ? savedResults(JSON.parse(await readFile(callerPath(values['from-json']), 'utf8')) as BenchResults)
  : await runBench(config, progress);
progress.end();
const written = await writeReport(results, {
  markdown: values.out
    ? callerPath(values.out)
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
    config: { ...saved.config, worstCase: saved.config.worstCase ?? null },
  };
}
