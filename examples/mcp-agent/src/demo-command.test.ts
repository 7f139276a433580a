import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** `pnpm demo -- --mcp …` is `node scripts/demo.mjs --mcp …`: run as the user does, without API keys. */
function demo(...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  delete env.OPENAI_API_KEY;
  delete env.ANTHROPIC_API_KEY;
  const result = spawnSync(
    process.execPath,
    [fileURLToPath(new URL('../../../scripts/demo.mjs', import.meta.url)), ...args],
    { encoding: 'utf8', env, timeout: 120_000 },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('pnpm demo -- --mcp', () => {
  it('runs a request through our servers with ours, then two callers, a revoked token and a server down', () => {
    const run = demo('--mcp', '--framework', 'ours', 'book a table for two in Rome tomorrow at 8pm');
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

  it('refuses a framework it does not have and --hybrid, with exit code 2', () => {
    expect(demo('--mcp', '--framework', 'nope')).toMatchObject({ status: 2, stdout: '' });
    const hybrid = demo('--mcp', '--hybrid');
    expect(hybrid.status).toBe(2);
    expect(hybrid.stderr).toMatch(/--hybrid is not available with --mcp/);
  }, 120_000);
});
