/**
 * The one error type of tool-search. Codes are a closed set; `cause` keeps the
 * underlying error. `ToolSearchError.isInstance` uses a registry-wide symbol, so
 * it answers correctly even when two copies of the package are installed (an app
 * and an adapter each with their own `@tool-search/core`); `instanceof` asks the
 * same marker, so it answers the same.
 */
export type ToolSearchErrorCode =
  | 'INVALID_OPTIONS'
  | 'INVALID_TOOL_NAME'
  | 'DUPLICATE_TOOL_NAME'
  | 'RESERVED_TOOL_NAME'
  | 'TOOL_ID_MISMATCH'
  | 'INVALID_INPUT'
  | 'STORE_UNAVAILABLE'
  | 'STORE_TIMEOUT'
  | 'EMBEDDER_TIMEOUT'
  | 'SEARCH_TIMEOUT'
  | 'FILTER_TIMEOUT'
  | 'RESOLVE_FAILED'
  | 'RESOLVE_TIMEOUT'
  | 'DISPOSED';

const marker = Symbol.for('tool-search.error');

export class ToolSearchError extends Error {
  readonly [marker] = true;
  override readonly name = 'ToolSearchError';
  readonly code: ToolSearchErrorCode;

  constructor(code: ToolSearchErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }

  /** Whether `value` is a `ToolSearchError` of any installed copy of the package. */
  static isInstance(value: unknown): value is ToolSearchError {
    return typeof value === 'object' && value !== null && (value as { [marker]?: unknown })[marker] === true;
  }

  /** `error instanceof ToolSearchError` reads the marker too, so it holds across copies. */
  static override [Symbol.hasInstance](value: unknown): value is ToolSearchError {
    return ToolSearchError.isInstance(value);
  }
}

/**
 * A factory's options: none (`undefined` or `null`) is `{}`; anything but a plain object (a
 * string, a number, an array) is an INVALID_OPTIONS error naming the factory, rather than a
 * TypeError or a silent default (an array, say a list of tools passed where the options go, has
 * none of the option keys, so it read as "no options").
 */
export function optionsObject<T extends object>(options: T | null | undefined, takenBy: string): T {
  if (options === undefined || options === null) return {} as T;
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `${takenBy} takes an options object, got ${kindOf(options)}`,
    );
  }
  return options;
}

/**
 * A size option (how many entries a cache or store keeps): a whole number ≥ 0, or `Infinity`
 * for no bound; `fallback` when not given. Anything else (a fraction, a negative number, `NaN`,
 * a string) throws `INVALID_OPTIONS` naming the option: a fraction such as `tools.length * 1.5`
 * left one slot of a cache half made.
 */
export function sizeOption(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !(value >= 0) ||
    !(Number.isInteger(value) || value === Number.POSITIVE_INFINITY)
  ) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `${name} must be a whole number ≥ 0 (or Infinity), got ${String(value)}`,
    );
  }
  return value;
}

/** What a value is, for an error message: `null`, `an array` or its `typeof`. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/**
 * An adapter's record of tools keyed by name (its `tools` option, say), checked: an object, not
 * an array, whose every value is an object. Anything else throws `INVALID_OPTIONS` naming the
 * option (`label`) and what the tools are (`kind`, e.g. `'AI SDK tools'`): an array would make
 * its tools `"0"`, `"1"`, a missing value an empty catalog.
 */
export function toolRecord(record: unknown, label: string, kind: string): Array<[string, object]> {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `\`${label}\` must be an object of ${kind} keyed by name, got ${kindOf(record)}.`,
    );
  }
  return Object.entries(record).map(([name, tool]): [string, object] => {
    if (tool === null || typeof tool !== 'object') {
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        `\`${label}.${name}\` is not a tool (got ${kindOf(tool)}): \`${label}\` must be an object of ${kind} keyed by name.`,
      );
    }
    return [name, tool];
  });
}
