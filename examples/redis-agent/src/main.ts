import { startRedisServer } from '@tool-search/redis/testing';
import { runRedisAgent } from './redis-agent';

// REDIS_URL=redis://... pnpm start   (without it, a throwaway local redis-server is started)
const throwaway = process.env.REDIS_URL ? undefined : await startRedisServer();
const url = process.env.REDIS_URL ?? throwaway!.url;
try {
  const turns = await runRedisAgent({ url });
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
