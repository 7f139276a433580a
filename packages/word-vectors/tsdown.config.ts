import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts'],
  format: 'esm',
  // Runtime-neutral: the build assumes no Node (it runs on Bun, Deno, Workers, edge functions and
  // browsers too; packages/runtime-smoke proves it), and no `node` export condition is resolved.
  platform: 'neutral',
  target: 'es2023',
  // The shipped vectors stay their own module beside dist/ (`../data/…` from src/ and dist/ alike).
  deps: { neverBundle: [/\/data\/glove-6b-40k-int8\.js$/] },
  dts: true,
  sourcemap: true,
  clean: true,
  fixedExtension: false,
  // The tarball ships src/ beside dist/, and the maps point into it: without this the sources
  // would ship twice (as files and again as the maps' sourcesContent).
  outputOptions: { sourcemapExcludeSources: true },
});
