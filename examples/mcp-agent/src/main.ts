import { runMcpDemo } from './run-mcp-demo';

// pnpm --filter @tool-search/example-mcp-agent start [-- "your request" ...]
//   Starts our four MCP servers on loopback ports and runs the requests (none: the demo requests)
//   through each agent (the AI SDK, Mastra and LangChain with their own MCP clients, and ours),
//   then shows per-caller tokens, a revoked token and a server that is down. Offline: the model is
//   the example catalog's planner, a stand-in for an LLM.
const requests = process.argv.slice(2).filter((arg) => arg !== '--');
process.exitCode = await runMcpDemo({
  requests,
  color: process.stdout.isTTY === true && process.stdout.hasColors(),
});
