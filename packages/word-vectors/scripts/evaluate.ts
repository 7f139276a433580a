/**
 * Quality and speed of the hybrid ranker with the offline embedder against the default
 * keyword ranker, in one run, on ../shared/eval (every set, per split) through the bench's
 * quality harness:
 *
 *   pnpm --filter @tool-search/word-vectors run evaluate [--set metatool]... [--weight 0.15]... [--floor 0.2] [--feedback 0.3] [--splits] [--oracle] [--speed 1000,10000] [--embedder use [--embed-words]] [--no-expand]
 *
 * --embed-words gives the encoder the word vectors' `embedWords`, as a user would pair a hosted
 * embedding model with the offline word vectors for the words no tool contains.
 * --no-expand turns off the hybrid ranker's matching of unknown request words by meaning
 * (`expandUnknownWords: false`), to measure what it adds.
 * --embedder use measures a reference sentence encoder (Universal Sentence Encoder lite,
 * offline, see scripts/sentence-encoder.ts) in place of the word vectors: what a better
 * embedder gives the same fusion. It is slow (minutes per set), and not for --speed.
 *
 * --oracle adds the similarity ranking alone (the hybrid ranker at weight 1, floor −1, no
 * pseudo-relevance feedback) and, per
 * set, the NDCG@10 of taking for each query the better of it and the keyword ranking: the
 * headroom a fusion could reach if it knew, per query, which side is right.
 */
import { parseArgs } from 'node:util';
import {
  createHybridRanker,
  createKeywordRanker,
  type Embedder,
  type RankerFactory,
  type ToolDescriptor,
} from '@tool-search/core';
import { EVAL_SET_NAMES, loadEvalSet } from '../../bench/src/quality/eval-data';
import { type EvalReport, evaluateRanker } from '../../bench/src/quality/evaluate';
import { formatQualityTable } from '../../bench/src/quality/format';
import { formatSpeedTable, measureSpeed } from '../../bench/src/synthetic/speed';
import { createWordVectorEmbedder } from '../src/index';
import { createSentenceEncoderEmbedder } from './sentence-encoder';

const { values } = parseArgs({
  // `pnpm run evaluate -- --splits` passes the `--` through (pnpm 12); it is not an argument.
  args: process.argv.slice(2).filter((argument) => argument !== '--'),
  options: {
    set: { type: 'string', multiple: true },
    weight: { type: 'string', multiple: true },
    floor: { type: 'string' },
    feedback: { type: 'string' },
    splits: { type: 'boolean', default: false },
    oracle: { type: 'boolean', default: false },
    speed: { type: 'string' },
    queries: { type: 'string', default: '2000' },
    embedder: { type: 'string', default: 'word-vectors' },
    'no-expand': { type: 'boolean', default: false },
    'embed-words': { type: 'boolean', default: false },
  },
});

if (values.embedder !== 'word-vectors' && (values.embedder !== 'use' || values.speed)) {
  throw new Error(`--embedder is word-vectors or use (use is not for --speed), got ${values.embedder}`);
}
// One sentence encoder for the run: it keeps its vectors by text, so each text is embedded once.
const sentenceEncoder = values.embedder === 'use' ? await createSentenceEncoderEmbedder() : undefined;
if (sentenceEncoder) console.log(`embedder: ${sentenceEncoder.id}`);
// The word vectors' embedWords, given to the encoder with --embed-words: a hosted model paired
// with the offline word vectors for the keyword ranking's words of like meaning.
const encoderWithWords = (encoder: Embedder): Embedder =>
  values['embed-words'] ? { ...encoder, embedWords: createWordVectorEmbedder().embedWords } : encoder;
const embedder = (): Embedder =>
  sentenceEncoder ? encoderWithWords(sentenceEncoder) : createWordVectorEmbedder();
// An encoder this slow would time out a search's wait for it.
const waitOptions = sentenceEncoder ? { timeoutMs: Number.POSITIVE_INFINITY } : {};

const hybrid = (weight: string): RankerFactory =>
  createHybridRanker({
    embedder: embedder(),
    ...waitOptions,
    ...(values['no-expand'] ? { expandUnknownWords: false } : {}),
    ...(weight === 'default' ? {} : { weight: Number(weight) }),
    ...(values.floor === undefined ? {} : { similarityFloor: Number(values.floor) }),
    ...(values.feedback === undefined ? {} : { feedback: Number(values.feedback) }),
  });
const rankers: { name: string; factory: RankerFactory }[] = [
  { name: 'keyword', factory: (tools) => createKeywordRanker(tools) },
  ...(values.weight ?? ['default']).map((weight) => ({
    name: `hybrid${values['no-expand'] ? ' no-expand' : ''}${weight === 'default' ? '' : ` w=${weight}`}${values.floor === undefined ? '' : ` floor=${values.floor}`}${values.feedback === undefined ? '' : ` feedback=${values.feedback}`}`,
    // Timed builds each start cold, as a first build does: a new factory (its vector cache
    // empty) and a new embedder (its word lookups empty).
    factory: values.speed ? (tools: readonly ToolDescriptor[]) => hybrid(weight)(tools) : hybrid(weight),
  })),
  ...(values.oracle && !values.speed
    ? [
        {
          name: 'similarity',
          factory: createHybridRanker({
            embedder: embedder(),
            ...waitOptions,
            weight: 1,
            similarityFloor: -1,
            feedback: 0,
          }),
        },
      ]
    : []),
];

if (values.speed) {
  const rows = [];
  for (const size of values.speed.split(',').map(Number)) {
    for (const ranker of rankers) {
      rows.push(await measureSpeed({ ...ranker, size, queryCount: Number(values.queries) }));
    }
  }
  console.log(formatSpeedTable(rows));
} else {
  const reports: EvalReport[] = [];
  for (const name of values.set ?? EVAL_SET_NAMES) {
    const set = await loadEvalSet(name);
    for (const ranker of rankers) reports.push(await evaluateRanker(ranker, set));
  }
  console.log(formatQualityTable(reports, { splits: values.splits }));
  const base = new Map(
    reports.filter((report) => report.ranker === 'keyword').map((report) => [report.set, report]),
  );
  for (const report of reports) {
    const reference = base.get(report.set);
    if (report.ranker === 'keyword' || report.ranker === 'similarity' || reference === undefined) continue;
    const delta = (metric: 'ndcg10' | 'comp5') =>
      (report.overall.metrics[metric] - reference.overall.metrics[metric]).toFixed(4);
    console.log(
      `${report.set} ${report.ranker}: ΔNDCG@10 ${delta('ndcg10')} ΔComp@5 ${delta('comp5')} (query ${report.queryMs.toFixed(3)} ms, build ${report.buildMs.toFixed(0)} ms)`,
    );
  }
  if (values.oracle) {
    for (const reference of base.values()) {
      const similarity = reports.find(
        (report) => report.set === reference.set && report.ranker === 'similarity',
      );
      if (similarity === undefined) continue;
      const similarityOf = new Map(similarity.perQuery.map((query) => [query.id, query.metrics.ndcg10]));
      let best = 0;
      for (const query of reference.perQuery) {
        best += Math.max(query.metrics.ndcg10, similarityOf.get(query.id) ?? 0);
      }
      const keyword = reference.overall.metrics.ndcg10;
      const oracle = best / reference.perQuery.length;
      const taken = reports
        .filter((report) => report.set === reference.set && report.ranker.startsWith('hybrid'))
        .map((report) => {
          const share = oracle > keyword ? (report.overall.metrics.ndcg10 - keyword) / (oracle - keyword) : 0;
          return `${report.ranker} takes ${(100 * share).toFixed(0)}%`;
        });
      console.log(
        `${reference.set} oracle (per query, the better of keyword and similarity): NDCG@10 ${oracle.toFixed(4)}, +${(oracle - keyword).toFixed(4)} over keyword; ${taken.join(', ')}`,
      );
    }
  }
}
