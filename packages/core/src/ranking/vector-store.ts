import { optionsObject, sizeOption, ToolSearchError } from '../errors';
import { checkOptionNames, type OptionNamesOf } from '../option-names';
import type { MaybePromise } from '../types';
import type { EmbeddingVector } from './embedder';

/** A text and the vector an embedder gave it. */
export interface VectorStoreEntry {
  readonly text: string;
  readonly vector: Float32Array;
}

/**
 * Where the vectors of an embedding API outlive the process, so that a catalog's tool texts
 * are embedded once, not again at every start or cold start (see `createStoredEmbedder`). A
 * vector is kept by its namespace (the embedder's `id`, which names the model and every
 * setting that changes its vectors) and the text it was made from. Either method may answer
 * synchronously or with a promise; a store may forget or expire what it keeps.
 */
export interface VectorStore {
  /** The kept vector of each text, in order: `undefined` where none is kept. */
  get(namespace: string, texts: readonly string[]): MaybePromise<readonly (EmbeddingVector | undefined)[]>;
  /** Keeps each entry's vector under its text (replacing one kept before). */
  set(namespace: string, entries: readonly VectorStoreEntry[]): MaybePromise<void>;
}

export interface MemoryVectorStoreOptions {
  /** Vectors kept at most, over every namespace; the least recently used go first (default 100,000). */
  readonly capacity?: number;
}

/** The in-memory {@link VectorStore}: one process's vectors (tests, and factories built one after another). */
export interface MemoryVectorStore extends VectorStore {
  get(namespace: string, texts: readonly string[]): readonly (Float32Array | undefined)[];
  set(namespace: string, entries: readonly VectorStoreEntry[]): void;
  /** Vectors kept now. */
  readonly size: number;
}

const DEFAULT_CAPACITY = 100_000;
const MEMORY_VECTOR_STORE_OPTION_NAMES = {
  capacity: true,
} as const satisfies OptionNamesOf<MemoryVectorStoreOptions>;

/** One string per (namespace, text), unambiguous whatever either contains. */
const keyOf = (namespace: string, text: string): string => `${namespace.length}:${namespace}${text}`;

/**
 * A {@link VectorStore} in a `Map`, least recently used forgotten beyond `capacity`. Vectors
 * are copied in and out, so neither side can change what the other holds.
 */
export function createMemoryVectorStore(given?: MemoryVectorStoreOptions | null): MemoryVectorStore {
  const options = optionsObject(given, 'createMemoryVectorStore');
  checkOptionNames(options, MEMORY_VECTOR_STORE_OPTION_NAMES, 'createMemoryVectorStore');
  const capacity = sizeOption(options.capacity, 'capacity', DEFAULT_CAPACITY);
  const vectors = new Map<string, Float32Array>();
  return {
    get(namespace, texts) {
      checkVectorStoreArguments(namespace, texts, 'texts');
      return texts.map((text) => {
        const key = keyOf(namespace, String(text));
        const vector = vectors.get(key);
        if (vector === undefined) return undefined;
        vectors.delete(key);
        vectors.set(key, vector);
        return vector.slice();
      });
    },
    set(namespace, entries) {
      checkVectorStoreArguments(namespace, entries, 'entries');
      // Every entry is checked before any is kept: a bad one keeps nothing.
      // Copies, so that a caller changing its vectors later changes nothing kept here.
      const copies = entries.map((entry, index) => {
        const vector = vectorOfEntry(entry, index);
        return vector === (entry as { vector?: unknown }).vector ? vector.slice() : vector;
      });
      entries.forEach((entry, index) => {
        const key = keyOf(namespace, String(entry.text));
        vectors.delete(key);
        vectors.set(key, copies[index]!);
      });
      while (vectors.size > capacity) vectors.delete(vectors.keys().next().value as string);
    },
    get size() {
      return vectors.size;
    },
  };
}

/**
 * For a `VectorStore` of your own, as the built-in ones check `set`'s entries: the entry's
 * vector as float32 (the given `Float32Array` itself, else a new one), or INVALID_INPUT unless
 * it is a non-empty typed array or array of finite numbers.
 */
export function vectorOfEntry(entry: unknown, index: number): Float32Array {
  const vector = (entry as { vector?: unknown } | null | undefined)?.vector;
  if (Array.isArray(vector) || (ArrayBuffer.isView(vector) && !(vector instanceof DataView))) {
    const values = vector as ArrayLike<unknown>;
    let numbers = values.length > 0;
    for (let position = 0; numbers && position < values.length; position++) {
      numbers = typeof values[position] === 'number';
    }
    // Checked as float32: a value past its range (1e39, finite as a double) would become Infinity.
    const kept = !numbers
      ? undefined
      : vector instanceof Float32Array
        ? vector
        : Float32Array.from(values as ArrayLike<number>);
    let finite = kept !== undefined;
    for (let position = 0; finite && position < kept!.length; position++) {
      finite = Number.isFinite(kept![position]);
    }
    if (finite) return kept!;
  }
  throw new ToolSearchError(
    'INVALID_INPUT',
    `entries[${index}].vector must be a non-empty Float32Array (or an array of finite numbers)`,
  );
}

/** For a `VectorStore` of your own: INVALID_INPUT unless `namespace` is a string and `list` (`texts` or `entries`) an array. */
export function checkVectorStoreArguments(
  namespace: unknown,
  list: unknown,
  name: 'texts' | 'entries',
): void {
  if (typeof namespace !== 'string') {
    throw new ToolSearchError('INVALID_INPUT', `namespace must be a string, got ${typeof namespace}`);
  }
  if (!Array.isArray(list)) throw new ToolSearchError('INVALID_INPUT', `${name} must be an array`);
}
