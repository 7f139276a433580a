import { defineProject } from 'vitest/config';

// Tests read sibling packages' sources through the `@tool-search/source`
// export condition, so nothing has to be built before `vitest run`.
const conditions = ['@tool-search/source', 'module', 'node', 'import', 'default'];

export function packageProject(name: string, options: { testTimeout?: number } = {}) {
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ['@tool-search/source'] } },
    test: {
      name,
      environment: 'node',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: options.testTimeout ?? 20_000,
    },
  });
}
