/**
 * pnpm demo -- --mcp [--framework ai-sdk|mastra|langchain|ours] [--real] ["your request" ...]
 *
 * The MCP example (examples/mcp-agent): our four MCP servers on loopback ports, each agent
 * connecting per request with the caller's bearer token through its framework's own MCP client
 * (or ours, @tool-search/mcp), printed like the default demo, then two callers, a revoked token
 * and a server that is down. Kept apart from demo.ts, which only hands `--mcp` over.
 */
import { parseDemoArguments } from '../examples/catalog/src/index';

export const mcpUsage = `  --mcp               the example catalog served by four MCP servers of ours (Streamable HTTP on
                      loopback, a bearer token per user), reached per request through each
                      framework's own MCP client and ours (@tool-search/mcp); --framework picks one
                      of ai-sdk, mastra, langchain, ours (default: all four)`;

export interface McpDemoOptions {
  /** The command line with \`--mcp\` taken out. */
  readonly argv: readonly string[];
  readonly color: boolean;
  readonly progress: { update(text: string): void; clear(): void };
}

/** Runs the MCP demo; returns the exit code (2 for a bad command line, 1 when a request failed). */
export async function runMcpDemoCommand(options: McpDemoOptions): Promise<number> {
  const { mcpDemoFrameworks, runMcpDemo } = await import('../examples/mcp-agent/src/run-mcp-demo');
  // --framework is read here (the MCP demo has one more: ours); the rest as the default demo reads it.
  const rest: string[] = [];
  let framework: string | undefined;
  for (let index = 0; index < options.argv.length; index++) {
    const arg = options.argv[index]!;
    if (arg === '--framework' || arg === '-f') framework = options.argv[++index] ?? '';
    else if (arg.startsWith('--framework=')) framework = arg.slice('--framework='.length);
    else rest.push(arg);
  }
  const parsed = parseDemoArguments(rest);
  if ('help' in parsed) return 0;
  if ('error' in parsed) {
    console.error(parsed.error);
    return 2;
  }
  if (parsed.hybrid) {
    console.error('--hybrid is not available with --mcp: the MCP agents rank with the keyword ranker.');
    return 2;
  }
  const chosen = framework?.toLowerCase();
  if (chosen !== undefined && !(mcpDemoFrameworks as readonly string[]).includes(chosen)) {
    console.error(`Unknown framework "${framework}" for --mcp: choose ${mcpDemoFrameworks.join(', ')}.`);
    return 2;
  }
  try {
    return await runMcpDemo({
      frameworks: chosen === undefined ? undefined : [chosen as (typeof mcpDemoFrameworks)[number]],
      requests: parsed.requests,
      real: parsed.real,
      color: options.color,
      progress: (text) => options.progress.update(text),
      write: (text) => {
        options.progress.clear();
        console.log(text);
      },
      writeError: (text) => {
        options.progress.clear();
        console.error(text);
      },
    });
  } finally {
    options.progress.clear();
  }
}
