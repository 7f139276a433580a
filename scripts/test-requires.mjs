// A vitest setup file (see `requires` in vitest.shared.ts): a test file whose project needs a
// system program that is missing fails at once with the line that `pnpm test` would print,
// instead of its tests being skipped after a failing beforeAll.
import {
  missingLine,
  missingRequirements,
  REQUIREMENTS,
  REQUIRES_VARIABLE,
  systemFacts,
} from './provision.mjs';

// Set by vitest.shared.ts from the project's `requires` (not by a user, so no turbo input).
const names = (process.env[REQUIRES_VARIABLE] ?? '').split(',').filter((name) => name !== '');
const unknown = names.filter((name) => !REQUIREMENTS.some((requirement) => requirement.binary === name));
if (unknown.length > 0) {
  throw new Error(`not in the REQUIREMENTS table of scripts/provision.mjs: ${unknown.join(', ')}`);
}
const missing = missingRequirements(REQUIREMENTS.filter((requirement) => names.includes(requirement.binary)));
if (missing.length > 0) throw new Error(missingLine(missing, systemFacts()));
