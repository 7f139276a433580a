import { defineProject } from 'vitest/config';

// The repository scripts' own tests (the test command's provisioning, the README examples check).
export default defineProject({
  test: {
    name: 'scripts',
    environment: 'node',
    include: ['*.test.ts'],
    testTimeout: 300_000,
  },
});
