import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts', 'src/testing.ts'],
  format: 'esm',
  // Runtime-neutral: the build assumes no Node (it runs on Bun, Deno, Workers, edge functions and
  // browsers too; packages/runtime-smoke proves it), and no `node` export condition is resolved.
  platform: 'neutral',
  target: 'es2023',
  dts: true,
  sourcemap: true,
  clean: true,
  fixedExtension: false,
  // The tarball ships src/ beside dist/, and the maps point into it: without this the sources
  // would ship twice (as files and again as the maps' sourcesContent).
  outputOptions: { sourcemapExcludeSources: true },
});
