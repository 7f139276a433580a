import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runNode, startRefusingProvider } from '@tool-search/example-catalog/testing';
import { afterAll, expect, it } from 'vitest';

const provider = await startRefusingProvider();
afterAll(() => provider.close());

it('says each request that the provider refuses on one line, runs the next, and exits 1', async () => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OPENAI_API_KEY: 'wrong-key',
    OPENAI_BASE_URL: provider.baseURL,
    NO_COLOR: '1',
  };
  delete env.ANTHROPIC_API_KEY;
  delete env.TOOL_SEARCH_MODEL;
  const run = await runNode(
    [
      '--conditions=@tool-search/source',
      '--import',
      createRequire(import.meta.url).resolve('tsx'),
      fileURLToPath(new URL('./main.ts', import.meta.url)),
      '--',
      'weather in Oslo',
      'book a table for two in Rome',
    ],
    { env },
  );
  expect(run.status).toBe(1);
  expect(run.stdout).toMatch(/^LangChain agent with tool search/);
  expect(run.stderr).toMatch(/^"weather in Oslo" failed: [^\n]*Incorrect API key provided: wrong-key\./m);
  expect(run.stderr).toMatch(/^"book a table for two in Rome" failed: [^\n]*Incorrect API key provided/m);
  expect(run.stderr).toMatch(/^2 of 2 requests failed\.$/m);
  // No stack trace, and not the request body that the provider's error carries.
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stderr).not.toMatch(/requestBodyValues|search_tools/);
  expect(provider.calls()).toBeGreaterThanOrEqual(2);
}, 60_000);
