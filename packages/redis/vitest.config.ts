import { packageProject } from '../../vitest.shared';

export default packageProject('redis', { requires: ['redis-server'] });
