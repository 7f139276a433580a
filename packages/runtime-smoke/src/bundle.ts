/**
 * Bundles the smoke program, with rolldown (the bundler under tsdown), for a runtime that is not
 * Node: the `browser` conditions, and a Node built-in anywhere in the graph is an error, not a
 * shim. From the packages' sources (the `@tool-search/source` condition, so nothing needs
 * building first), or from their built `dist/` (what npm users install; `pnpm test` builds
 * before it tests). The result is one classic script that defines `toolSearchSmoke`; each
 * runtime wraps it in its own entry (a CLI footer, a Worker module, a page).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const NODE_BUILTINS = new Set(builtinModules);

export interface SmokeBundle {
  /** The script: defines `var toolSearchSmoke = { runSmoke }`. */
  readonly code: string;
  /** Where it was written (dist/smoke.js of this package). */
  readonly file: string;
  readonly milliseconds: number;
  /** The files bundled (absolute paths), to tell which of a package's files went in. */
  readonly moduleIds: readonly string[];
}

export const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

/** The runtime-neutral packages whose built entry points the `'built'` bundle reads. */
const NEUTRAL_PACKAGES = ['core', 'ai-sdk', 'langchain', 'word-vectors'] as const;

const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Builds the four packages (turbo: a cache hit when `pnpm test` has just built them), so the
 * bundle reads a `dist/` made from the sources under test, never a stale one.
 */
function buildNeutralPackages(): void {
  const filters = NEUTRAL_PACKAGES.flatMap((name) => ['--filter', `@tool-search/${name}`]);
  const result = spawnSync(
    `${REPOSITORY}node_modules/.bin/turbo`,
    ['run', 'build', ...filters, '--output-logs=errors-only'],
    { cwd: REPOSITORY, encoding: 'utf8', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
  );
  if (result.status !== 0) {
    throw new Error(
      `building ${filters.filter((_, index) => index % 2 === 1).join(', ')} failed:\n${result.stdout}${result.stderr}${result.error ?? ''}`,
    );
  }
}

/** `'sources'`: the packages' `src/`; `'built'`: their `dist/`, as published. */
export type SmokeFrom = 'sources' | 'built';

export async function bundleSmoke(from: SmokeFrom = 'sources'): Promise<SmokeBundle> {
  if (from === 'built') buildNeutralPackages();
  const start = performance.now();
  const output = await build({
    input: fileURLToPath(new URL('./smoke.ts', import.meta.url)),
    platform: 'browser',
    resolve: {
      conditionNames:
        from === 'sources'
          ? ['@tool-search/source', 'browser', 'import', 'default']
          : ['browser', 'import', 'default'],
    },
    transform: { target: 'es2023' },
    plugins: [
      {
        name: 'no-node-built-ins',
        resolveId(source, importer) {
          const bare = source.startsWith('node:') ? source.slice(5) : source;
          if (source.startsWith('node:') || NODE_BUILTINS.has(bare)) {
            throw new Error(`${importer ?? 'the smoke program'} imports the Node built-in '${source}'`);
          }
          return null;
        },
      },
    ],
    onLog(level, log) {
      if (level === 'warn') throw new Error(`rolldown: ${log.message}`);
    },
    output: { format: 'iife', name: 'toolSearchSmoke', codeSplitting: false },
    write: false,
  });
  const chunk = output.output[0];
  const code = chunk.code;
  mkdirSync(DIST, { recursive: true });
  const file = `${DIST}${from === 'sources' ? 'smoke.js' : 'smoke-built.js'}`;
  writeFileSync(file, code);
  return { code, file, milliseconds: Math.round(performance.now() - start), moduleIds: chunk.moduleIds };
}
