/**
 * Quality (and speed) of the rankers, from the command line:
 *
 *   tsx --conditions=@tool-search/source packages/bench/src/quality/cli.ts [--set bfcl]... [--ranker keyword|bm25]...
 *       [--splits] [--json out.json]
 *   (sets: toolbench, bfcl, seal-tools, metatool from ../shared/eval; synthetic-<size> for a generated catalog)
 *   node --expose-gc --import tsx --conditions=@tool-search/source packages/bench/src/quality/cli.ts --speed [--sizes 1000,10000,100000]
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { syntheticEvalSet } from '../synthetic/catalog';
import { formatSpeedTable, measureSpeed } from '../synthetic/speed';
import { EVAL_SET_NAMES, loadEvalSet } from './eval-data';
import { type EvalReport, evaluateRanker } from './evaluate';
import { formatQualityTable } from './format';
import { RANKERS } from './rankers';

const { values } = parseArgs({
  options: {
    set: { type: 'string', multiple: true },
    ranker: { type: 'string', multiple: true },
    splits: { type: 'boolean', default: false },
    json: { type: 'string' },
    speed: { type: 'boolean', default: false },
    sizes: { type: 'string', default: '1000,10000,100000' },
    queries: { type: 'string', default: '2000' },
  },
});

const rankerNames = values.ranker ?? Object.keys(RANKERS);
for (const name of rankerNames) {
  if (!(name in RANKERS))
    throw new Error(`unknown ranker ${name}; known: ${Object.keys(RANKERS).join(', ')}`);
}

if (values.speed) {
  const sizes = values.sizes.split(',').map(Number);
  const rows = [];
  for (const size of sizes) {
    for (const name of rankerNames) {
      const row = await measureSpeed({
        name,
        factory: RANKERS[name]!,
        size,
        queryCount: Number(values.queries),
      });
      rows.push(row);
      console.error(`${name} ${size}: ${JSON.stringify(row)}`);
    }
  }
  console.log(formatSpeedTable(rows));
} else {
  const reports: EvalReport[] = [];
  for (const setName of values.set ?? EVAL_SET_NAMES) {
    // `synthetic-<size>`: a generated catalog no ranker was tuned on.
    const synthetic = /^synthetic-(\d+)$/.exec(setName);
    const set = synthetic ? syntheticEvalSet({ size: Number(synthetic[1]) }) : await loadEvalSet(setName);
    for (const name of rankerNames)
      reports.push(await evaluateRanker({ name, factory: RANKERS[name]! }, set));
  }
  console.log(formatQualityTable(reports, { splits: values.splits }));
  if (values.json !== undefined) await writeFile(values.json, JSON.stringify(reports, null, 2));
}
