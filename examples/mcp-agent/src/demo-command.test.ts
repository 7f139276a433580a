import { fileURLToPath } from 'node:url';
import { runNode } from '@tool-search/example-catalog/testing';
import { describe, expect, it } from 'vitest';

const demoScript = fileURLToPath(new URL('../../../scripts/demo.mjs', import.meta.url));

/** `pnpm demo -- --mcp …` is `node scripts/demo.mjs --mcp …`: run as the user does, without API keys. */
function demo(...args: string[]) {
  const { OPENAI_API_KEY: _openai, ANTHROPIC_API_KEY: _anthropic, ...env } = process.env;
  return runNode([demoScript, ...args], { env: { ...env, NO_COLOR: '1' } });
}

describe('pnpm demo -- --mcp', () => {
  it('runs a request through our servers with ours, then two callers, a revoked token and a server down', async () => {
    const run = await demo('--mcp', '--framework', 'ours', 'book a table for two in Rome tomorrow at 8pm');
    expect(run.stderr).not.toMatch(/failed:|\n\s+at /);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/tool-search demo · MCP/);
    expect(run.stdout).toMatch(/call book_restaurant_table/);
    expect(run.stdout).toMatch(/listed 224 tools, names and descriptions only/);
    expect(run.stdout).toMatch(
      /server travel ran get_weather_forecast with token token-alice \(user alice\)/,
    );
    expect(run.stdout).toMatch(/server travel ran get_weather_forecast with token token-bob \(user bob\)/);
    expect(run.stdout).toMatch(/unavailable code: refused the caller’s token \(HTTP 401\)/);
    expect(run.stdout).toMatch(/unavailable travel: is down \(connection refused\)/);
  }, 120_000);

  it('refuses a framework it does not have and --hybrid, with exit code 2', async () => {
    expect(await demo('--mcp', '--framework', 'nope')).toMatchObject({ status: 2, stdout: '' });
    const hybrid = await demo('--mcp', '--hybrid');
    expect(hybrid.status).toBe(2);
    expect(hybrid.stderr).toMatch(/--hybrid is not available with --mcp/);
  }, 120_000);
});
