import { defineProject } from 'vitest/config';

// The repository's own scripts (the test command's provisioning) as one more vitest project.
export default defineProject({
  test: { name: 'scripts', environment: 'node', include: ['*.test.ts'] },
});
