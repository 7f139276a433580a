import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runNode, startRefusingProvider } from './testing';

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

  it('says each request that a --real model fails on one line, runs the next, and exits 1', async () => {
    const provider = await startRefusingProvider();
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NO_COLOR: '1',
        OPENAI_API_KEY: 'wrong-key',
        OPENAI_BASE_URL: provider.baseURL,
      };
      delete env.ANTHROPIC_API_KEY;
      delete env.TOOL_SEARCH_MODEL;
      const run = await runNode(
        [
          fileURLToPath(new URL('../../../scripts/demo.mjs', import.meta.url)),
          '--real',
          'weather in Oslo',
          'book a table for two in Rome',
        ],
        { env, timeoutMs: 60_000 },
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^"weather in Oslo" failed: Incorrect API key provided: wrong-key\.$/m);
      expect(run.stderr).toMatch(/^"book a table for two in Rome" failed: Incorrect API key provided/m);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stdout).toMatch(/Model: OpenAI gpt-5-mini\./);
      // The last line says that they failed, not only "0 requests".
      expect(run.stdout).toMatch(
        /^0 of 2 requests answered, 2 failed \(said above on stderr\), in [\d.]+ s/m,
      );
      expect(provider.calls()).toBeGreaterThanOrEqual(2);
    } finally {
      await provider.close();
    }
  }, 60_000);

  it('sets both figures against the whole catalog per request: with tool search, and all it added', () => {
    const run = demo('--', 'weather in Oslo tomorrow', 'book a table for two in Rome');
    expect(run.status).toBe(0);
    const lines = run.stdout.split('\n');
    const header = lines.findIndex((line) =>
      /^ {2}request +model calls +tools called +with tool search +all added +whole catalog$/.test(line),
    );
    expect(header).toBeGreaterThan(0);
    const figures = (line: string) => {
      const match = /([\d,]+) +(\d+)× +([\d,]+) +(\d+)× +([\d,]+)$/.exec(line);
      expect(match, line).not.toBeNull();
      const [withSearch, withRatio, allAdded, addedRatio, whole] = match!
        .slice(1)
        .map((text) => Number(text.replaceAll(',', '')));
      return {
        withSearch: withSearch!,
        withRatio: withRatio!,
        allAdded: allAdded!,
        addedRatio: addedRatio!,
        whole: whole!,
      };
    };
    const rows = [lines[header + 1]!, lines[header + 2]!].map(figures);
    const total = figures(lines[header + 3]!);
    expect(lines[header + 3]).toMatch(/^ {2}total /);
    for (const row of [...rows, total]) {
      expect(row.allAdded).toBeGreaterThan(row.withSearch);
      expect(row.allAdded).toBeLessThan(row.whole);
      expect(row.withRatio).toBe(Math.round(row.whole / row.withSearch));
      expect(row.addedRatio).toBe(Math.round(row.whole / row.allAdded));
    }
    expect(total.allAdded).toBe(rows[0]!.allAdded + rows[1]!.allAdded);
    // Each request's trace itemises it, and the footnote says what it counts.
    const itemised = lines.filter((line) => /^ {10}all added [\d,]+ \(definitions /.test(line));
    expect(itemised).toHaveLength(2);
    expect(run.stdout).toMatch(/all added = all that tool search adds to the prompts/);
  });
});
