import { defineProject } from 'vitest/config';

// The repository scripts' own tests (the README examples check, say).
export default defineProject({
  test: {
    name: 'scripts',
    environment: 'node',
    include: ['*.test.ts'],
    testTimeout: 300_000,
  },
});
