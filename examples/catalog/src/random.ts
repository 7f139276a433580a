/**
 * Seeded randomness for the executors: the seed is the input itself, so one input always
 * gives one result and different inputs give different, plausible results.
 */

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` seed the same values. */
export function stableStringify(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? String(value);
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const keys = Object.keys(value).sort();
  const record = value as Record<string, unknown>;
  return `{${keys.map((key) => `${JSON.stringify(key)}:${stableStringify(record[key])}`).join(',')}}`;
}

/** 32-bit FNV-1a hash of a string. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** A float in [min, max) rounded to `decimals`. */
  float(min: number, max: number, decimals?: number): number;
  pick<T>(items: readonly T[]): T;
  /** `count` distinct items (fewer when the list is shorter), in a shuffled order. */
  sample<T>(items: readonly T[], count: number): T[];
  bool(probability?: number): boolean;
  /** An id such as `pr_8f3a1c` (lowercase hex) or `BK-48213` (digits) after a prefix. */
  id(prefix: string, options?: { digits?: boolean; length?: number }): string;
}

/** A mulberry32 generator seeded by the hash of `seed` (any JSON-like value) and a salt. */
export function createRandom(seed: unknown, salt = ''): SeededRandom {
  let state = hashString(`${salt}|${stableStringify(seed)}`) || 0x9e3779b9;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    float(min, max, decimals = 2) {
      const factor = 10 ** decimals;
      return Math.round((min + next() * (max - min)) * factor) / factor;
    },
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[int(0, items.length - 1)] as T;
    },
    sample<T>(items: readonly T[], count: number): T[] {
      const pool = [...items];
      const out: T[] = [];
      while (out.length < count && pool.length > 0) {
        out.push(pool.splice(int(0, pool.length - 1), 1)[0] as T);
      }
      return out;
    },
    bool(probability = 0.5) {
      return next() < probability;
    },
    id(prefix, options = {}) {
      const length = options.length ?? (options.digits ? 5 : 8);
      const alphabet = options.digits ? '0123456789' : '0123456789abcdef';
      let body = '';
      for (let index = 0; index < length; index++) body += alphabet[int(0, alphabet.length - 1)];
      return `${prefix}${body}`;
    },
  };
}
