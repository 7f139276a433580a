import { packageProject } from '../../vitest.shared';

export default packageProject('redis-agent', { requires: ['redis-server'] });
