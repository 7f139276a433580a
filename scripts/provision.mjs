// Run first by `pnpm test`: provisions the system programs in REQUIREMENTS, which the lockfile
// cannot bring. One that is missing is installed from Debian's packages when this user may (root,
// or passwordless sudo, and apt-get exists, and TOOL_SEARCH_NO_INSTALL is unset); otherwise the run
// stops at once with one line saying what to install. (node_modules needs nothing here: pnpm
// installs it before it runs a script, as `verifyDepsBeforeRun: install` in pnpm-workspace.yaml asks.)
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * @typedef {object} Requirement
 * @property {string} binary the program looked up on PATH
 * @property {string} debianPackage the Debian package that installs it
 * @property {string} why which tests need it
 */

/** What the tests need beyond the npm registry. Add a row for a new program. @type {readonly Requirement[]} */
export const REQUIREMENTS = [
  {
    binary: 'redis-server',
    debianPackage: 'redis-server',
    why: "the Redis store's tests start their own redis-server on a loopback port",
  },
  {
    binary: 'chromium',
    debianPackage: 'chromium',
    why: 'the cross-runtime smoke test runs the packages in headless Chromium',
  },
];

/** Set (to anything but '' or '0') to forbid installing: a missing program then stops the run. */
export const NO_INSTALL_VARIABLE = 'TOOL_SEARCH_NO_INSTALL';

/** Names the `binary`s a vitest project requires (comma-separated), for scripts/test-requires.mjs. */
export const REQUIRES_VARIABLE = 'TOOL_SEARCH_TEST_REQUIRES';

/**
 * Whether an executable `binary` is in one of PATH's folders.
 * @param {string} binary
 * @param {NodeJS.ProcessEnv} [env]
 */
export function onPath(binary, env = process.env) {
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    try {
      accessSync(join(folder, binary), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/**
 * The rows whose program is not on PATH.
 * @param {readonly Requirement[]} requirements
 * @param {NodeJS.ProcessEnv} [env]
 */
export function missingRequirements(requirements, env = process.env) {
  return requirements.filter((requirement) => !onPath(requirement.binary, env));
}

/**
 * @typedef {object} SystemFacts
 * @property {boolean} isRoot
 * @property {boolean} canSudo passwordless sudo works
 * @property {boolean} hasAptGet
 * @property {boolean} installAllowed the no-install variable is unset
 */

/**
 * What this machine is and may do, as the plan needs it.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {SystemFacts}
 */
export function systemFacts(env = process.env) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const flag = env[NO_INSTALL_VARIABLE];
  return {
    isRoot,
    canSudo:
      !isRoot &&
      onPath('sudo', env) &&
      spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', env }).status === 0,
    hasAptGet: onPath('apt-get', env),
    installAllowed: flag === undefined || flag === '' || flag === '0',
  };
}

/**
 * The one line that says what to install.
 * @param {readonly Requirement[]} missing at least one row
 * @param {Pick<SystemFacts, 'isRoot' | 'hasAptGet'>} facts
 */
export function missingLine(missing, facts) {
  const binaries = missing.map((requirement) => requirement.binary);
  const names =
    binaries.length === 1 ? binaries[0] : `${binaries.slice(0, -1).join(', ')} and ${binaries.at(-1)}`;
  const packages = missing.map((requirement) => requirement.debianPackage).join(' ');
  const verb = binaries.length === 1 ? 'is' : 'are';
  const command = `${facts.isRoot ? '' : 'sudo '}apt-get install ${packages}`;
  return facts.hasAptGet
    ? `${names} ${verb} missing: ${command}`
    : `${names} ${verb} missing: install ${binaries.length === 1 ? 'it' : 'them'} (Debian: ${command})`;
}

/**
 * @typedef {{ action: 'none' }
 *   | { action: 'install', sudo: boolean, packages: string[], line: string }
 *   | { action: 'stop', line: string }} Plan
 */

/**
 * What to do about the missing rows.
 * @param {readonly Requirement[]} missing
 * @param {SystemFacts} facts
 * @returns {Plan}
 */
export function provisionPlan(missing, facts) {
  if (missing.length === 0) return { action: 'none' };
  if (facts.installAllowed && facts.hasAptGet && (facts.isRoot || facts.canSudo)) {
    const packages = missing.map((requirement) => requirement.debianPackage);
    const reasons = missing.map((requirement) => `${requirement.binary}: ${requirement.why}`).join('; ');
    return {
      action: 'install',
      sudo: !facts.isRoot,
      packages,
      line: `installing ${packages.join(' ')} from Debian's packages (${reasons})`,
    };
  }
  return { action: 'stop', line: missingLine(missing, facts) };
}

/**
 * Runs apt-get (through `sudo -n` when asked): undefined when it succeeds, else the last line of
 * its error output.
 * @param {string[]} args
 * @param {boolean} sudo
 * @param {NodeJS.ProcessEnv} env
 * @returns {string | undefined}
 */
function aptGet(args, sudo, env) {
  const [command, commandArgs] = sudo
    ? ['sudo', ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args]]
    : ['apt-get', args];
  const result = spawnSync(command, commandArgs, {
    env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (result.status === 0) return undefined;
  const lines = (result.stderr ?? '').trim().split('\n');
  return lines.at(-1) || result.error?.message || `exit code ${result.status}`;
}

/**
 * Installs or stops as planned; the exit code for the run (0: go on).
 * @param {readonly Requirement[]} requirements
 * @param {NodeJS.ProcessEnv} [env]
 */
export function provisionSystem(requirements, env = process.env) {
  const missing = missingRequirements(requirements, env);
  if (missing.length === 0) return 0;
  const facts = systemFacts(env);
  const plan = provisionPlan(missing, facts);
  if (plan.action === 'none') return 0;
  if (plan.action === 'stop') {
    console.error(plan.line);
    return 1;
  }
  console.log(plan.line);
  // A failed update (one unreachable mirror) need not stop the install; its message is kept for
  // the report when the install fails too.
  const updateFailure = aptGet(['update', '-qq'], plan.sudo, env);
  const installFailure = aptGet(
    ['install', '-y', '-qq', '--no-install-recommends', ...plan.packages],
    plan.sudo,
    env,
  );
  const stillMissing = missingRequirements(missing, env);
  if (stillMissing.length === 0) return 0;
  const reason = installFailure ?? updateFailure ?? 'it installed, but the program is not on PATH';
  console.error(`${missingLine(stillMissing, facts)} (apt-get: ${reason})`);
  return 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = provisionSystem(REQUIREMENTS);
}
