import { packageProject } from '../../vitest.shared';

export default packageProject('bench', { testTimeout: 60_000 });
