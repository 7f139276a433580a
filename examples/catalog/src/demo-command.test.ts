import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** `pnpm demo` is `node scripts/demo.mjs`: run it as the user does, without the API keys. */
function demo(...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  delete env.OPENAI_API_KEY;
  delete env.ANTHROPIC_API_KEY;
  const result = spawnSync(
    process.execPath,
    [fileURLToPath(new URL('../../../scripts/demo.mjs', import.meta.url)), ...args],
    { encoding: 'utf8', env, timeout: 60_000 },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('pnpm demo', () => {
  it('refuses an empty request (exit 2, one line), instead of running the five demo requests', () => {
    for (const request of ['', '   ']) {
      const run = demo('--', request);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/^A request is empty: write what the agent should do\.\n$/);
      expect(run.stdout).toBe('');
    }
  });

  it('refuses --real with no API key, instead of running the offline planner as if asked to', () => {
    const run = demo('--real', 'weather in Oslo');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--real needs OPENAI_API_KEY or ANTHROPIC_API_KEY/);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(run.stdout).toBe('');
  });
});
