import { ToolSearchError } from './errors';
import type { RequestOptions, ToolSearchEngineOptions } from './types';

/**
 * The names an options object may have: `true` for an option, the names of its own options for
 * an option that is an options object itself (`search: { topK: true, … }`).
 */
export type OptionNames = { readonly [name: string]: true | OptionNames };

/**
 * The option names of an options type: every key of `T` (and, written as a literal with
 * `satisfies`, none other), so that the names checked cannot drift from the type.
 */
export type OptionNamesOf<T> = { readonly [K in keyof T]-?: true | OptionNames };

/** Names of `ToolSearchEngineOptions`, for adapters that forward them (`search` nested). */
export const ENGINE_OPTION_NAMES = {
  catalog: true,
  search: { topK: true, minScore: true, autoLoad: true },
  storage: true,
  ttl: true,
  maxThreads: true,
  maxLoadedTools: true,
  filter: true,
  signingSecret: true,
  ranker: true,
  clock: true,
  onEvent: true,
  storeTimeoutMs: true,
  searchTimeoutMs: true,
  filterTimeoutMs: true,
  resolveTimeoutMs: true,
} as const satisfies OptionNamesOf<ToolSearchEngineOptions>;

/**
 * The engine's option names an adapter forwards as they are: all but `catalog`, which an adapter
 * builds from its framework's tools.
 */
const { catalog: _catalog, ...forwarded } = ENGINE_OPTION_NAMES;
export const FORWARDED_ENGINE_OPTION_NAMES = forwarded;

/** Names of `RequestOptions` (`startRequest`). */
export const REQUEST_OPTION_NAMES = {
  threadId: true,
  requestContext: true,
  alwaysOn: true,
  requestTools: true,
} as const satisfies OptionNamesOf<RequestOptions>;

/**
 * An unknown name is compared with the valid ones only up to this length (longer than any option
 * name plus the edits allowed): a 100 kB key costs no more than a short one.
 */
const MAX_COMPARED_LENGTH = 64;
/** An unknown name is shown in the message up to this many characters. */
const MAX_SHOWN_LENGTH = 64;

interface Candidate {
  /** Where the option is written: `topK` inside `search` is `search.topK`. */
  readonly path: string;
  /** The path of the object it belongs to ('' at the top). */
  readonly parent: string;
  readonly folded: string;
}

interface Level {
  readonly path: string;
  /** Each valid name, to its nested level (an options object) or undefined. */
  readonly names: ReadonlyMap<string, Level | undefined>;
}

interface Prepared {
  readonly root: Level;
  /** Every option of every level, in order: the candidates for "did you mean". */
  readonly candidates: readonly Candidate[];
}

const preparedNames = new WeakMap<OptionNames, Prepared>();

function prepare(names: OptionNames): Prepared {
  const known = preparedNames.get(names);
  if (known) return known;
  const candidates: Candidate[] = [];
  const level = (shape: OptionNames, path: string): Level => {
    const map = new Map<string, Level | undefined>();
    for (const [name, nested] of Object.entries(shape)) {
      const full = path === '' ? name : `${path}.${name}`;
      candidates.push({ path: full, parent: path, folded: name.toLowerCase() });
      map.set(name, nested === true ? undefined : level(nested, full));
    }
    return { path, names: map };
  };
  const prepared = { root: level(names, ''), candidates };
  preparedNames.set(names, prepared);
  return prepared;
}

/**
 * Refuses an option name that `names` does not list, in `options` and in its nested options
 * objects (those `names` lists with names of their own, when given as a plain object), with
 * `ToolSearchError('INVALID_OPTIONS')` naming the closest valid option: "unknown option `topk`
 * of createToolSearchEngine; did you mean `search.topK`?". TypeScript refuses such a name only
 * in an object literal; a misspelt option would otherwise be a default silently kept.
 *
 * Own enumerable string keys are checked (an own `__proto__` key, as `JSON.parse` makes one, is
 * unknown like any other); symbol keys are no option names and are left alone. The closest name
 * is a case-insensitive match first (in the same object, then in another: a top-level `topK` is
 * `search.topK`), then the name fewest edits away (letters inserted, deleted, replaced or swapped;
 * at most a third of the name's length, and 3), the same object's first on a tie. An unknown name
 * is compared only up to its first 64 characters, so the check costs time linear in the number of
 * keys, whatever their length.
 */
export function checkOptionNames(options: object, names: OptionNames, takenBy: string): void {
  const prepared = prepare(names);
  checkLevel(options, prepared.root, prepared, takenBy);
}

function checkLevel(options: object, level: Level, prepared: Prepared, takenBy: string): void {
  for (const key of Object.keys(options)) {
    if (!level.names.has(key)) throw unknownOption(key, level, prepared, takenBy);
    const nested = level.names.get(key);
    if (nested === undefined) continue;
    const value: unknown = (options as Record<string, unknown>)[key];
    // Only a plain options object is read here; any other value is its option's check to refuse.
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      checkLevel(value, nested, prepared, takenBy);
  }
}

function unknownOption(key: string, level: Level, prepared: Prepared, takenBy: string): ToolSearchError {
  const clipped = key.length > MAX_SHOWN_LENGTH ? `${key.slice(0, MAX_SHOWN_LENGTH)}…` : key;
  // Escaped as in JSON (quotes, control characters, lone surrogates), without the quotes.
  const shown = JSON.stringify(clipped).slice(1, -1);
  const where = level.path === '' ? shown : `${level.path}.${shown}`;
  const closest = closestOption(key, level.path, prepared.candidates);
  const hint =
    closest !== undefined
      ? `did you mean \`${closest}\`?`
      : level.path === ''
        ? `its options are ${[...level.names.keys()].join(', ')}`
        : `the options of \`${level.path}\` are ${[...level.names.keys()].join(', ')}`;
  return new ToolSearchError('INVALID_OPTIONS', `unknown option \`${where}\` of ${takenBy}; ${hint}`);
}

function closestOption(key: string, parent: string, candidates: readonly Candidate[]): string | undefined {
  if (key.length > MAX_COMPARED_LENGTH) return undefined;
  const folded = key.toLowerCase();
  const sameCase = candidates.filter((candidate) => candidate.folded === folded);
  if (sameCase.length > 0)
    return (sameCase.find((candidate) => candidate.parent === parent) ?? sameCase[0])!.path;
  const limit = Math.min(3, Math.floor(folded.length / 3));
  if (limit === 0) return undefined;
  let best: Candidate | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(folded, candidate.folded, limit);
    if (
      distance < bestDistance ||
      (distance === bestDistance &&
        best !== undefined &&
        best.parent !== parent &&
        candidate.parent === parent)
    ) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best?.path : undefined;
}

/**
 * Edits (insert, delete, replace, swap two neighbours) from `a` to `b`, or `limit + 1` when more
 * than `limit` are needed. Both are short (an option name, an unknown name of at most 64 characters).
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(b.length + 1).fill(0);
    current[0] = i;
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      rowBest = Math.min(rowBest, value);
    }
    if (rowBest > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, limit + 1);
}
