import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts'],
  format: 'esm',
  platform: 'node',
  target: 'node22',
  dts: true,
  sourcemap: true,
  clean: true,
  fixedExtension: false,
  // The tarball ships src/ beside dist/, and the maps point into it: without this the sources
  // would ship twice (as files and again as the maps' sourcesContent).
  outputOptions: { sourcemapExcludeSources: true },
});
