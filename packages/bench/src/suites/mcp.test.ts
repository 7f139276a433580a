import { expect, it } from 'vitest';
import { mcpHeadline, mcpSection } from '../report/mcp-section';
import type { BenchResults } from '../run-bench';
import { runMcpSuite } from './mcp';

it('lists and indexes the tools of local MCP servers, counts tokens, and reads no schema before a load', async () => {
  const mcp = await runMcpSuite({ plan: { servers: 2, toolsPerServer: 30, repeats: 1 } });
  expect(mcp).toMatchObject({ servers: 2, tools: 60 });
  expect(mcp.schemaCheck).toEqual({
    resolvesBeforeLoad: 0,
    descriptorsWithSchema: 0,
    resolvesAfterLoad: 1,
    loadedToolHasSchema: true,
    passed: true,
  });
  for (const timing of [mcp.oursFirst, mcp.oursCached, mcp.aiSdkEager]) {
    expect(timing.runs).toBe(1);
    expect(timing.medianMs).toBeGreaterThan(0);
  }
  const { tokens } = mcp;
  expect(tokens.afterOneLoadPerCall).toBeGreaterThan(tokens.metaToolsPerCall);
  expect(tokens.perRequestWithSearch).toBe(2 * tokens.metaToolsPerCall + 2 * tokens.afterOneLoadPerCall);
  expect(tokens.everyToolPerCall).toBeGreaterThan((30 * tokens.metaToolsPerCall) / 10);
  expect(tokens.listingBytes).toBeGreaterThan(10_000);

  // The report writer's section and headline, from these figures (the suite's own part of the results).
  const results = { mcp } as BenchResults;
  const markdown = [...mcpHeadline(results).map((line) => `- ${line}`), ...mcpSection(results)].join('\n');
  expect(markdown).toContain('## MCP: tools from MCP servers');
  expect(markdown).toContain('**No schema before a load**: passed.');
  expect(markdown).toMatch(/- \*\*MCP\*\*: over 60 tools from 2 local MCP servers/);
}, 60_000);
