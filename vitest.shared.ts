import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

// Tests read sibling packages' sources through the `@tool-search/source`
// export condition, so nothing has to be built before `vitest run`.
const conditions = ['@tool-search/source', 'module', 'node', 'import', 'default'];

// Reads TOOL_SEARCH_TEST_REQUIRES (REQUIRES_VARIABLE in scripts/provision.mjs).
const requiresSetup = fileURLToPath(new URL('./scripts/test-requires.mjs', import.meta.url));

export interface PackageProjectOptions {
  readonly testTimeout?: number;
  /**
   * System programs the tests need, by their `binary` in scripts/provision.mjs's table: when one is
   * missing, every test file of the project fails with the line saying what to install.
   */
  readonly requires?: readonly string[];
  /**
   * Projects run in groups, lowest first (vitest's `sequence.groupOrder`); a project that must not
   * overlap the others (it builds and reads `dist/`) runs in a later group. Default 0.
   */
  readonly groupOrder?: number;
}

export function packageProject(name: string, options: PackageProjectOptions = {}) {
  const requires = options.requires ?? [];
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ['@tool-search/source'] } },
    test: {
      name,
      environment: 'node',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: options.testTimeout ?? 20_000,
      ...(options.groupOrder !== undefined ? { sequence: { groupOrder: options.groupOrder } } : {}),
      ...(requires.length > 0
        ? { setupFiles: [requiresSetup], env: { TOOL_SEARCH_TEST_REQUIRES: requires.join(',') } }
        : {}),
    },
  });
}
