import { packageProject } from '../../vitest.shared';

export default packageProject('mastra-agent');
