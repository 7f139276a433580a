/**
 * The one error type of tool-search. Codes are a closed set; `cause` keeps the
 * underlying error. `ToolSearchError.isInstance` uses a registry-wide symbol, so
 * it answers correctly even when two copies of the package are installed.
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

  static isInstance(value: unknown): value is ToolSearchError {
    return typeof value === 'object' && value !== null && (value as { [marker]?: unknown })[marker] === true;
  }
}

/**
 * A factory's options: none (`undefined` or `null`) is `{}`; anything but an object is an
 * INVALID_OPTIONS error naming the factory, rather than a TypeError or a silent default.
 */
export function optionsObject<T extends object>(options: T | null | undefined, takenBy: string): T {
  if (options === undefined || options === null) return {} as T;
  if (typeof options !== 'object') {
    throw new ToolSearchError('INVALID_OPTIONS', `${takenBy} takes an options object, got ${typeof options}`);
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
