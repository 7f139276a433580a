import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkReadmes, importedPackages, lockfileVersions, readmeParts } from './check-readme-examples.mjs';

const fence = '```';
const scratch = mkdtempSync(join(tmpdir(), 'readme-check-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function readme(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

describe('readmeParts', () => {
  it('reads the install line, the ts blocks and the links', () => {
    const parts = readmeParts(
      [
        '# x',
        `${fence}sh`,
        'npm install @tool-search/core zod',
        fence,
        'See [the docs](docs/a.md#part) and [up](#x), not [a site](https://example.com).',
        `${fence}ts`,
        "import { createToolIndex } from '@tool-search/core';",
        fence,
        `${fence}text`,
        'not a program',
        fence,
      ].join('\n'),
    );
    expect(parts.errors).toEqual([]);
    expect(parts.installNames).toEqual(['@tool-search/core', 'zod']);
    expect(parts.blocks).toEqual([
      { index: 1, line: 6, code: "import { createToolIndex } from '@tool-search/core';\n" },
    ]);
    expect(parts.links.map((link) => link.target)).toEqual(['docs/a.md#part', '#x']);
  });

  it('refuses a README with no install line, or no ts block, so the check cannot pass on nothing', () => {
    expect(readmeParts('# nothing here\n').errors).toEqual([
      'no install line: the first ```sh block must be `npm install <packages>`',
      'no ```ts block: a package README shows at least one runnable example',
    ]);
    const twoCommands = readmeParts(
      `${fence}sh\npnpm add x\nnpm install y\n${fence}\n${fence}ts\nexport {};\n${fence}\n`,
    );
    expect(twoCommands.errors).toEqual([
      'the first sh block (line 1) is not one `npm install <packages>` line: "pnpm add x / npm install y"',
    ]);
  });

  it('names the packages a block imports, subpaths and node built-ins aside', () => {
    const code = [
      "import { MockLanguageModelV4 } from 'ai/test';",
      "import { Agent } from '@mastra/core/agent';",
      'import type { X } from "@tool-search/core";',
      "import { readFileSync } from 'node:fs';",
      "const late = await import('zod');",
      "import './local';",
    ].join('\n');
    expect([...importedPackages(code)]).toEqual(['ai', '@mastra/core', '@tool-search/core', 'zod']);
  });
});

describe('lockfileVersions', () => {
  it("reads each dependency's resolved version from the project's document, peer suffixes cut", () => {
    const lockfile = [
      '---',
      'importers:',
      '  .:',
      '    devDependencies:',
      '      pnpm:',
      '        specifier: 1.0.0',
      '        version: 1.0.0',
      '---',
      "lockfileVersion: '9.0'",
      'importers:',
      '  packages/a:',
      '    dependencies:',
      "      '@tool-search/core':",
      '        specifier: workspace:*',
      '        version: link:../core',
      "      '@mastra/core':",
      '        specifier: 1.71.0',
      '        version: 1.71.0(ai@7.0.173(zod@4.6.7))(zod@4.6.7)',
      '      zod:',
      '        specifier: ^4.6.7',
      '        version: 4.6.7',
      'packages:',
      '  zod@4.6.7:',
      '    version: 9.9.9',
    ].join('\n');
    expect([...lockfileVersions(lockfile)]).toEqual([
      ['@mastra/core', '1.71.0'],
      ['zod', '4.6.7'],
    ]);
  });
});

describe('checkReadmes, end to end (packs, installs, type-checks, runs)', () => {
  it('passes a working example and names each broken block: a type error, a throw, a missing install name', async () => {
    const good = [
      "import { createToolIndex } from '@tool-search/core';",
      "const index = createToolIndex({ tools: [{ name: 'getWeather', description: 'Weather for a city' }] });",
      "console.log((await index.search('weather', { topK: 1 }))[0]?.name);",
    ].join('\n');
    const typeError =
      "import { createToolIndex } from '@tool-search/core';\nconst count: number = createToolIndex;\n";
    const throws =
      "import { ToolSearchError } from '@tool-search/core';\nthrow new ToolSearchError('DISPOSED', 'example failed');\n";
    const broken = readme(
      'broken.md',
      [
        `${fence}sh`,
        'npm install @tool-search/core',
        fence,
        `${fence}ts`,
        good,
        fence,
        `${fence}ts`,
        typeError,
        fence,
        `${fence}ts`,
        throws,
        fence,
      ].join('\n'),
    );
    const unnamed = readme(
      'unnamed.md',
      `${fence}sh\nnpm install @tool-search/core\n${fence}\n${fence}ts\nimport { z } from 'zod';\nconsole.log(z);\n${fence}\n`,
    );
    const working = readme(
      'working.md',
      `${fence}sh\nnpm install @tool-search/core\n${fence}\n${fence}ts\n${good}\n${fence}\n`,
    );

    const failures = await checkReadmes({ readmes: [broken, unnamed, working] });

    expect(failures, failures.join('\n---\n')).toEqual([
      expect.stringMatching(
        /broken\.md, ts block 2 \(line 9\): type error\n {2}block-2\.ts\(2,7\): error TS2322/,
      ),
      expect.stringMatching(
        /broken\.md, ts block 3 \(line 14\): exited with 1\n[\s\S]*ToolSearchError: example failed/,
      ),
      expect.stringMatching(/unnamed\.md: the examples import zod, which the install line does not name$/),
      expect.stringMatching(
        /unnamed\.md: the install line names @tool-search\/core, which no example imports/,
      ),
    ]);
    expect(failures.join('\n')).not.toMatch(/working\.md|block 1/);
  });
});
