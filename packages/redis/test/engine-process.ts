/**
 * A second server process for the tests: one tool-search engine on the Redis store, driven by
 * JSON lines on stdin and answering JSON lines on stdout. Started with
 * `tsx --conditions=@tool-search/source test/engine-process.ts <redis url> <key prefix>`.
 *
 *   {"id":1,"op":"load","threadId":"t","toolNames":["getWeather"]}  -> {"id":1,"result":{...LoadToolOutput}}
 *   {"id":2,"op":"step","threadId":"t"}                                -> {"id":2,"result":{"visible":[...],"degraded":false}}
 *
 * A command with `"maxLoadedTools": n` goes to an engine of its own with that cap (made on first
 * use, kept after); the events of each engine are answered by `{"op":"events"}` (and forgotten).
 */
import { createInterface } from 'node:readline';
import { createToolSearchEngine, type ToolSearchEvent } from '@tool-search/core';
import { sampleCatalog } from '@tool-search/core/testing';
import { createClient } from 'redis';
import { createRedisStore } from '../src/redis-store';

const [url, keyPrefix] = process.argv.slice(2);
if (!url || !keyPrefix) throw new Error('usage: engine-process.ts <redis url> <key prefix>');

const client = createClient({ url });
client.on('error', (error: Error) => process.stderr.write(`redis client: ${error.message}\n`));
await client.connect();
const events: ToolSearchEvent[] = [];
const engines = new Map<number | undefined, ReturnType<typeof createToolSearchEngine>>();
function engineFor(maxLoadedTools: number | undefined) {
  let engine = engines.get(maxLoadedTools);
  if (!engine) {
    engine = createToolSearchEngine({
      catalog: sampleCatalog(),
      storage: createRedisStore({ client, keyPrefix }),
      maxLoadedTools,
      onEvent: (event) => events.push(event),
    });
    engines.set(maxLoadedTools, engine);
  }
  return engine;
}

type Command = { id: number; maxLoadedTools?: number } & (
  | { op: 'load'; threadId: string; toolNames: string[] }
  | { op: 'step'; threadId: string }
  | { op: 'events' }
);

async function run(command: Command) {
  if (command.op === 'events') return events.splice(0);
  const request = engineFor(command.maxLoadedTools).startRequest({ threadId: command.threadId });
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
  for (const engine of engines.values()) await engine.dispose();
  await client.close();
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
