import { packageProject } from '../../vitest.shared';

export default packageProject('fake-providers');
