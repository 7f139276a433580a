// Prints vitest's JSON report as the one plain line CI reads: "N passed, N failed".
// Exits non-zero when any test failed, when the report is missing, or when no test ran.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.reports/vitest.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.log(`no vitest report at ${file}: ${error instanceof Error ? error.message : String(error)}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
// A test file that fails to load counts as a failure even though it holds no test.
const failedSuites = (report.testResults ?? []).filter(
  /** @param {{ status: string, assertionResults?: unknown[] }} r */
  (r) => r.status === 'failed' && (r.assertionResults ?? []).length === 0,
).length;
const failed = (report.numFailedTests ?? 0) + failedSuites;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
