/**
 * How long a start takes to read a catalog's vectors back from Redis through
 * `createStoredEmbedder` (the figures in the core's docs/hybrid-ranking.md and this package's docs/how-it-works.md):
 *
 *   pnpm --filter @tool-search/redis run vector-store-speed [--tools 10000] [--dimensions 1536]
 *
 * Starts a throwaway redis-server, embeds the catalog once with a stand-in embedding API (its
 * vectors made up, its calls counted), then times three later starts, each a new stored
 * embedder over the same store, and one `get` of every text in a single call for comparison.
 */
import { parseArgs } from 'node:util';
import { createStoredEmbedder, type Embedder } from '@tool-search/core';
import { createClient } from 'redis';
import { createRedisVectorStore } from '../src/redis-vector-store';
import { startRedisServer } from '../src/testing';

const { values } = parseArgs({
  options: {
    tools: { type: 'string', default: '10000' },
    dimensions: { type: 'string', default: '1536' },
  },
});
const tools = Number(values.tools);
const dimensions = Number(values.dimensions);
const texts = Array.from(
  { length: tools },
  (_, index) => `tool_${index}. Does one thing for a user, with a description and parameters a b c`,
);

let sent = 0;
const api: Embedder = {
  id: `stand-in:${dimensions}`,
  dimensions,
  async embed(batch) {
    sent += batch.length;
    return batch.map((_, row) =>
      Float32Array.from({ length: dimensions }, (_, column) => Math.sin(row + column)),
    );
  },
};

const server = await startRedisServer();
const client = createClient({ url: server.url });
client.on('error', () => {});
await client.connect();
try {
  const store = createRedisVectorStore({ client, keyPrefix: 'speed:', commandTimeoutMs: 60_000 });
  const errors: unknown[] = [];
  const start = () => createStoredEmbedder({ embedder: api, store, onError: (error) => errors.push(error) });
  let started = performance.now();
  await start().embed(texts);
  console.log(
    `${tools} tools × ${dimensions}: first start ${(performance.now() - started).toFixed(0)} ms, ${sent} texts sent`,
  );
  for (let run = 0; run < 3; run++) {
    sent = 0;
    started = performance.now();
    await start().embed(texts);
    console.log(`later start: ${(performance.now() - started).toFixed(0)} ms, ${sent} texts sent`);
  }
  started = performance.now();
  await store.get(api.id, texts);
  console.log(`one get of every text: ${(performance.now() - started).toFixed(0)} ms`);
  for (const size of [500]) {
    const times: string[] = [];
    for (let run = 0; run < 3; run++) {
      started = performance.now();
      await store.get(api.id, texts.slice(0, size));
      times.push((performance.now() - started).toFixed(0));
    }
    console.log(`one get of ${size} texts: ${times.join(' / ')} ms`);
  }
  console.log(`store errors: ${errors.length}`);
  await store.clear();
} finally {
  await client.close();
  await server.dispose();
}
