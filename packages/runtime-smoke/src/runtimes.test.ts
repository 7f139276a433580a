import { beforeAll, describe, expect, it } from 'vitest';
import { bundleSmoke } from './bundle';
import {
  type RuntimeRun,
  runBun,
  runChromium,
  runDeno,
  runEdgeRuntime,
  runNode,
  runWorkerd,
} from './runtimes';

// One bundle of the smoke program (src/smoke.ts), run on each runtime: a test per runtime, so a
// runtime that fails is a failed test in CI's count, never a skipped one.
let bundle: string;
beforeAll(async () => {
  const built = await bundleSmoke();
  bundle = built.code;
  console.log(`smoke bundle: ${(bundle.length / 1e6).toFixed(1)} MB in ${built.milliseconds} ms`);
});

function expectReport(run: RuntimeRun): void {
  console.log(`${run.runtime}: ${run.wallMilliseconds} ms (${JSON.stringify(run.report.timings)})`);
  expect(run.report.tools).toBeGreaterThanOrEqual(200);
  expect(Object.keys(run.report.timings)).toEqual([
    'receipts',
    'keywordIndex',
    'wordVectors',
    'generateText',
    'contextRoundTrip',
    'langChain',
  ]);
}

describe('the runtime-neutral packages run the smoke program on', () => {
  it('Node 22', async () => {
    expect(process.versions.node.split('.')[0]).toBe('22');
    expectReport(await runNode(bundle));
  });

  it('Bun', async () => {
    expectReport(await runBun(bundle));
  });

  it('Deno (no permissions)', async () => {
    expectReport(await runDeno(bundle));
  });

  it('workerd (Cloudflare Workers, through miniflare, no nodejs_compat)', async () => {
    expectReport(await runWorkerd(bundle));
  });

  it("edge-runtime (Vercel's Edge Runtime)", async () => {
    expectReport(await runEdgeRuntime(bundle));
  });

  it('headless Chromium (Debian chromium through playwright-core)', async () => {
    expectReport(await runChromium(bundle));
  });
});
