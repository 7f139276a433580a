import type { ToolDescriptor } from '@tool-search/core';
import type { Progress } from '../progress';
import { createRandom } from '../synthetic/catalog';
import { aiSdkSentFirstStep, mastraSentFirstStep, oursSentSteps } from '../tokens/sent-per-step';
import { countTextTokens, countToolsTokens } from '../tokens/tool-tokens';

export interface TokenRow {
  readonly tools: number;
  /** Every definition of the catalog, sent on every step without tool search. */
  readonly allTools: number;
  /** Ours: the meta-tools (first step), and after the model loaded `loadedCount` tools. */
  readonly oursFirstStep: number;
  readonly oursAfterLoad: number;
  readonly loadedCount: number;
  /** The system-prompt paragraph each adds, sent once per step. */
  readonly oursInstructions: number;
  readonly mastraFirstStep: number;
  readonly mastraInstructions: number;
  readonly aiSdkFirstStep: number;
}

/** Fisher–Yates with a seeded generator: the same sample every run. */
function sample<T>(items: readonly T[], size: number, seed: number): T[] {
  const random = createRandom(seed);
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy.slice(0, size);
}

/**
 * Tokens of the tool definitions sent to the model per step, with tool search and with all
 * tools, for catalogs of each size drawn (seeded) from `pool` (the eval sets' real tools). What
 * each system sends is captured from a real model call of its framework (a mock model records
 * the call), serialised in OpenAI's function format and counted with o200k_base.
 */
export async function runTokenSuite(options: {
  pool: readonly ToolDescriptor[];
  sizes: readonly number[];
  loadedCount?: number;
  seed?: number;
  progress?: Progress;
}): Promise<TokenRow[]> {
  const byName = new Map<string, ToolDescriptor>();
  for (const tool of options.pool) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  const pool = [...byName.values()];
  const loadedCount = options.loadedCount ?? 3;
  const rows: TokenRow[] = [];
  options.progress?.phase('tokens', options.sizes.length);
  for (const size of options.sizes) {
    if (size > pool.length) throw new Error(`the token pool has ${pool.length} tools, fewer than ${size}`);
    options.progress?.update(rows.length, `${size.toLocaleString('en-US')} tools`);
    const catalog = sample(pool, size, options.seed ?? 7);
    const ours = await oursSentSteps(
      catalog,
      catalog.slice(0, loadedCount).map((tool) => tool.name),
    );
    const mastra = await mastraSentFirstStep(catalog);
    const aiSdk = await aiSdkSentFirstStep(catalog);
    rows.push({
      tools: size,
      allTools: countToolsTokens(catalog),
      oursFirstStep: countToolsTokens(ours.first.tools),
      oursAfterLoad: countToolsTokens(ours.afterLoad.tools),
      loadedCount,
      oursInstructions: countTextTokens(ours.first.systemText),
      mastraFirstStep: countToolsTokens(mastra.tools),
      mastraInstructions: countTextTokens(mastra.systemText),
      aiSdkFirstStep: countToolsTokens(aiSdk.tools),
    });
  }
  options.progress?.update(rows.length);
  return rows;
}
