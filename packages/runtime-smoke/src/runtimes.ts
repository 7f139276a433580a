/**
 * Runs the bundled smoke program on one runtime and returns what it reported. Every runner
 * throws when the runtime cannot be started or the program fails there: nothing is skipped.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SmokeReport } from './smoke';

export interface RuntimeRun {
  /** The runtime and its version, as it says. */
  readonly runtime: string;
  readonly report: SmokeReport;
  /** From starting the runtime to having the report, in this process (ms). */
  readonly wallMilliseconds: number;
}

const require = createRequire(import.meta.url);

/** What the program prints on success, then the report as JSON. */
const MARK = 'TOOL_SEARCH_SMOKE ';

/** A footer for command-line runtimes: run, print the report, exit non-zero on failure. */
const CLI_FOOTER = `
toolSearchSmoke.runSmoke().then(
  (report) => console.log(${JSON.stringify(MARK)} + JSON.stringify(report)),
  (error) => {
    console.error(error && error.stack ? error.stack : String(error));
    if (typeof Deno !== 'undefined') Deno.exit(1);
    process.exitCode = 1;
  },
);
`;

function parseReport(output: string, runtime: string): SmokeReport {
  const line = output.split('\n').find((candidate) => candidate.startsWith(MARK));
  if (line === undefined) throw new Error(`${runtime} printed no smoke report:\n${output}`);
  return JSON.parse(line.slice(MARK.length)) as SmokeReport;
}

function run(command: string, args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 50_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error)
        reject(new Error(`${command} ${args.join(' ')} failed (${error.message}):\n${stdout}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

/**
 * The binary of a runtime published on npm as a wrapper package (`bun`, `deno`) whose optional
 * dependencies are the per-platform binaries: the one installed for this platform. The
 * wrappers' install scripts, which only check or copy that binary, are not run (see
 * pnpm-workspace.yaml), so the binary is started directly.
 */
export function platformBinary(wrapper: 'bun' | 'deno'): string {
  const manifest = require.resolve(`${wrapper}/package.json`);
  const { optionalDependencies = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    optionalDependencies?: Record<string, string>;
  };
  const fromWrapper = createRequire(manifest);
  for (const name of Object.keys(optionalDependencies)) {
    let directory: string;
    try {
      directory = join(fromWrapper.resolve(`${name}/package.json`), '..');
    } catch {
      continue; // another platform's binary: not installed here
    }
    const binary = join(directory, wrapper === 'bun' ? 'bin/bun' : 'deno');
    if (existsSync(binary)) return binary;
  }
  throw new Error(
    `no ${wrapper} binary is installed for ${process.platform}-${process.arch} (run pnpm install; the ${wrapper} package's optional dependencies ship it)`,
  );
}

async function runCommandLine(
  runtime: string,
  command: string,
  args: (file: string) => readonly string[],
  bundle: string,
): Promise<RuntimeRun> {
  const directory = mkdtempSync(join(tmpdir(), 'tool-search-smoke-'));
  try {
    const file = join(directory, 'smoke.mjs');
    writeFileSync(file, bundle + CLI_FOOTER);
    // "v22.23.3", "1.4.5", "deno 2.9.6 (stable, …)": the version is the word with a digit first.
    const said = (await run(command, ['--version'])).stdout.split('\n')[0]!.split(' ');
    const version = (said.find((word) => /^v?\d/.test(word)) ?? said[0]!).replace(/^v/, '');
    const start = performance.now();
    const { stdout, stderr } = await run(command, args(file));
    const wallMilliseconds = Math.round(performance.now() - start);
    return {
      runtime: `${runtime} ${version}`,
      report: parseReport(stdout + stderr, runtime),
      wallMilliseconds,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Node: the `node` this test runs on (the repo's Node 22, from the `node-bin` devDependency). */
export function runNode(bundle: string): Promise<RuntimeRun> {
  return runCommandLine('node', process.execPath, (file) => [file], bundle);
}

export function runBun(bundle: string): Promise<RuntimeRun> {
  return runCommandLine('bun', platformBinary('bun'), (file) => [file], bundle);
}

/** Deno with no permission at all: no file, network or environment access is asked for. */
export function runDeno(bundle: string): Promise<RuntimeRun> {
  return runCommandLine('deno', platformBinary('deno'), (file) => ['run', '--no-prompt', file], bundle);
}

/** Cloudflare's workerd through miniflare: a module Worker, without the nodejs_compat flag. */
export async function runWorkerd(bundle: string): Promise<RuntimeRun> {
  const { Miniflare } = await import('miniflare');
  const script = `${bundle}
export default {
  async fetch() {
    try {
      return Response.json(await toolSearchSmoke.runSmoke());
    } catch (error) {
      return new Response(error && error.stack ? error.stack : String(error), { status: 500 });
    }
  },
};
`;
  const start = performance.now();
  // The module given as it is: miniflare does not follow its imports (a bundle's `import(name)` has none to follow).
  const worker = new Miniflare({
    modules: [{ type: 'ESModule', path: 'smoke.mjs', contents: script }],
    compatibilityDate: '2026-07-01',
  });
  try {
    const response = await worker.dispatchFetch('http://smoke.test/');
    const body = await response.text();
    if (response.status !== 200) throw new Error(`workerd: the smoke program failed:\n${body}`);
    const wallMilliseconds = Math.round(performance.now() - start);
    const { version } = require('workerd/package.json') as { version: string };
    return { runtime: `workerd ${version}`, report: JSON.parse(body) as SmokeReport, wallMilliseconds };
  } finally {
    await worker.dispose();
  }
}

/** Vercel's edge-runtime: the Edge Runtime's globals in a fresh V8 context, and nothing of Node. */
export async function runEdgeRuntime(bundle: string): Promise<RuntimeRun> {
  const { EdgeRuntime } = await import('edge-runtime');
  const start = performance.now();
  const edge = new EdgeRuntime({ initialCode: bundle });
  const nodeVisible = await edge.evaluate<string>(
    'typeof process + " " + typeof require + " " + typeof Buffer',
  );
  if (nodeVisible !== 'undefined undefined undefined') {
    throw new Error(`edge-runtime exposes Node globals (${nodeVisible}): the smoke would prove nothing`);
  }
  const report = JSON.parse(
    await edge.evaluate<Promise<string>>(
      'toolSearchSmoke.runSmoke().then((report) => JSON.stringify(report))',
    ),
  ) as SmokeReport;
  const wallMilliseconds = Math.round(performance.now() - start);
  const { version } = require('edge-runtime/package.json') as { version: string };
  return { runtime: `edge-runtime ${version}`, report, wallMilliseconds };
}

export const CHROMIUM = '/usr/bin/chromium';

/** Debian's chromium, headless, driven by playwright-core (no browser download), with a fresh profile. */
export async function runChromium(bundle: string): Promise<RuntimeRun> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: apt-get install chromium (the browser smoke test runs Debian's chromium)`,
    );
  }
  const { chromium } = await import('playwright-core');
  // The page and the bundle as files: chromium reads 9 MB from disk much faster than over the
  // DevTools protocol (page.addScriptTag).
  const directory = mkdtempSync(join(tmpdir(), 'tool-search-chromium-'));
  writeFileSync(join(directory, 'smoke.js'), bundle);
  writeFileSync(
    join(directory, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>tool-search smoke</title><script src="smoke.js"></script>',
  );
  const start = performance.now();
  let context: Awaited<ReturnType<typeof chromium.launchPersistentContext>> | undefined;
  try {
    context = await chromium.launchPersistentContext(join(directory, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.stack ?? error.message));
    await page.goto(pathToFileURL(join(directory, 'index.html')).href);
    if (errors.length > 0) throw new Error(`chromium: errors loading the bundle:\n${errors.join('\n')}`);
    const version = await page.evaluate(() =>
      navigator.userAgent.split(' ').find((part) => part.includes('Chrome/')),
    );
    const report = await page.evaluate(() =>
      (
        globalThis as unknown as { toolSearchSmoke: { runSmoke(): Promise<SmokeReport> } }
      ).toolSearchSmoke.runSmoke(),
    );
    if (errors.length > 0) throw new Error(`chromium: errors on the page:\n${errors.join('\n')}`);
    const wallMilliseconds = Math.round(performance.now() - start);
    return { runtime: `chromium ${version}`, report, wallMilliseconds };
  } finally {
    await context?.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
