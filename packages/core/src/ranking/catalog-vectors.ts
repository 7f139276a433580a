/**
 * A catalog's tool vectors for the hybrid ranker: planned from the factory's cache of vectors
 * by text, the rest embedded, assembled into the catalog's int8 matrix, and kept. The matrix,
 * the embedding in flight and when it was sent are reached only through
 * {@link createCatalogVectors}' `matrix()`.
 */
import { ToolSearchError } from '../errors';
import type { Clock, MaybePromise, ToolDescriptor } from '../types';
import type { EmbeddingVector } from './embedder';
import { andThen, type EmbeddingCalls } from './embedding-calls';
import { finishMatrix, quantiseInto, type ToolMatrix, textKey, type VectorCache } from './tool-vectors';

/**
 * A catalog's matrix as planned: the rows of the tools whose text the cache holds, already
 * copied, and the texts left to embed.
 */
interface ToolVectorPlan {
  /** Per tool: the index of its text in `wanted`, or −1 when its row was copied from the cache. */
  readonly sources: Int32Array;
  /** The texts to embed, each distinct text once (by its cache key). */
  readonly wanted: string[];
  readonly wantedKeys: number[];
  /** The row length of `codes`: the cache's when the plan was made (0 while it was empty). */
  readonly dimensions: number;
  /** Tools × `dimensions` codes, the cached tools' rows filled. */
  readonly codes: Int8Array;
  readonly scales: Float32Array;
  /** Tools whose row was copied from the cache. */
  readonly copied: number;
}

/*
 * The catalog's embedding is planned and assembled by module-level functions rather than
 * closures made per catalog: their optimised code then outlives each catalog (see
 * keep-shape.ts), and a catalog built after a full garbage collection does not wait for it.
 *
 * The cached rows are copied while planning, not when the new vectors arrive: a cache slot is
 * good only until the next put, and while an asynchronous embedder works, other catalogs of the
 * factory put their vectors, evicting and reusing slots (a catalog then took another's rows).
 * Copying then costs nothing extra: it is the copy the matrix needs anyway.
 */

function planToolVectors(
  tools: readonly ToolDescriptor[],
  toolText: (tool: ToolDescriptor) => string,
  cache: VectorCache,
): ToolVectorPlan {
  const count = tools.length;
  const dimensions = cache.dimensions;
  const sources = new Int32Array(count);
  const codes = new Int8Array(count * dimensions);
  const scales = new Float32Array(count);
  const distinct = new Map<number, number>();
  const wanted: string[] = [];
  const wantedKeys: number[] = [];
  let copied = 0;
  // The texts are made here, not kept with the ranker: once the matrix is built (and cached by
  // text key), those of cached tools are garbage.
  for (let position = 0; position < count; position++) {
    const text = toolText(tools[position]!);
    if (typeof text !== 'string') {
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        `toolText must return a string; it returned ${text === null ? 'null' : typeof text} for "${tools[position]!.name}"`,
      );
    }
    const key = textKey(text);
    const slot = cache.slotOf(key);
    if (slot >= 0) {
      scales[position] = cache.copy(slot, codes, position * dimensions);
      sources[position] = -1;
      copied++;
      continue;
    }
    let index = distinct.get(key);
    if (index === undefined) {
      index = wanted.length;
      distinct.set(key, index);
      wanted.push(text);
      wantedKeys.push(key);
    }
    sources[position] = index;
  }
  return { sources, wanted, wantedKeys, dimensions, codes, scales, copied };
}

/** The catalog's int8 matrix: the plan's cached rows and the new vectors, which are cached in turn. */
function assembleToolMatrix(
  plan: ToolVectorPlan,
  embedded: readonly EmbeddingVector[],
  dimensions: number,
  cache: VectorCache,
): ToolMatrix {
  const { sources, wantedKeys } = plan;
  const count = sources.length;
  let { codes, scales } = plan;
  if (dimensions !== plan.dimensions) {
    // The cache was empty when planned (its rows have the embedder's length, which is fixed).
    if (plan.copied > 0) {
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        `the embedder returned vectors of length ${dimensions}; the cached ones have ${plan.dimensions}`,
      );
    }
    codes = new Int8Array(count * dimensions);
    scales = new Float32Array(count);
  }
  // Where each new text was first written, so a repeated text is quantised once.
  const written = new Int32Array(embedded.length).fill(-1);
  for (let position = 0, offset = 0; position < count; position++, offset += dimensions) {
    const index = sources[position]!;
    if (index < 0) continue;
    const first = written[index]!;
    if (first >= 0) {
      codes.copyWithin(offset, first * dimensions, (first + 1) * dimensions);
      scales[position] = scales[first]!;
    } else {
      scales[position] = quantiseInto(embedded[index]!, dimensions, codes, offset);
      written[index] = position;
    }
  }
  for (let index = 0; index < wantedKeys.length; index++) {
    const position = written[index]!;
    cache.put(wantedKeys[index]!, codes, position * dimensions, dimensions, scales[position]!);
  }
  return finishMatrix(codes, scales, dimensions);
}

/** `pending`'s value, or undefined if it fails (the failure is reported where it happens). */
function orUndefined<T>(pending: Promise<T>): Promise<T | undefined> {
  return pending.then(
    (value) => value,
    () => undefined,
  );
}

export interface CatalogVectors {
  /**
   * The catalog's matrix (embedded on the first call, or waited for); undefined when the
   * embedding failed (reported and forgotten, so the next call retries). An embedding
   * unanswered for `staleMs` is given up on and its texts sent again.
   */
  matrix(): MaybePromise<ToolMatrix | undefined>;
}

/** The vectors of one catalog of a hybrid ranker factory. */
export function createCatalogVectors(
  tools: readonly ToolDescriptor[],
  context: {
    readonly toolText: (tool: ToolDescriptor) => string;
    /** The factory's tool vectors by text, across its catalogs. */
    readonly cache: VectorCache;
    readonly calls: EmbeddingCalls;
    readonly clock: Clock;
    readonly staleMs: number;
    readonly report: (error: unknown) => void;
  },
): CatalogVectors {
  const { toolText, cache, calls, clock, staleMs, report } = context;
  const embedTools = (): MaybePromise<ToolMatrix> => {
    const plan = planToolVectors(tools, toolText, cache);
    const assemble = (embedded: readonly EmbeddingVector[]): ToolMatrix =>
      assembleToolMatrix(plan, embedded, calls.dimensions() ?? 0, cache);
    if (plan.wanted.length === 0) return assemble([]);
    return andThen(calls.embedToolTexts(plan.wanted), assemble);
  };

  let matrix: ToolMatrix | undefined;
  let pending: Promise<ToolMatrix> | undefined;
  let pendingSince = 0;
  return {
    matrix(): MaybePromise<ToolMatrix | undefined> {
      if (matrix) return matrix;
      if (pending && clock.now() - pendingSince < staleMs) return orUndefined(pending);
      try {
        const result = embedTools();
        if (!(result instanceof Promise)) {
          matrix = result;
          return matrix;
        }
        const current: Promise<ToolMatrix> = result.then(
          (value) => {
            matrix = value; // a late answer of a call given up on is as good as any
            if (pending === current) pending = undefined;
            return value;
          },
          (error: unknown) => {
            if (pending !== current) throw error; // given up on: its failure is no news
            pending = undefined;
            report(error);
            throw error;
          },
        );
        pending = current;
        pendingSince = clock.now();
        return orUndefined(pending);
      } catch (error) {
        report(error);
        return undefined;
      }
    },
  };
}
