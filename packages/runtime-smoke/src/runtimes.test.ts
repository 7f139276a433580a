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
// Bundling 9 MB (the word vectors) takes a few seconds, more on a busy machine.
const BUNDLE_TIMEOUT = 60_000;
// The built bundle first builds the four packages: a turbo cache hit after `pnpm test`'s build,
// a minute or more when nothing is built yet.
const BUILD_AND_BUNDLE_TIMEOUT = 240_000;

let bundle: string;
beforeAll(async () => {
  const built = await bundleSmoke('sources');
  bundle = built.code;
  console.log(`smoke bundle: ${(bundle.length / 1e6).toFixed(1)} MB in ${built.milliseconds} ms`);
}, BUNDLE_TIMEOUT);

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

// The runtimes with no Node compatibility at all, each with how it is named in a test.
const WITHOUT_NODE: readonly (readonly [string, (bundle: string) => Promise<RuntimeRun>])[] = [
  ['workerd (Cloudflare Workers, through miniflare, no nodejs_compat)', runWorkerd],
  ["edge-runtime (Vercel's Edge Runtime)", runEdgeRuntime],
  ['headless Chromium (Debian chromium through playwright-core)', runChromium],
];

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

  for (const [title, run] of WITHOUT_NODE) {
    it(title, async () => {
      expectReport(await run(bundle));
    });
  }
});

// What npm users install is dist/, built by tsdown: the same program bundled from the built
// packages, run on the runtimes that have no Node compatibility at all (a build step that
// brought in a Node built-in or a Node-only shim fails the bundle or these runs).
describe('the built packages (dist/) run the smoke program on', () => {
  let builtBundle: string;
  beforeAll(async () => {
    const built = await bundleSmoke('built');
    builtBundle = built.code;
    // Every file of ours in the bundle is a built one (the smoke program itself aside).
    const ours = built.moduleIds.filter((id) =>
      /[/\\]packages[/\\](core|ai-sdk|langchain|word-vectors)[/\\]/.test(id),
    );
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.filter((id) => !/[/\\](dist|data)[/\\]/.test(id))).toEqual([]);
  }, BUILD_AND_BUNDLE_TIMEOUT);

  for (const [title, run] of WITHOUT_NODE) {
    it(title, async () => {
      expectReport(await run(builtBundle));
    });
  }
});
