import { packageProject } from '../../vitest.shared';

export default packageProject('ai-sdk-agent');
