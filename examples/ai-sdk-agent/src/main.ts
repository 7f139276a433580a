import { exampleSettings, runExampleRequests } from '@tool-search/example-catalog';
import { createAiSdkAgent } from './ai-sdk-agent';

// pnpm --filter @tool-search/example-ai-sdk-agent start [-- [--offline] [--hybrid] "your request" ...]
//   no request: the demo requests; --offline: the offline planner even when an API key is set;
//   --hybrid: the hybrid ranker with the offline word-vector embedder.
const { requests, model, ranker, color } = await exampleSettings(process.argv.slice(2));
const agent = await createAiSdkAgent({ model, ranker });
console.log(`AI SDK agent with tool search over the example catalog (224 tools)\n`);
// A request that fails (a wrong API key, a provider down) is said on one line, the next one runs,
// and the exit code is 1.
process.exitCode = await runExampleRequests(agent, requests, { color });
