// pnpm demo: runs scripts/demo.ts (the example agents, step by step, with token figures) with
// TypeScript through tsx, on the Node that runs this file (pnpm's Node 22 from node-bin), reading
// the workspace packages' sources (the `@tool-search/source` export condition): no build needed.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  console.error(`pnpm demo needs Node 22 or newer (this is ${process.version}); run it through pnpm.`);
  process.exit(1);
}

let tsx;
try {
  tsx = import.meta.resolve('tsx');
} catch {
  console.error('pnpm demo: tsx is not installed. Run `pnpm install` first.');
  process.exit(1);
}

const script = fileURLToPath(new URL('./demo.ts', import.meta.url));
const result = spawnSync(
  process.execPath,
  ['--conditions=@tool-search/source', '--import', tsx, script, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
if (result.error) {
  console.error(`pnpm demo: could not start Node: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? (result.signal === 'SIGINT' ? 130 : 1));
