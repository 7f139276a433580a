import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  missingLine,
  missingRequirements,
  NO_INSTALL_VARIABLE,
  onPath,
  provisionPlan,
  REQUIREMENTS,
} from './provision.mjs';

const provisionScript = fileURLToPath(new URL('./provision.mjs', import.meta.url));
const requiresScript = fileURLToPath(new URL('./test-requires.mjs', import.meta.url));
const redis = REQUIREMENTS.find((requirement) => requirement.binary === 'redis-server')!;
const chromium = REQUIREMENTS.find((requirement) => requirement.binary === 'chromium')!;

const root = { isRoot: true, canSudo: false, hasAptGet: true, installAllowed: true };
const user = { isRoot: false, canSudo: false, hasAptGet: true, installAllowed: true };

describe('the provisioning plan', () => {
  it('does nothing when every program is there', () => {
    expect(provisionPlan([], root)).toEqual({ action: 'none' });
  });

  it('installs the Debian packages as root, and through sudo for a user with passwordless sudo', () => {
    const asRoot = provisionPlan([redis, chromium], root);
    expect(asRoot).toMatchObject({ action: 'install', sudo: false, packages: ['redis-server', 'chromium'] });
    if (asRoot.action !== 'install') throw new Error('expected an install');
    expect(asRoot.line).toMatch(/^installing redis-server chromium from Debian's packages \(redis-server: /);
    expect(asRoot.line).not.toContain('\n');
    expect(provisionPlan([redis], { ...user, canSudo: true })).toMatchObject({
      action: 'install',
      sudo: true,
    });
  });

  it('stops with one line saying what to install when the user may not install', () => {
    expect(provisionPlan([redis], user)).toEqual({
      action: 'stop',
      line: 'redis-server is missing: sudo apt-get install redis-server',
    });
    expect(provisionPlan([redis], { ...root, installAllowed: false })).toEqual({
      action: 'stop',
      line: 'redis-server is missing: apt-get install redis-server',
    });
    expect(provisionPlan([redis, chromium], { ...user, canSudo: true, installAllowed: false })).toEqual({
      action: 'stop',
      line: 'redis-server and chromium are missing: sudo apt-get install redis-server chromium',
    });
  });

  it('names the Debian package where there is no apt-get', () => {
    expect(provisionPlan([redis], { ...root, hasAptGet: false })).toEqual({
      action: 'stop',
      line: 'redis-server is missing: install it (Debian: apt-get install redis-server)',
    });
    expect(missingLine([redis, chromium], { isRoot: false, hasAptGet: false })).toBe(
      'redis-server and chromium are missing: install them (Debian: sudo apt-get install redis-server chromium)',
    );
  });
});

// The real script, run as a child process with a PATH that hides the system's programs: a temp
// folder holding only the programs a case puts there. The apt-get there records its arguments and,
// for `install`, puts the named programs into the folder as a real apt-get would put them in /usr/bin.
describe('the provisioning script', () => {
  let folder: string | undefined;
  afterEach(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });

  function pathFolder(): string {
    folder = mkdtempSync(join(tmpdir(), 'tool-search-provision-'));
    return folder;
  }

  function putAptGet(bin: string, options: { fail?: boolean } = {}): string {
    const log = join(bin, 'apt-get.log');
    const script = [
      `#!${process.execPath}`,
      "const fs = require('node:fs');",
      'const args = process.argv.slice(2);',
      `fs.appendFileSync(${JSON.stringify(log)}, args.join(' ') + '\\n');`,
      options.fail
        ? "if (args[0] === 'install') { console.error('E: Unable to locate package redis-server'); process.exit(100); }"
        : '',
      "if (args[0] === 'install') for (const name of args.filter((arg) => !arg.startsWith('-')).slice(1)) {",
      `  fs.writeFileSync(${JSON.stringify(bin)} + '/' + name, '#!/bin/sh\\n', { mode: 0o755 });`,
      '}',
    ].join('\n');
    writeFileSync(join(bin, 'apt-get'), script);
    chmodSync(join(bin, 'apt-get'), 0o755);
    // For a run that is not root: passwordless sudo that runs the command as this user.
    const sudo = [
      `#!${process.execPath}`,
      "const { spawnSync } = require('node:child_process');",
      "const args = process.argv.slice(2).filter((arg) => arg !== '-n' && arg !== 'env' && !arg.includes('='));",
      "if (args[0] === 'true') process.exit(0);",
      "const result = spawnSync(args[0], args.slice(1), { stdio: 'inherit' });",
      'process.exit(result.status ?? 1);',
    ].join('\n');
    writeFileSync(join(bin, 'sudo'), sudo);
    chmodSync(join(bin, 'sudo'), 0o755);
    return log;
  }

  function run(script: string, env: Record<string, string>) {
    return spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...env } });
  }

  it('stops at once with one line when installing is forbidden, and never runs apt-get', () => {
    const bin = pathFolder();
    const log = putAptGet(bin);
    const result = run(provisionScript, { PATH: bin, [NO_INSTALL_VARIABLE]: '1' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /^redis-server and chromium are missing: (sudo )?apt-get install redis-server chromium\n$/,
    );
    expect(() => readFileSync(log)).toThrow();
  });

  it('installs what is missing with apt-get, saying so in one line, then goes on', () => {
    const bin = pathFolder();
    const log = putAptGet(bin);
    const result = run(provisionScript, { PATH: bin });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^installing redis-server chromium from Debian's packages \([^\n]*\)\n$/);
    expect(readFileSync(log, 'utf8')).toBe(
      'update -qq\ninstall -y -qq --no-install-recommends redis-server chromium\n',
    );
    expect(result.status).toBe(0);
    expect(missingRequirements(REQUIREMENTS, { PATH: bin })).toEqual([]);
  });

  it('installs only what is missing', () => {
    const bin = pathFolder();
    const log = putAptGet(bin);
    writeFileSync(join(bin, 'chromium'), '#!/bin/sh\n', { mode: 0o755 });
    expect(run(provisionScript, { PATH: bin }).status).toBe(0);
    expect(readFileSync(log, 'utf8')).toContain('install -y -qq --no-install-recommends redis-server\n');
  });

  it('stops with one line that says what to install, and why, when apt-get fails', () => {
    const bin = pathFolder();
    putAptGet(bin, { fail: true });
    const result = run(provisionScript, { PATH: bin });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^redis-server and chromium are missing: (sudo )?apt-get install redis-server chromium \(apt-get: E: Unable to locate package redis-server\)\n$/,
    );
  });

  it('stops with one line where there is no apt-get', () => {
    const result = run(provisionScript, { PATH: pathFolder() });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^redis-server and chromium are missing: install them \(Debian: (sudo )?apt-get/,
    );
  });

  it('fails a test file whose project requires a missing program, with the same line', () => {
    const bin = pathFolder();
    const result = spawnSync(process.execPath, [requiresScript], {
      encoding: 'utf8',
      env: { PATH: bin, TOOL_SEARCH_TEST_REQUIRES: 'redis-server' },
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(
      /Error: redis-server is missing: install it \(Debian: (sudo )?apt-get install redis-server\)/,
    );
    writeFileSync(join(bin, 'redis-server'), '#!/bin/sh\n', { mode: 0o755 });
    expect(
      spawnSync(process.execPath, [requiresScript], {
        env: { PATH: bin, TOOL_SEARCH_TEST_REQUIRES: 'redis-server' },
      }).status,
    ).toBe(0);
  });

  it('finds the programs the machine has on its PATH', () => {
    expect(onPath('node', { PATH: join(process.execPath, '..') })).toBe(true);
    expect(onPath('node', { PATH: '' })).toBe(false);
  });
});
