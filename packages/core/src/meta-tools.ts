import { cutText } from './ranking/cut-text';
import type { JsonSchema, MetaToolDefinition } from './types';

/**
 * The meta-tools, defined once: names, descriptions, input schemas, the
 * instructions for the system prompt, and the validation of what a model sends
 * them (untrusted input in, typed values or a clear message out).
 */

export const SEARCH_TOOLS_NAME = 'search_tools';
export const LOAD_TOOL_NAME = 'load_tool';
export const META_TOOL_NAMES: ReadonlySet<string> = new Set([SEARCH_TOOLS_NAME, LOAD_TOOL_NAME]);

/** Longer queries are cut to this many characters before ranking. */
export const MAX_QUERY_LENGTH = 1_000;
/** `load_tool` accepts at most this many names per call. */
export const MAX_LOAD_NAMES = 20;
/** Longer names cannot exist in a catalog worth searching; they are reported as not found. */
export const MAX_TOOL_NAME_LENGTH = 256;

export function isMetaToolName(name: unknown): boolean {
  return typeof name === 'string' && META_TOOL_NAMES.has(name);
}

/** A fresh copy each time: a framework or a user that edits a schema must not edit every engine's. */
const searchToolsSchema = (): JsonSchema => ({
  type: 'object',
  properties: {
    query: {
      type: 'string',
      description:
        'Keywords for the capability you need, e.g. "weather forecast", "create github issue", "send email". ' +
        'For a request with several parts, name each part.',
    },
  },
  required: ['query'],
  additionalProperties: false,
});

const loadToolSchema = (): JsonSchema => ({
  type: 'object',
  properties: {
    toolName: {
      type: 'string',
      description: 'The exact name of one tool to load, as search_tools returned it.',
    },
    toolNames: {
      type: 'array',
      items: { type: 'string' },
      maxItems: MAX_LOAD_NAMES,
      description: `Exact names of several tools to load in one call (at most ${MAX_LOAD_NAMES}).`,
    },
  },
  additionalProperties: false,
});

export interface MetaToolOptions {
  /** With autoLoad, search_tools loads what it finds and load_tool is not offered. */
  readonly autoLoad?: boolean;
}

/**
 * The meta-tools offered to the model, in the order they are sent: search_tools, then load_tool.
 * Each call returns new objects, schemas included, so that editing one engine's does not edit another's.
 */
export function createMetaToolDefinitions(options: MetaToolOptions = {}): readonly MetaToolDefinition[] {
  if (options.autoLoad) {
    return [
      {
        name: SEARCH_TOOLS_NAME,
        description:
          'Find tools for a capability you do not have yet. Call it with a few keywords that describe the task ' +
          '(for example "weather forecast" or "refund payment"). The matching tools are loaded automatically and ' +
          'you can call them by their exact names from your next step on; there is no separate load step. ' +
          'Search again with other words if nothing fits.',
        inputSchema: searchToolsSchema(),
      },
    ];
  }
  return [
    {
      name: SEARCH_TOOLS_NAME,
      description:
        'Find tools for a capability you do not have yet. Call it with a few keywords that describe the task ' +
        '(for example "weather forecast" or "refund payment"). It returns matching tool names with descriptions ' +
        'and a relevance score; it does not make them callable. Then call load_tool with the exact name(s) you need.',
      inputSchema: searchToolsSchema(),
    },
    {
      name: LOAD_TOOL_NAME,
      description:
        'Make tools callable. Pass the exact name from search_tools results as toolName, or several as toolNames. ' +
        'A loaded tool can be called from your next step on and stays loaded for the rest of the conversation.',
      inputSchema: loadToolSchema(),
    },
  ];
}

/** A short system-prompt paragraph that tells the model how tool search works. */
export function toolSearchInstructions(options: MetaToolOptions = {}): string {
  return options.autoLoad
    ? 'Only some tools are available at first. To find a tool you need, call search_tools with keywords for ' +
        'the task; the matching tools are loaded automatically and can be called by name from your next step.'
    : 'Only some tools are available at first. To find a tool you need, call search_tools with keywords for ' +
        'the task, then call load_tool with the exact tool name(s) from the results. A loaded tool can be called ' +
        'from your next step.';
}

/** Descriptions in a catalog listing are cut to this many characters (as Mastra's processor does). */
export const MAX_LISTED_DESCRIPTION_LENGTH = 150;

/**
 * A system-prompt paragraph listing tools the model may load without searching first: one line
 * per tool, `- \`name\`: description` (the description on one line, cut to 150 characters as
 * {@link cutDescription} cuts it).
 */
export function catalogListingInstructions(
  tools: readonly { readonly name: string; readonly description?: string }[],
  options: MetaToolOptions = {},
): string {
  const intro = options.autoLoad
    ? 'These tools are available. To use one, call search_tools with its exact name; it is loaded automatically ' +
      'and can be called from your next step.'
    : 'These tools are available to load without searching: call load_tool with the exact name(s) you need, ' +
      'and a loaded tool can be called from your next step. search_tools also finds them by keywords.';
  const lines = tools.map(({ name, description }) => {
    const text = cutDescription(
      (description ?? '').replace(/\s+/g, ' ').trim(),
      MAX_LISTED_DESCRIPTION_LENGTH,
    );
    return text ? `- \`${name}\`: ${text}` : `- \`${name}\``;
  });
  return `${intro}\n\nAvailable tools:\n${lines.join('\n')}`;
}

// ---------------------------------------------------------------------------
// Input validation
// ---------------------------------------------------------------------------

export type ParsedSearchInput =
  | { readonly ok: true; readonly query: string; readonly truncated: boolean }
  | { readonly ok: false; readonly message: string };

export type ParsedLoadInput =
  | {
      readonly ok: true;
      /** Requested names, trimmed, deduplicated, in the order given (toolNames first, then toolName). */
      readonly names: readonly string[];
      /** True when only `toolName` was given (the single-tool result form). */
      readonly single: boolean;
    }
  | { readonly ok: false; readonly message: string };

/** Some frameworks hand a tool its arguments as a JSON string. */
function parseMaybeJson(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  const text = input.trim();
  if (!text.startsWith('{')) return input;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return input;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A tool description cut as Mastra's processor cuts it: at most `max` characters, the first
 * `max - 3` then `...` (never between the two halves of a surrogate pair).
 */
export function cutDescription(text: string, max: number): string {
  return text.length <= max ? text : `${cutText(text, max - 3)}...`;
}

/** Shortens text that is echoed back to the model. */
export function clip(text: string, max = 100): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function parseSearchToolsInput(input: unknown): ParsedSearchInput {
  const value = parseMaybeJson(input);
  let query: unknown;
  if (typeof value === 'string') query = value;
  else if (isRecord(value)) query = Object.hasOwn(value, 'query') ? value.query : undefined;
  if (query === undefined || query === null) {
    return {
      ok: false,
      message:
        'search_tools needs a "query": a few keywords describing the tool you need, e.g. {"query": "weather"}.',
    };
  }
  if (typeof query !== 'string') {
    return {
      ok: false,
      message: `"query" must be a string of keywords, not ${describeType(query)}. Example: {"query": "send email"}.`,
    };
  }
  const trimmed = query.trim();
  if (trimmed.length === 0 || !/[\p{L}\p{N}]/u.test(trimmed)) {
    return {
      ok: false,
      message:
        'The query is empty. Call search_tools with a few keywords describing the tool you need, e.g. "weather".',
    };
  }
  if (trimmed.length > MAX_QUERY_LENGTH) {
    return { ok: true, query: cutText(trimmed, MAX_QUERY_LENGTH), truncated: true };
  }
  return { ok: true, query: trimmed, truncated: false };
}

export function parseLoadToolInput(input: unknown): ParsedLoadInput {
  const value = parseMaybeJson(input);
  let toolName: unknown;
  let toolNames: unknown;
  if (typeof value === 'string') toolName = value;
  else if (isRecord(value)) {
    toolName = Object.hasOwn(value, 'toolName') ? value.toolName : undefined;
    toolNames = Object.hasOwn(value, 'toolNames') ? value.toolNames : undefined;
  } else if (value !== undefined && value !== null) {
    return {
      ok: false,
      message: `load_tool needs an object like {"toolName": "name"}, not ${describeType(value)}.`,
    };
  }
  if (toolName === null) toolName = undefined;
  if (toolNames === null) toolNames = undefined;
  if (toolName !== undefined && typeof toolName !== 'string') {
    return {
      ok: false,
      message: `"toolName" must be a string (one exact tool name), not ${describeType(toolName)}. Use "toolNames" for several.`,
    };
  }
  if (toolNames !== undefined && !Array.isArray(toolNames)) {
    if (typeof toolNames === 'string') toolNames = [toolNames];
    else {
      return {
        ok: false,
        message: `"toolNames" must be an array of exact tool names, not ${describeType(toolNames)}.`,
      };
    }
  }
  const list = (toolNames as unknown[] | undefined) ?? [];
  const bad = list.findIndex((name) => typeof name !== 'string');
  if (bad !== -1) {
    return {
      ok: false,
      message: `"toolNames" must contain only strings; item ${bad} is ${describeType(list[bad])}.`,
    };
  }
  const requested = [...(list as string[]), ...(toolName === undefined ? [] : [toolName])]
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  if (requested.length === 0) {
    return {
      ok: false,
      message:
        toolNames !== undefined && list.length === 0 && toolName === undefined
          ? 'toolNames array must not be empty.'
          : 'You must provide either toolName (string) or toolNames (array of strings) to load. ' +
            'Call search_tools first if you do not know the exact name.',
    };
  }
  const names = [...new Set(requested)];
  if (names.length > MAX_LOAD_NAMES) {
    return {
      ok: false,
      message: `Too many tools in one call (${names.length}); load at most ${MAX_LOAD_NAMES} at a time, the ones you need now.`,
    };
  }
  return { ok: true, names, single: toolNames === undefined };
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

// ---------------------------------------------------------------------------
// "Did you mean" suggestions
// ---------------------------------------------------------------------------

interface PreparedName {
  readonly name: string;
  /** Lower case, letters and digits only. */
  readonly normalized: string;
  readonly words: ReadonlySet<string>;
}

function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function nameWords(name: string): Set<string> {
  return new Set(
    name
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [],
  );
}

function prepareName(name: string): PreparedName {
  return { name, normalized: normalizeName(name), words: nameWords(name) };
}

let row = new Uint16Array(0);
let nextRow = new Uint16Array(0);

/** Levenshtein distance, giving up (returning `limit + 1`) once it must exceed `limit`. */
function boundedDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (row.length < b.length + 1) {
    row = new Uint16Array(b.length + 1);
    nextRow = new Uint16Array(b.length + 1);
  }
  let previous = row;
  let current = nextRow;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const code = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = code === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    const swap = previous;
    previous = current;
    current = swap;
  }
  return previous[b.length]!;
}

function similarity(wanted: PreparedName, candidate: PreparedName): number {
  const a = wanted.normalized;
  const b = candidate.normalized;
  if (a.length === 0 || b.length === 0) return 0;
  if (a === b) return 1;
  let score = 0;
  const shorter = Math.min(a.length, b.length);
  const longer = Math.max(a.length, b.length);
  if (shorter >= 3 && (a.includes(b) || b.includes(a))) score = 0.6 + 0.3 * (shorter / longer);
  const limit = Math.floor(longer * 0.4);
  if (longer <= 64 && Math.abs(a.length - b.length) <= limit) {
    const distance = boundedDistance(a, b, limit);
    if (distance <= limit) score = Math.max(score, 1 - distance / longer);
  }
  if (wanted.words.size > 0 && candidate.words.size > 0) {
    let shared = 0;
    for (const word of wanted.words) if (word.length > 1 && candidate.words.has(word)) shared++;
    if (shared > 0) {
      const jaccard = shared / (wanted.words.size + candidate.words.size - shared);
      if (jaccard >= 0.5) score = Math.max(score, 0.5 + 0.4 * jaccard);
    }
  }
  return score >= 0.5 ? score : 0;
}

/** How alike two tool names are, 0..1 (0 = not worth suggesting). */
export function nameSimilarity(wanted: string, candidate: string): number {
  return similarity(prepareName(wanted), prepareName(candidate));
}

export interface ScoredName {
  readonly name: string;
  readonly score: number;
}

export interface NameSuggester {
  /** Names close to `wanted`, best first (at most `limit`), with their similarity. */
  suggest(wanted: string, limit?: number): ScoredName[];
}

const byScoreThenName = (x: ScoredName, y: ScoredName) =>
  y.score - x.score || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0);

/** Prepares a catalog's names once, so each "did you mean" costs one pass of cheap comparisons. */
export function createNameSuggester(names: Iterable<string>): NameSuggester {
  const prepared = [...names].map(prepareName);
  return {
    suggest(wanted, limit = 3) {
      if (wanted.length > MAX_TOOL_NAME_LENGTH) return [];
      const target = prepareName(wanted);
      const scored: ScoredName[] = [];
      for (const candidate of prepared) {
        const score = similarity(target, candidate);
        if (score > 0) scored.push({ name: candidate.name, score });
      }
      return scored.sort(byScoreThenName).slice(0, limit);
    },
  };
}

/** Names from `candidates` close to `wanted`, best first (at most `limit`). */
export function suggestToolNames(wanted: string, candidates: Iterable<string>, limit = 3): string[] {
  return createNameSuggester(candidates)
    .suggest(wanted, limit)
    .map((entry) => entry.name);
}

/** Merges the suggestions of several catalogs (best first, each name once). */
export function mergeSuggestions(lists: readonly (readonly ScoredName[])[], limit: number): string[] {
  const best = new Map<string, number>();
  for (const list of lists)
    for (const { name, score } of list) best.set(name, Math.max(score, best.get(name) ?? 0));
  return [...best]
    .map(([name, score]) => ({ name, score }))
    .sort(byScoreThenName)
    .slice(0, limit)
    .map((entry) => entry.name);
}
