import { startRedisServer } from '@tool-search/redis/testing';
import { runRedisAgent } from './redis-agent';

// REDIS_URL=redis://... pnpm start   (without it, a throwaway local redis-server is started)
const failed = (message: string): never => {
  console.error(message);
  process.exit(1);
};
const throwaway = process.env.REDIS_URL
  ? undefined
  : await startRedisServer().catch((error: unknown) =>
      failed(
        `${error instanceof Error ? error.message : String(error)}\nOr set REDIS_URL=redis://host:port to use a running Redis.`,
      ),
    );
const url = process.env.REDIS_URL ?? throwaway!.url;
try {
  const turns = await runRedisAgent({ url }).catch((error: unknown) =>
    failed(`The agent could not run: ${error instanceof Error ? error.message : String(error)}`),
  );
  for (const turn of turns) {
    console.log(`\n${turn.server} ← "${turn.prompt}"`);
    for (const [step, tools] of turn.toolsPerStep.entries()) {
      console.log(`  step ${step + 1}: model sees [${tools.join(', ')}]`);
    }
    console.log(`  tool calls: ${turn.toolCalls.join(' → ')}`);
    console.log(`  answer: ${turn.text}`);
  }
} finally {
  await throwaway?.dispose();
}
