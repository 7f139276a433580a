import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolDescriptor } from '@tool-search/core';
import { readEvalSet } from './read-eval-set';

export const EVAL_SET_NAMES = ['toolbench', 'bfcl', 'seal-tools', 'metatool'] as const;
export type EvalSetName = (typeof EVAL_SET_NAMES)[number];

export interface EvalQuery {
  readonly id: string;
  readonly query: string;
  readonly relevant: readonly string[];
}

export interface EvalSet {
  readonly name: string;
  readonly tools: readonly ToolDescriptor[];
  readonly queries: readonly EvalQuery[];
}

/** The repository root (four levels above this file: packages/bench/src/quality). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Where the eval sets live: `$TOOL_SEARCH_EVAL_DIR`, else `../shared/eval` from the repository root. */
export function defaultEvalRoot(): string {
  return process.env.TOOL_SEARCH_EVAL_DIR ?? path.resolve(REPO_ROOT, '../shared/eval');
}

/** Loads `<root>/<name>/{tools,queries}.jsonl`, checked as `readEvalSet` checks them. */
export async function loadEvalSet(name: string, options: { root?: string } = {}): Promise<EvalSet> {
  const directory = path.join(options.root ?? defaultEvalRoot(), name);
  return readEvalSet(name, path.join(directory, 'tools.jsonl'), path.join(directory, 'queries.jsonl'));
}

/**
 * The split of a query: its id without the trailing number (or hash) part.
 * `G1_instruction_588` → `G1_instruction`, `live_multiple_12-3-0` → `live_multiple`,
 * `test_in_domain-easy-0` → `test_in_domain-easy`, `single-00024d6cc6` → `single`.
 */
export function splitOf(id: string): string {
  const split = id.replace(/[-_](?:\d[\d-]*|[0-9a-f]{8,})$/i, '');
  return split.length > 0 ? split : id;
}
