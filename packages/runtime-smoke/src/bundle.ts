/**
 * Bundles the smoke program once, with rolldown (the bundler under tsdown), from the packages'
 * sources (the `@tool-search/source` condition, so nothing needs building first) for a runtime
 * that is not Node: the `browser` conditions, and a Node built-in anywhere in the graph is an
 * error, not a shim. The result is one classic script that defines `toolSearchSmoke`; each
 * runtime wraps it in its own entry (a CLI footer, a Worker module, a page).
 */
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
}

export const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

export async function bundleSmoke(): Promise<SmokeBundle> {
  const start = performance.now();
  const output = await build({
    input: fileURLToPath(new URL('./smoke.ts', import.meta.url)),
    platform: 'browser',
    resolve: { conditionNames: ['@tool-search/source', 'browser', 'import', 'default'] },
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
  const code = output.output[0].code;
  mkdirSync(DIST, { recursive: true });
  const file = `${DIST}smoke.js`;
  writeFileSync(file, code);
  return { code, file, milliseconds: Math.round(performance.now() - start) };
}
