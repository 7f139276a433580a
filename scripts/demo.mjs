// pnpm demo: the main job a newcomer runs. Until the example agents exist this
// runs a short search over ../shared/eval/toolbench and prints the top tools.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./demo-search.ts', import.meta.url));
const result = spawnSync('tsx', ['--conditions=@tool-search/source', script, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
