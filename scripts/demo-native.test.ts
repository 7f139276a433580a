import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** `pnpm demo -- --native <provider>` as a user runs it (no API key: none is needed). */
function demo(...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  delete env.OPENAI_API_KEY;
  delete env.ANTHROPIC_API_KEY;
  return spawnSync(process.execPath, [fileURLToPath(new URL('./demo.mjs', import.meta.url)), ...args], {
    encoding: 'utf8',
    env,
    timeout: 120_000,
  });
}

/** The summary's rows: `request  4 → 3  491 → 320  1 → 0`, default → native. */
function summary(stdout: string) {
  const lines = stdout.split('\n');
  const header = lines.findIndex((line) =>
    /^ {2}request +model calls +tool-def tokens per call +tool-list changes$/.test(line),
  );
  expect(header, stdout).toBeGreaterThan(0);
  const rows = [];
  for (const line of lines.slice(header + 1)) {
    const match = /^ {2}(.+?) +(\d+) → (\d+) +([\d,]+) → ([\d,]+) +(\d+) → (\d+)$/.exec(line);
    if (!match) break;
    const [calls, nativeCalls, tokens, nativeTokens, changes, nativeChanges] = match
      .slice(2)
      .map((text) => Number(text.replaceAll(',', '')));
    rows.push({
      request: match[1]!,
      default: { calls: calls!, tokens: tokens!, changes: changes! },
      native: { calls: nativeCalls!, tokens: nativeTokens!, changes: nativeChanges! },
    });
  }
  return rows;
}

describe.each(['anthropic', 'openai'])('pnpm demo -- --native %s', (provider) => {
  it('makes one model call fewer than the default mode on every demo request, and never changes the tool list', () => {
    const run = demo('--native', provider);
    expect(run.status, run.stderr).toBe(0);
    const rows = summary(run.stdout);
    // The five demo requests and the total.
    expect(rows).toHaveLength(6);
    expect(rows.at(-1)!.request).toBe('total');
    for (const row of rows.slice(0, -1)) {
      expect(row.native.calls, row.request).toBe(row.default.calls - 1);
      expect(row.native.changes, row.request).toBe(0);
      expect(row.default.changes, row.request).toBeGreaterThan(0);
      expect(row.native.tokens).toBeGreaterThan(0);
    }
    const total = rows.at(-1)!;
    expect(total.native.calls).toBe(total.default.calls - 5);
    expect(total.native.changes).toBe(0);
    // Each request's calls, with what the model did: the native mode never loads.
    expect(run.stdout).toMatch(/^ {2}native +1 +search_tools|^ {2}native +1 +tool_search/m);
    expect(run.stdout).toMatch(new RegExp(`real @ai-sdk/${provider}`));
  });
});

it('refuses --native with an unknown provider (exit 2, one line)', () => {
  const run = demo('--native', 'gemini');
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/^Unknown provider "gemini" for --native: choose anthropic, openai\.\n$/);
  expect(run.stdout).toBe('');
});
