import { defineConfig } from 'vitest/config';

// One run over every workspace package; each package is a vitest project with
// its own config. The JSON report is what .ci/run counts.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'examples/*/vitest.config.ts', 'scripts/vitest.config.ts'],
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
  },
});
