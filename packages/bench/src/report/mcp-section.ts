import type { BenchResults } from '../run-bench';
import type { McpTiming } from '../suites/mcp';
import { bytes, integer, ms, ratio, table } from './format';

const spread = (timing: McpTiming) => `${ms(timing.medianMs)} (${ms(timing.minMs)}–${ms(timing.maxMs)})`;

/** The MCP headline: tokens per request against sending every MCP tool, and the schema check. */
export function mcpHeadline(results: BenchResults): string[] {
  const mcp = results.mcp;
  if (!mcp) return [];
  const { tokens } = mcp;
  return [
    `**MCP**: over ${integer(mcp.tools)} tools from ${mcp.servers} local MCP servers, a request with tool search sends ${integer(tokens.perRequestWithSearch)} tokens of tool definitions against ${integer(tokens.perRequestEveryTool)} sending every MCP tool (${ratio(tokens.perRequestEveryTool / tokens.perRequestWithSearch)} fewer); a caller's later request lists and indexes them in ${ms(mcp.oursCached.medianMs)}; ${mcp.schemaCheck.passed ? 'no schema is read before a load' : 'a schema was read before a load (see the MCP section)'}.`,
  ];
}

/** The MCP section: list and index times, tokens, and the no-schema-before-load check. */
export function mcpSection(results: BenchResults): string[] {
  const mcp = results.mcp;
  if (!mcp) return [];
  const { tokens, schemaCheck: check } = mcp;
  const runs = mcp.oursFirst.runs;
  return [
    '## MCP: tools from MCP servers',
    '',
    `${integer(mcp.tools)} tools (the example catalog's, renamed) served by ${mcp.servers} MCP servers of ours (\`examples/mcp-agent\`: the SDK's \`McpServer\`, Streamable HTTP on loopback ports, a bearer token per caller), ${integer(mcp.tools / mcp.servers)} each. ` +
      `Each time is the median of ${runs} run${runs === 1 ? '' : 's'} after one untimed run (min–max in brackets).`,
    '',
    table(
      ['what', 'time', 'what it does'],
      [
        [
          '`@tool-search/mcp`, a caller’s first request',
          spread(mcp.oursFirst),
          `connects to the ${mcp.servers} servers with the caller’s token, lists every page of \`tools/list\`, builds the index over names and descriptions, and runs one search`,
        ],
        [
          '`@tool-search/mcp`, the caller’s next request',
          spread(mcp.oursCached),
          'the listing reused while fresh (`defaultTtlMs` 60 s: our servers send no `ttlMs`), the connections kept, the index, one search',
        ],
        [
          '`@ai-sdk/mcp` (for comparison)',
          spread(mcp.aiSdkEager),
          `\`createMCPClient\`, \`listTools()\` and \`toolsFromDefinitions()\` on each server: every schema made into a tool, on every request (the client keeps no listing)`,
        ],
      ],
      'lrl',
    ),
    '',
    table(
      ['tool definitions (o200k tokens)', 'per model call', 'per request'],
      [
        [
          'every MCP tool, schemas included (no tool search)',
          integer(tokens.everyToolPerCall),
          integer(tokens.perRequestEveryTool),
        ],
        ['tool search: the meta-tools', integer(tokens.metaToolsPerCall), ''],
        ['tool search: the meta-tools and the one loaded tool', integer(tokens.afterOneLoadPerCall), ''],
        ['tool search, the whole request', '', integer(tokens.perRequestWithSearch)],
      ],
      'lrr',
    ),
    '',
    `A request is counted as a model runs it: with tool search, search, load, call and answer (four model calls, two of them with the loaded tool); without, call and answer (two model calls) with every tool. The \`tools/list\` results of the ${mcp.servers} servers are ${bytes(tokens.listingBytes)} of JSON, nearly all of it schemas.`,
    '',
    `**No schema before a load**: ${check.passed ? 'passed' : 'FAILED'}. While listing ${integer(mcp.tools)} tools and searching them, ${check.resolvesBeforeLoad} tools were resolved and ${check.descriptorsWithSchema} descriptors carried a schema; loading one tool resolved ${check.resolvesAfterLoad} and it was ${check.loadedToolHasSchema ? '' : 'not '}sent with its schema.`,
    '',
  ];
}
