import { packageProject } from '../../vitest.shared';

// Six runtimes, each started once: generous per test, the whole file takes about a minute.
// It builds the four runtime-neutral packages and bundles their dist/, so it runs after every
// other project (group 1): no other test's build or pack rewrites dist/ while it reads it.
export default packageProject('runtime-smoke', { testTimeout: 60_000, groupOrder: 1 });
