import {
  createOfflineHybridRanker,
  demoRequests,
  parseExampleArguments,
  renderTrace,
} from '@tool-search/example-catalog';
import { createLangChainAgent } from './langchain-agent';

// pnpm --filter @tool-search/example-langchain-agent start [-- [--offline] [--hybrid] "your request" ...]
//   no request: the demo requests; --offline: the offline planner even when an API key is set;
//   --hybrid: the hybrid ranker with the offline word-vector embedder.
const parsed = parseExampleArguments(process.argv.slice(2));
if ('error' in parsed) {
  console.error(parsed.error);
  process.exit(2);
}
const requests = parsed.requests.length > 0 ? parsed.requests : demoRequests.map((request) => request.text);
const color = process.stdout.isTTY && process.stdout.hasColors(); // honours NO_COLOR and FORCE_COLOR

const agent = await createLangChainAgent({
  model: parsed.offline ? 'offline' : 'auto',
  ranker: parsed.hybrid ? await createOfflineHybridRanker() : undefined,
});
console.log(`LangChain agent with tool search over the example catalog (224 tools)\n`);
try {
  for (const request of requests) console.log(`${renderTrace(await agent.ask(request), { color })}\n`);
} finally {
  await agent.dispose();
}
