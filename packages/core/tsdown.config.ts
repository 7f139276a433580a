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
});
