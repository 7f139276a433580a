import { createOfflineHybridRanker, demoRequests, renderTrace } from '@tool-search/example-catalog';
import { createLangChainAgent } from './langchain-agent';

// pnpm --filter @tool-search/example-langchain-agent start [-- [--offline] [--hybrid] "your request" ...]
//   no request: the demo requests; --offline: the offline planner even when an API key is set;
//   --hybrid: the hybrid ranker with the offline word-vector embedder.
const args = process.argv.slice(2).filter((arg) => arg !== '--');
const given = args.filter((arg) => !arg.startsWith('--'));
const requests = given.length > 0 ? given : demoRequests.map((request) => request.text);
const color = process.stdout.isTTY && process.stdout.hasColors(); // honours NO_COLOR and FORCE_COLOR

const agent = await createLangChainAgent({
  model: args.includes('--offline') ? 'offline' : 'auto',
  ranker: args.includes('--hybrid') ? await createOfflineHybridRanker() : undefined,
});
console.log(`LangChain agent with tool search over the example catalog (224 tools)\n`);
try {
  for (const request of requests) console.log(`${renderTrace(await agent.ask(request), { color })}\n`);
} finally {
  await agent.dispose();
}
