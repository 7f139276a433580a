import { ToolSearchError } from './errors';
import { createNameSuggester, MAX_TOOL_NAME_LENGTH, META_TOOL_NAMES, type NameSuggester } from './meta-tools';
import { checkRanker } from './ranking/ranker-answers';
import type { CatalogEntry, Ranker, RankerFactory, ToolDescriptor } from './types';

/** Why a request tool (or one of its aliases) was left out of the request's catalog. */
export type RejectedToolReason =
  | 'invalid-name'
  | 'reserved-name'
  | 'duplicate-name'
  | 'alias-conflict'
  | 'invalid-entry';

export interface Catalog<TTool = unknown> {
  readonly entries: readonly CatalogEntry<TTool>[];
  readonly size: number;
  /** Exact canonical name. */
  byName(name: string): CatalogEntry<TTool> | undefined;
  /** Exact alias → its tool. */
  byAlias(name: string): CatalogEntry<TTool> | undefined;
  /** Canonical name in any case and normalisation form (NFC/NFD), when exactly one tool has it. */
  byFoldedName(name: string): CatalogEntry<TTool> | undefined;
  /** Whether any tool (one or more) has this canonical name in some case or normalisation form. */
  hasFoldedName(name: string): boolean;
  /** Canonical names (for suggestions). */
  names(): Iterable<string>;
  /** The length of the longest name or alias, as given or folded (the longest a name that finds a tool can be). */
  readonly longestName: number;
  /** The ranker over this catalog, built on first use. */
  ranker(): Ranker;
  /** "Did you mean" over the canonical names, prepared on first use. */
  suggester(): NameSuggester;
}

export interface BuildCatalogOptions {
  readonly rankerFactory: RankerFactory;
  /**
   * 'strict' (the static catalog): a bad name throws a ToolSearchError.
   * 'lenient' (request tools): the offending tool or alias is left out and reported.
   */
  readonly mode: 'strict' | 'lenient';
  readonly onReject?: (toolName: string, reason: RejectedToolReason, detail: string) => void;
}

function describeName(name: unknown): string {
  return typeof name === 'string'
    ? JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name)
    : String(name);
}

/**
 * Whether a string is well-formed Unicode: no lone surrogate (half of a UTF-16 pair without the
 * other half), which UTF-8 cannot carry (a store that keeps UTF-8, such as Redis, turns it into
 * U+FFFD, so two such strings would become one).
 */
export function isWellFormedText(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/**
 * The key a name typed by a model is matched on when no tool has it exactly: lowercase and
 * composed (NFC), so `GETWEATHER` finds `getWeather` and a composed `café` finds a tool whose
 * name is decomposed (made from a macOS file name). Only a key that one tool has finds it, and
 * the tool is then known, filtered and loaded by its canonical name.
 */
function foldName(name: string): string {
  return name.toLowerCase().normalize('NFC');
}

/**
 * Whether `name` may find a tool by {@link Catalog.byName}, `byAlias` or `byFoldedName` of
 * catalogs whose `longestName` is at most `longest`. A longer name is folded only when it could
 * fold to that length: folding never shortens a text below a quarter of its length (lowercasing
 * never shortens, and composition joins at most four characters into one, as `ᾂ`), so a name
 * typed by a model costs no more than `4 × longest` characters of folding, however long.
 */
export function mayNameTool(name: string, longest: number): boolean {
  if (name.length <= longest) return true;
  return name.length <= 4 * longest && foldName(name).length <= longest;
}

/**
 * A non-empty string of at most 256 characters, well-formed Unicode: a lone surrogate could not
 * come back unchanged from a store that keeps UTF-8 (Redis turns it into U+FFFD).
 */
export function isValidToolName(name: unknown): name is string {
  return (
    typeof name === 'string' &&
    name.trim().length > 0 &&
    name.length <= MAX_TOOL_NAME_LENGTH &&
    isWellFormedText(name)
  );
}

/**
 * What is wrong with an entry whose name is valid: a description that is not a string, or
 * tags or aliases that are not an array (a string would be read letter by letter); undefined
 * when nothing is.
 */
function entryProblem(entry: CatalogEntry<unknown>): string | undefined {
  const { name, description } = entry.descriptor;
  if (description !== undefined && description !== null && typeof description !== 'string') {
    return `Tool "${name}" has a description that is not a string (${Array.isArray(description) ? 'an array' : typeof description}).`;
  }
  const { tags } = entry.descriptor;
  if (tags !== undefined && tags !== null && !Array.isArray(tags)) {
    return `Tool "${name}" has tags that are not an array of words (${typeof tags}).`;
  }
  const { aliases } = entry;
  if (aliases !== undefined && aliases !== null && !Array.isArray(aliases)) {
    return `Tool "${name}" has aliases that are not an array of names (${typeof aliases}).`;
  }
  return undefined;
}

/**
 * Checks the names of a catalog and indexes them. The rules:
 * - a name must be a non-empty string of at most 256 characters, well-formed Unicode (INVALID_TOOL_NAME);
 * - a description must be a string when given, tags and aliases arrays (INVALID_OPTIONS);
 * - a tool or alias may not be named like a meta-tool (RESERVED_TOOL_NAME);
 * - two tools may not share a name (DUPLICATE_TOOL_NAME);
 * - an alias may not be another tool's name or another tool's alias (TOOL_ID_MISMATCH);
 *   an alias equal to the tool's own name is ignored.
 * In 'lenient' mode the first tool with a name wins, later ones and bad aliases are left out.
 */
export function buildCatalog<TTool>(
  input: readonly CatalogEntry<TTool>[],
  options: BuildCatalogOptions,
): Catalog<TTool> {
  if (!Array.isArray(input)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'The catalog must be an array of { descriptor, tool } entries.',
    );
  }
  const strict = options.mode === 'strict';
  const reject = (
    name: string,
    reason: RejectedToolReason,
    code: ConstructorParameters<typeof ToolSearchError>[0],
    detail: string,
  ) => {
    if (strict) throw new ToolSearchError(code, detail);
    options.onReject?.(name, reason, detail);
  };

  const byName = new Map<string, CatalogEntry<TTool>>();
  const entries: CatalogEntry<TTool>[] = [];
  for (const entry of input) {
    const name = (entry as CatalogEntry<TTool> | undefined)?.descriptor?.name;
    if (!isValidToolName(name)) {
      reject(
        String(name),
        'invalid-name',
        'INVALID_TOOL_NAME',
        `Tool name ${describeName(name)} is not a non-empty string of at most ${MAX_TOOL_NAME_LENGTH} characters of well-formed Unicode.`,
      );
      continue;
    }
    if (META_TOOL_NAMES.has(name)) {
      reject(
        name,
        'reserved-name',
        'RESERVED_TOOL_NAME',
        `A tool may not be named "${name}": the name belongs to a tool-search meta-tool.`,
      );
      continue;
    }
    const problem = entryProblem(entry);
    if (problem !== undefined) {
      reject(name, 'invalid-entry', 'INVALID_OPTIONS', problem);
      continue;
    }
    if (byName.has(name)) {
      reject(
        name,
        'duplicate-name',
        'DUPLICATE_TOOL_NAME',
        `Two tools are named "${name}"; tool names must be unique.`,
      );
      continue;
    }
    byName.set(name, entry);
    entries.push(entry);
  }

  const byAlias = new Map<string, CatalogEntry<TTool>>();
  const keptAliases = new Map<CatalogEntry<TTool>, string[]>();
  for (const entry of entries) {
    const name = entry.descriptor.name;
    const kept: string[] = [];
    for (const alias of entry.aliases ?? []) {
      if (alias === name) continue;
      if (!isValidToolName(alias)) {
        reject(
          name,
          'invalid-name',
          'INVALID_TOOL_NAME',
          `Tool "${name}" has an alias ${describeName(alias)} that is not a valid tool name.`,
        );
        continue;
      }
      if (META_TOOL_NAMES.has(alias)) {
        reject(
          name,
          'reserved-name',
          'RESERVED_TOOL_NAME',
          `Tool "${name}" may not be known as "${alias}": the name belongs to a tool-search meta-tool.`,
        );
        continue;
      }
      const owner = byName.get(alias) ?? byAlias.get(alias);
      if (owner === entry) continue;
      if (owner) {
        reject(
          name,
          'alias-conflict',
          'TOOL_ID_MISMATCH',
          `Tool "${name}" is also known as "${alias}", which is already the name or id of tool "${owner.descriptor.name}".`,
        );
        continue;
      }
      byAlias.set(alias, entry);
      kept.push(alias);
    }
    if (kept.length > 0) keptAliases.set(entry, kept);
  }

  const folded = new Map<string, CatalogEntry<TTool> | null>();
  let longestName = 0;
  for (const [name, entry] of byName) {
    const key = foldName(name);
    folded.set(key, folded.has(key) ? null : entry);
    longestName = Math.max(longestName, name.length, key.length);
  }
  for (const alias of byAlias.keys()) longestName = Math.max(longestName, alias.length);

  let ranker: Ranker | undefined;
  let suggester: NameSuggester | undefined;
  return {
    entries,
    size: entries.length,
    byName: (name) => byName.get(name),
    byAlias: (name) => byAlias.get(name),
    byFoldedName: (name) => folded.get(foldName(name)) ?? undefined,
    hasFoldedName: (name) => folded.has(foldName(name)),
    names: () => byName.keys(),
    longestName,
    ranker() {
      if (!ranker) {
        const descriptors: ToolDescriptor[] = entries.map((entry) => {
          const aliases = keptAliases.get(entry);
          return aliases
            ? { ...entry.descriptor, tags: [...(entry.descriptor.tags ?? []), ...aliases] }
            : entry.descriptor;
        });
        ranker = checkRanker(
          options.rankerFactory(descriptors),
          options.mode === 'strict' ? 'createToolSearchEngine' : "the request's tools",
        );
      }
      return ranker;
    },
    suggester() {
      suggester ??= createNameSuggester(byName.keys());
      return suggester;
    },
  };
}

/**
 * Request catalogs cached by the identity of their tool objects, so the steps of a
 * request (and later requests with the same tools) never re-index. The first
 * lookup is by the array itself; a new array holding the same tools (same names,
 * same tool objects, same aliases) finds its catalog through its first tool.
 * Both maps are weak: a catalog lives as long as its tools do.
 */
export function createRequestCatalogCache<TTool>(
  build: (entries: readonly CatalogEntry<TTool>[]) => Catalog<TTool>,
) {
  const byArray = new WeakMap<readonly CatalogEntry<TTool>[], Catalog<TTool>>();
  const byFirstTool = new WeakMap<
    object,
    { input: readonly CatalogEntry<TTool>[]; catalog: Catalog<TTool> }[]
  >();

  const identityKey = (entry: CatalogEntry<TTool> | undefined): object | undefined => {
    if (!entry) return undefined;
    const tool = entry.tool as unknown;
    if ((typeof tool === 'object' && tool !== null) || typeof tool === 'function') return tool as object;
    return typeof entry === 'object' && entry !== null ? entry : undefined;
  };

  const sameTools = (a: readonly CatalogEntry<TTool>[], b: readonly CatalogEntry<TTool>[]) => {
    if (a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) {
      const x = a[index];
      const y = b[index];
      if (x === y) continue;
      if (!x || !y || x.tool !== y.tool || x.descriptor?.name !== y.descriptor?.name) return false;
      const xa: unknown = x.aliases ?? [];
      const ya: unknown = y.aliases ?? [];
      if (xa === ya) continue;
      // Aliases that are not an array (the tool is left out) are the same only when identical.
      if (!Array.isArray(xa) || !Array.isArray(ya)) return false;
      if (xa.length !== ya.length || xa.some((alias, position) => alias !== ya[position])) return false;
    }
    return true;
  };

  return (entries: readonly CatalogEntry<TTool>[]): Catalog<TTool> => {
    const hit = byArray.get(entries);
    if (hit) return hit;
    const first = identityKey(entries[0]);
    const candidates = first ? byFirstTool.get(first) : undefined;
    const match = candidates?.find((candidate) => sameTools(candidate.input, entries));
    if (match) {
      byArray.set(entries, match.catalog);
      return match.catalog;
    }
    const catalog = build(entries);
    byArray.set(entries, catalog);
    if (first) {
      const list = candidates ?? [];
      list.push({ input: [...entries], catalog });
      if (list.length > 8) list.shift();
      byFirstTool.set(first, list);
    }
    return catalog;
  };
}
