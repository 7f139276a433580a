import { packageProject } from '../../vitest.shared';

// Six runtimes, each started once: generous per test, the whole file takes well under a minute.
export default packageProject('runtime-smoke', { testTimeout: 60_000 });
