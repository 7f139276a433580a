// The README examples work as written: for each package README, install what its install line
// names into a scratch pnpm project (our packages from their packed tarballs, the rest from the
// registry at the lockfile's versions), type-check every ```ts block strictly, run each one, and
// check that every relative link points to a file the package's tarball ships.
//
// Usage: pnpm check:readmes [packages/<pkg>/README.md ...] [--show-output]
//        (default: the README of every publishable package under packages/)
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BLOCK_TIMEOUT_MS = 60_000;
const showOutput = process.argv.includes('--show-output');

/**
 * @typedef {{ index: number, line: number, code: string }} CodeBlock
 * @typedef {{ target: string, line: number }} Link
 * @typedef {{ installNames: string[], installLine: number, blocks: CodeBlock[], links: Link[], headings: Set<string>, errors: string[] }} ReadmeParts
 * @typedef {{ name: string, dir: string, tarball: string, files: Set<string>, peers: string[] }} PackedPackage
 * @typedef {{ code: number | null, output: string, timedOut: boolean }} RunResult
 */

// ---------------------------------------------------------------------------------------------
// Reading a README

/**
 * The parts of a README the check reads: the install line (the first ```sh block, one
 * `npm install` line), the ```ts blocks, the relative links and the headings' anchors.
 * @param {string} markdown
 * @returns {ReadmeParts}
 */
export function readmeParts(markdown) {
  /** @type {string[]} */
  const errors = [];
  /** @type {CodeBlock[]} */
  const blocks = [];
  /** @type {Link[]} */
  const links = [];
  const headings = new Set();
  /** @type {string[] | undefined} */
  let installNames;
  let installLine = 0;
  /** @type {{ lang: string, line: number, body: string[] } | undefined} */
  let fence;
  const lines = markdown.split('\n');
  lines.forEach((text, position) => {
    const line = position + 1;
    const trimmed = text.trim();
    if (trimmed.startsWith('```')) {
      if (fence === undefined) {
        fence = { lang: trimmed.slice(3).trim(), line, body: [] };
        return;
      }
      if (fence.lang === 'ts' || fence.lang === 'typescript') {
        blocks.push({ index: blocks.length + 1, line: fence.line, code: `${fence.body.join('\n')}\n` });
      } else if ((fence.lang === 'sh' || fence.lang === 'bash') && installNames === undefined) {
        installLine = fence.line;
        const commands = fence.body.map((l) => l.trim()).filter((l) => l !== '');
        const words = commands.length === 1 ? (commands[0] ?? '').split(/\s+/) : [];
        if (words[0] === 'npm' && (words[1] === 'install' || words[1] === 'i') && words.length > 2) {
          installNames = words.slice(2);
          const flags = installNames.filter((word) => word.startsWith('-'));
          if (flags.length > 0)
            errors.push(`the install line (line ${line}) has flags (${flags.join(' ')}): name packages only`);
        } else {
          installNames = [];
          errors.push(
            `the first sh block (line ${fence.line}) is not one \`npm install <packages>\` line: ${JSON.stringify(commands.join(' / '))}`,
          );
        }
      }
      fence = undefined;
      return;
    }
    if (fence !== undefined) {
      fence.body.push(text);
      return;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(text);
    if (heading) headings.add(slug(heading[1] ?? ''));
    for (const match of text.matchAll(/\[[^\]\n]*\]\(([^()\s]+)\)/g)) {
      const target = match[1] ?? '';
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ target, line });
    }
  });
  if (fence !== undefined) errors.push(`the code block opened at line ${fence.line} is never closed`);
  if (installNames === undefined)
    errors.push('no install line: the first ```sh block must be `npm install <packages>`');
  if (blocks.length === 0)
    errors.push('no ```ts block: a package README shows at least one runnable example');
  return { installNames: installNames ?? [], installLine, blocks, links, headings, errors };
}

/**
 * GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
 * @param {string} heading
 */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * The packages a block imports (`'@scope/name/sub'` → `'@scope/name'`), node built-ins left out.
 * @param {string} code
 */
export function importedPackages(code) {
  const names = new Set();
  for (const match of code.matchAll(
    /(?:\bfrom|\bimport)\s*\(?\s*'([^']+)'|(?:\bfrom|\bimport)\s*\(?\s*"([^"]+)"/g,
  )) {
    const specifier = match[1] ?? match[2] ?? '';
    if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier));
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// Versions, packing, processes

/**
 * The version the repo's lockfile resolves for each dependency name of any importer
 * (peer suffixes such as `(zod@4.6.7)` cut). Our own workspace packages (links) are left out.
 * @param {string} lockfile
 */
export function lockfileVersions(lockfile) {
  /** @type {Map<string, string>} */
  const versions = new Map();
  // The lockfile may hold two documents (pnpm's own environment first); the project's is the last.
  const documents = lockfile.split(/^---$/m);
  const project = documents.at(-1) ?? '';
  let inImporters = false;
  /** @type {string | undefined} */
  let name;
  for (const text of project.split('\n')) {
    if (/^\S/.test(text)) {
      inImporters = text.startsWith('importers:');
      continue;
    }
    if (!inImporters) continue;
    const dependency = /^ {6}('?)([^':\s]+)\1:\s*$/.exec(text);
    if (dependency) {
      name = dependency[2];
      continue;
    }
    const version = /^ {8}version:\s*(\S+)/.exec(text);
    if (version && name !== undefined) {
      const value = (version[1] ?? '').replace(/\(.*$/, '');
      if (!value.startsWith('link:') && !versions.has(name)) versions.set(name, value);
      name = undefined;
    }
  }
  return versions;
}

/**
 * Runs a command; never rejects. Output is stdout and stderr interleaved.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, timeoutMs?: number, env?: NodeJS.ProcessEnv }} options
 * @returns {Promise<RunResult>}
 */
export function run(command, args, options) {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let timedOut = false;
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
          }, options.timeoutMs);
    child.on('error', (error) => {
      output += String(error);
    });
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      done({ code, output, timedOut });
    });
  });
}

/**
 * The workspace packages under packages/ that are published (not `private`).
 * @returns {{ name: string, dir: string }[]}
 */
export function publishablePackages() {
  return readdirSync(join(repoRoot, 'packages'))
    .map((entry) => join(repoRoot, 'packages', entry))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir, manifest }) => ({ name: String(manifest.name), dir }));
}

/**
 * Builds (turbo, cached) and packs the given packages into `destination`, as `pnpm publish` would.
 * @param {{ name: string, dir: string }[]} packages
 * @param {string} destination
 * @returns {Promise<Map<string, PackedPackage>>}
 */
export async function packPackages(packages, destination) {
  const filters = packages.flatMap((entry) => ['--filter', entry.name]);
  const build = await run(
    'pnpm',
    ['exec', 'turbo', 'run', 'build', ...filters, '--output-logs=errors-only'],
    {
      cwd: repoRoot,
    },
  );
  if (build.code !== 0) throw new Error(`building the packages failed:\n${build.output}`);
  /** @type {Map<string, PackedPackage>} */
  const packed = new Map();
  for (const entry of packages) {
    const result = await run('pnpm', ['pack', '--json', '--pack-destination', destination], {
      cwd: entry.dir,
    });
    if (result.code !== 0) throw new Error(`pnpm pack of ${entry.name} failed:\n${result.output}`);
    const report = JSON.parse(result.output.slice(result.output.indexOf('{')));
    /** @type {{ path: string }[]} */
    const files = report.files;
    const manifest = JSON.parse(readFileSync(join(entry.dir, 'package.json'), 'utf8'));
    /** @type {Record<string, { optional?: boolean }>} */
    const peersMeta = manifest.peerDependenciesMeta ?? {};
    const peers = Object.keys(manifest.peerDependencies ?? {}).filter(
      (peer) => peersMeta[peer]?.optional !== true,
    );
    packed.set(entry.name, {
      name: entry.name,
      dir: entry.dir,
      tarball: String(report.filename),
      files: new Set(files.map((file) => file.path)),
      peers,
    });
  }
  return packed;
}

/** A free TCP port on the loopback interface. */
function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/**
 * Starts a throwaway redis-server for the examples that need one (`REDIS_URL`).
 * @returns {Promise<{ url: string, stop: () => void } | string>} the server, or why there is none
 */
async function startRedis() {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const failed = await new Promise((done) => {
    child.on('error', (error) => done(String(error)));
    setTimeout(() => done(undefined), 300);
  });
  if (failed !== undefined)
    return `redis-server could not start (${failed}); install it (apt-get install redis-server)`;
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

// ---------------------------------------------------------------------------------------------
// Checking one README

/**
 * Checks one README; returns its failures (each one line naming the README, then details).
 * @param {{ readme: string, packed: Map<string, PackedPackage>, versions: Map<string, string>, workDir: string, env?: NodeJS.ProcessEnv }} options
 * @returns {Promise<string[]>}
 */
export async function checkReadme({ readme, packed, versions, workDir, env = process.env }) {
  const label = relative(repoRoot, readme) || readme;
  const parts = readmeParts(readFileSync(readme, 'utf8'));
  const failures = parts.errors.map((error) => `${label}: ${error}`);
  if (failures.length > 0) return failures;
  const own = [...packed.values()].find((entry) => entry.dir === dirname(readme));

  // Links, in the README and in every other page the tarball ships (docs/*.md): a relative link
  // must name a file of the tarball, an anchor a heading of its page.
  failures.push(...checkLinks(readme, label, parts, own));
  for (const page of own === undefined ? [] : [...own.files].filter((file) => file.endsWith('.md'))) {
    const path = join(own?.dir ?? '', page);
    if (path === readme) continue;
    failures.push(
      ...checkLinks(path, relative(repoRoot, path), readmeParts(readFileSync(path, 'utf8')), own),
    );
  }

  // The install line names exactly what the examples import, and the peers of what it installs.
  const named = new Set(parts.installNames);
  const imported = new Set(parts.blocks.flatMap((block) => [...importedPackages(block.code)]));
  const peers = new Set(parts.installNames.flatMap((name) => packed.get(name)?.peers ?? []));
  for (const name of imported) {
    if (!named.has(name))
      failures.push(`${label}: the examples import ${name}, which the install line does not name`);
  }
  for (const peer of peers) {
    if (!named.has(peer))
      failures.push(`${label}: the install line lacks ${peer}, a peer dependency of what it installs`);
  }
  for (const name of named) {
    if (!imported.has(name) && !peers.has(name)) {
      failures.push(
        `${label}: the install line names ${name}, which no example imports and no package needs as a peer`,
      );
    }
  }
  /** @type {Record<string, string>} */
  const dependencies = {};
  for (const name of parts.installNames) {
    const ours = packed.get(name);
    const version = versions.get(name);
    if (ours) dependencies[name] = `file:${ours.tarball}`;
    else if (name.startsWith('@tool-search/'))
      failures.push(`${label}: the install line names ${name}, no package of this repo`);
    else if (version === undefined) {
      failures.push(
        `${label}: ${name} is no dependency in the repo's lockfile, so its version is not pinned; add it to a package's devDependencies`,
      );
    } else dependencies[name] = version;
  }
  if (failures.length > 0) return failures;

  // One scratch project per README.
  const project = join(workDir, (own?.name ?? label).replace(/[^a-z0-9]+/gi, '-'));
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'readme-example', private: true, type: 'module', dependencies }, null, 2)}\n`,
  );
  const overrides = [...packed.values()]
    .map((entry) => `  '${entry.name}': 'file:${entry.tarball}'`)
    .join('\n');
  writeFileSync(
    join(project, 'pnpm-workspace.yaml'),
    `# A missing peer must fail the check, not be installed behind the README's back.\nautoInstallPeers: false\nstrictPeerDependencies: false\noverrides:\n${overrides}\n`,
  );
  const install = await run('pnpm', ['install', '--prefer-offline', '--reporter=append-only'], {
    cwd: project,
    env: { ...process.env, CI: '1' },
  });
  if (install.code !== 0) return [`${label}: pnpm install of the install line failed:\n${install.output}`];

  // Type-check every block at once, strictly, as a user's Node project would.
  for (const block of parts.blocks) writeFileSync(join(project, `block-${block.index}.ts`), block.code);
  writeFileSync(
    join(project, 'tsconfig.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2023',
          lib: ['es2023'],
          types: ['node'],
          typeRoots: [join(repoRoot, 'node_modules', '@types')],
          // Only because @mastra/core's own type files do not check on their own.
          skipLibCheck: true,
          noEmit: true,
        },
        files: parts.blocks.map((block) => `block-${block.index}.ts`),
      },
      null,
      2,
    )}\n`,
  );
  const tsc = await run(
    process.execPath,
    [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
    {
      cwd: project,
    },
  );
  /** @type {Set<number>} */
  const mistyped = new Set();
  if (tsc.code !== 0) {
    // One entry per diagnostic: its first line and the indented lines that elaborate it.
    /** @type {string[]} */
    const diagnostics = [];
    for (const line of tsc.output.split('\n')) {
      if (line.trim() === '') continue;
      if (line.startsWith(' ') && diagnostics.length > 0)
        diagnostics[diagnostics.length - 1] += `\n  ${line}`;
      else diagnostics.push(line);
    }
    for (const block of parts.blocks) {
      const own = diagnostics.filter((line) => line.startsWith(`block-${block.index}.ts(`));
      if (own.length > 0) {
        mistyped.add(block.index);
        failures.push(
          `${label}, ts block ${block.index} (line ${block.line}): type error\n  ${own.join('\n  ')}`,
        );
      }
    }
    const other = diagnostics.filter((line) => !/^block-\d+\.ts\(/.test(line));
    if (mistyped.size === 0 || other.length > 0) {
      failures.push(
        `${label}: the type check failed\n  ${(other.length > 0 ? other : diagnostics).join('\n  ')}`,
      );
      return failures;
    }
  }

  // Run every block that type-checked to completion with the repo's Node, offline models only.
  for (const block of parts.blocks.filter((entry) => !mistyped.has(entry.index))) {
    const result = await run(
      process.execPath,
      [join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'), `block-${block.index}.ts`],
      { cwd: project, timeoutMs: BLOCK_TIMEOUT_MS, env: { ...env, NO_COLOR: '1' } },
    );
    if (showOutput)
      console.log(`--- ${label}, ts block ${block.index} (line ${block.line}):\n${result.output.trimEnd()}`);
    if (result.timedOut) {
      failures.push(
        `${label}, ts block ${block.index} (line ${block.line}): did not finish within ${BLOCK_TIMEOUT_MS / 1000} s (something keeps it alive?)\n${indent(result.output)}`,
      );
    } else if (result.code !== 0) {
      failures.push(
        `${label}, ts block ${block.index} (line ${block.line}): exited with ${result.code}\n${indent(result.output)}`,
      );
    }
  }
  return failures;
}

/**
 * The broken links of one page of a package (`own`, undefined for a README outside a package).
 * @param {string} page
 * @param {string} label
 * @param {ReadmeParts} parts
 * @param {PackedPackage | undefined} own
 */
function checkLinks(page, label, parts, own) {
  /** @type {string[]} */
  const failures = [];
  for (const link of parts.links) {
    const [path = '', anchor] = link.target.split('#');
    if (path === '') {
      if (anchor !== undefined && !parts.headings.has(anchor)) {
        failures.push(`${label}, line ${link.line}: the link #${anchor} names no heading of the page`);
      }
      continue;
    }
    const inPackage = own === undefined ? path : relative(own.dir, resolve(dirname(page), path));
    if (own === undefined) {
      failures.push(
        `${label}, line ${link.line}: a relative link (${link.target}) in a README no tarball ships`,
      );
    } else if (!own.files.has(inPackage)) {
      failures.push(
        `${label}, line ${link.line}: the link ${link.target} points to a file ${own.name}'s tarball does not ship (${inPackage})`,
      );
    } else if (anchor !== undefined && inPackage.endsWith('.md')) {
      const headings = readmeParts(readFileSync(join(own.dir, inPackage), 'utf8')).headings;
      if (!headings.has(anchor)) {
        failures.push(
          `${label}, line ${link.line}: the link ${link.target} names no heading of ${inPackage}`,
        );
      }
    }
  }
  return failures;
}

/** @param {string} text */
function indent(text) {
  const lines = text.trimEnd().split('\n');
  const shown = lines.length > 40 ? [...lines.slice(0, 40), `… (${lines.length - 40} more lines)`] : lines;
  return shown.map((line) => `  ${line}`).join('\n');
}

/**
 * Checks the given READMEs (default: every publishable package's); returns the failures.
 * @param {{ readmes?: string[], log?: (line: string) => void }} [options]
 */
export async function checkReadmes(options = {}) {
  const log = options.log ?? (() => undefined);
  const packages = publishablePackages();
  const readmes = (options.readmes ?? packages.map((entry) => join(entry.dir, 'README.md'))).map((readme) =>
    resolve(readme),
  );
  const workDir = mkdtempSync(join(tmpdir(), 'readme-examples-'));
  /** @type {{ url: string, stop: () => void } | string | undefined} */
  let redis;
  try {
    const packed = await packPackages(packages, workDir);
    const versions = lockfileVersions(readFileSync(join(repoRoot, 'pnpm-lock.yaml'), 'utf8'));
    /** @type {string[]} */
    const failures = [];
    for (const readme of readmes) {
      const started = Date.now();
      if (!existsSync(readme)) {
        failures.push(`${relative(repoRoot, readme)}: no such README`);
        continue;
      }
      /** @type {NodeJS.ProcessEnv} */
      const env = { ...process.env };
      if (readmeParts(readFileSync(readme, 'utf8')).installNames.includes('redis')) {
        redis ??= await startRedis();
        if (typeof redis === 'string') {
          failures.push(`${relative(repoRoot, readme)}: its examples need a Redis server: ${redis}`);
          continue;
        }
        env.REDIS_URL = redis.url;
      }
      const found = await checkReadme({ readme, packed, versions, workDir, env });
      failures.push(...found);
      log(
        `${found.length === 0 ? 'ok  ' : 'FAIL'} ${relative(repoRoot, readme)} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
    return failures;
  } finally {
    if (typeof redis === 'object') redis.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (Number(process.versions.node.split('.')[0]) < 22) {
    console.error(
      `the README examples run on Node 22 or later; this is ${process.version}: run \`pnpm check:readmes\``,
    );
    process.exit(1);
  }
  const started = Date.now();
  const readmeArguments = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
  const failures = await checkReadmes({
    readmes: readmeArguments.length > 0 ? readmeArguments : undefined,
    log: (line) => console.log(line),
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (failures.length > 0) {
    console.error(
      `\n${failures.join('\n\n')}\n\nREADME examples: ${failures.length} failure(s) (${seconds} s)`,
    );
    process.exit(1);
  }
  console.log(`README examples: all pass (${seconds} s)`);
}
