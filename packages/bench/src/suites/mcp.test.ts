import { expect, it } from 'vitest';
import { renderMarkdown } from '../report/markdown';
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

  // The report writer's section, from these figures.
  const markdown = renderMarkdown(
    {
      mode: 'quick',
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
      suiteMs: {},
      machine: { cpu: 'cpu', cores: 2, memoryGb: 24, node: 'v22', platform: 'linux', loadAverage: 0 },
      load: { start: 0, end: 0, peak: 0 },
      systems: [],
      config: {
        maxQueries: undefined,
        scanMaxQueries: undefined,
        speed: null,
        steps: null,
        worstCase: null,
        native: null,
        chooseMaxQueries: undefined,
      },
      quality: { sets: [], fullReports: [], reports: [] },
      choose: [],
      tokens: [],
      speed: [],
      realRequestSpeed: [],
      steps: [],
      worstCase: [],
      native: [],
      learning: null,
      mcp,
    },
    [],
    'charts',
  );
  expect(markdown).toContain('## MCP: tools from MCP servers');
  expect(markdown).toContain('**No schema before a load**: passed.');
  expect(markdown).toMatch(/- \*\*MCP\*\*: over 60 tools from 2 local MCP servers/);
}, 60_000);
