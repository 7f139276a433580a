import { expectOneLineFailures } from '@tool-search/example-catalog/testing';
import { it } from 'vitest';

it('says each request that the provider refuses on one line, runs the next, and exits 1', async () => {
  await expectOneLineFailures(new URL('./main.ts', import.meta.url), /^AI SDK agent with tool search/);
}, 60_000);
