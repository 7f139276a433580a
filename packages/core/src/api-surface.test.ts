import { describe, expect, it } from 'vitest';
import { apiReports, ENTRY_POINTS, reportPath } from '../scripts/api-report';

// The public surface of @tool-search/core, entry point by entry point, as committed in api/*.api.txt:
// a change to what the package exports (a name, a signature, an option) fails here until the report
// is updated in the same commit (`pnpm vitest run --project core -u api-surface`), so it is deliberate.
describe('the public surface', () => {
  const reports = apiReports('source');
  for (const entry of ENTRY_POINTS) {
    it(`of ${entry === 'index' ? '@tool-search/core' : `@tool-search/core/${entry}`} is the committed report`, async () => {
      await expect(reports[entry]).toMatchFileSnapshot(reportPath(entry));
    });
  }
});
