/**
 * A second server process for the tests: one tool-search engine on the Redis store, driven by
 * JSON lines on stdin and answering JSON lines on stdout. Started with
 * `tsx --conditions=@tool-search/source test/engine-process.ts <redis url> <key prefix>`.
 *
 *   {"id":1,"op":"load","threadId":"t","toolNames":["getWeather"]}  -> {"id":1,"result":{...LoadToolOutput}}
 *   {"id":2,"op":"step","threadId":"t"}                                -> {"id":2,"result":{"visible":[...],"degraded":false}}
 */
import { createInterface } from 'node:readline';
import { createToolSearchEngine } from '@tool-search/core';
import { sampleCatalog } from '@tool-search/core/testing';
import { createClient } from 'redis';
import { createRedisStore } from '../src/redis-store';

const [url, keyPrefix] = process.argv.slice(2);
if (!url || !keyPrefix) throw new Error('usage: engine-process.ts <redis url> <key prefix>');

const client = createClient({ url });
client.on('error', (error: Error) => process.stderr.write(`redis client: ${error.message}\n`));
await client.connect();
const engine = createToolSearchEngine({
  catalog: sampleCatalog(),
  storage: createRedisStore({ client, keyPrefix }),
});

type Command =
  | { id: number; op: 'load'; threadId: string; toolNames: string[] }
  | { id: number; op: 'step'; threadId: string };

async function run(command: Command) {
  const request = engine.startRequest({ threadId: command.threadId });
  if (command.op === 'load') return request.loadTool({ toolNames: command.toolNames });
  const plan = await request.prepareStep();
  return { visible: plan.visible, degraded: plan.degraded };
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const command = JSON.parse(line) as Command;
  run(command).then(
    (result) => process.stdout.write(`${JSON.stringify({ id: command.id, result })}\n`),
    (error: unknown) => process.stdout.write(`${JSON.stringify({ id: command.id, error: String(error) })}\n`),
  );
});
lines.on('close', async () => {
  await engine.dispose();
  await client.close();
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
