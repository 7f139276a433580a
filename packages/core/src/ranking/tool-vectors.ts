/**
 * The hybrid ranker's vector side: a catalog's tool vectors as one int8 matrix, the cache that
 * keeps them by text across catalogs, and the similarity scans of a search (an optional
 * low-dimension prefilter for large catalogs, then exact cosines). The keyword ranker's words
 * of like meaning (word-neighbours.ts) scan a matrix of word vectors the same way.
 */
import { ToolSearchError } from '../errors';
import type { EmbeddingVector } from './embedder';
import { keepShape } from './keep-shape';
import { largest } from './largest';
import { createSubspaceScanner, rowDots, SUBSPACE_DIMENSIONS, type SubspaceScanner } from './subspace-scan';

/** From this many tools on, similarity is first estimated in a small subspace. */
const PREFILTER_MIN_TOOLS = 512;
/** Vectors longer than this are scanned in full (the subspace would cost more than it saves). */
const PREFILTER_MAX_DIMENSIONS = 256;
/** Dimensions of the prefilter subspace (the scan is written out for them). */
const PREFILTER_DIMENSIONS = SUBSPACE_DIMENSIONS;
/** Tools whose estimate is checked exactly, per semantic candidate wanted. */
const PREFILTER_OVERSAMPLING = 4;
/** The subspace is used only when it holds at least this share of the tools' energy. */
const PREFILTER_MIN_ENERGY = 0.6;
/** Tool vectors sampled to find the subspace. */
const PREFILTER_SAMPLE = 256;
const PREFILTER_ITERATIONS = 10;
/** Fixed-point scale of the subspace's axes while tools are projected onto them. */
const BASIS_SCALE = 2 ** 14;
/** Tools projected onto the subspace per batch of the kernel (bounds its scratch memory). */
const SUBSPACE_CHUNK = 4_096;

/**
 * 1.5 × 2⁵²: a number of magnitude under 2⁵¹ plus this has no bits left for a fraction, so the
 * addition rounds it to an integer (ties to even) and subtracting this again gives that
 * integer. The build quantises a million values at 10,000 tools of 100 dimensions: Math.round
 * took 11 ms of that here, this 2.5 ms.
 */
const ROUNDING = 6_755_399_441_055_744;

/** `value` rounded to the nearest integer (|value| < 2⁵¹; ties to even). */
function roundToInteger(value: number): number {
  return value + ROUNDING - ROUNDING;
}

function notFinite(): ToolSearchError {
  return new ToolSearchError(
    'INVALID_OPTIONS',
    'the embedder returned a vector with a value that is not finite',
  );
}

/**
 * Writes `vector` at unit length as int8 codes into `target` at `offset` and returns its scale
 * (value ≈ code × scale; 0 for the zero vector). Throws on a value that is not finite.
 */
export function quantiseInto(
  vector: EmbeddingVector,
  dimensions: number,
  target: Int8Array,
  offset: number,
): number {
  let length = 0;
  let largestValue = 0;
  for (let index = 0; index < dimensions; index++) {
    const value = Number(vector[index]);
    if (!Number.isFinite(value)) throw notFinite();
    length += value * value;
    const magnitude = Math.abs(value);
    if (magnitude > largestValue) largestValue = magnitude;
  }
  if (length === 0) {
    target.fill(0, offset, offset + dimensions);
    return 0;
  }
  // Codes span −127..127 over the largest value; the scale brings them to unit length.
  const toCode = 127 / largestValue;
  for (let index = 0; index < dimensions; index++)
    target[offset + index] = roundToInteger(Number(vector[index]) * toCode);
  return largestValue / 127 / Math.sqrt(length);
}

/** A float32 copy of `vector` at unit length (the zero vector stays zero). */
export function unitVector(vector: EmbeddingVector, dimensions: number): Float32Array {
  const result = new Float32Array(dimensions);
  let length = 0;
  for (let index = 0; index < dimensions; index++) {
    const value = Number(vector[index]);
    if (!Number.isFinite(value)) throw notFinite();
    result[index] = value;
    length += value * value;
  }
  if (length > 0) {
    const inverse = 1 / Math.sqrt(length);
    for (let index = 0; index < dimensions; index++) result[index]! *= inverse;
  }
  return result;
}

/** Rows per block of the cache's storage. */
const CACHE_BLOCK = 1_024;

/**
 * A 53-bit key for a text: two 32-bit hashes (FNV-1a, and a multiplicative hash with its
 * own seed) over its UTF-16 units. The cache keeps these instead of the texts (a tool's text
 * is a few hundred bytes); two texts share a key with odds of about 1 in 2⁵³ per pair.
 */
export function textKey(text: string): number {
  let first = 0x811c9dc5;
  let second = 0x2545f491;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second + code, 0x9e3779b1) ^ (second >>> 15);
  }
  second = Math.imul(second ^ text.length, 0x85ebca6b);
  return (first >>> 0) * 0x200000 + (second >>> 11);
}

/**
 * Quantised tool vectors kept by text (by {@link textKey}, so the texts themselves are not
 * held), least recently used forgotten beyond `capacity`. The codes live in blocks of rows
 * (not a typed array per text), so caching a 10,000-tool catalog costs a few allocations.
 */
export class VectorCache {
  private readonly slots = new Map<number, number>();
  private readonly blocks: Int8Array[] = [];
  private scales = new Float32Array(0);
  private readonly free: number[] = [];
  private used = 0;
  private width = 0;

  constructor(private readonly capacity: number) {}

  /** The length of the rows kept (0 before the first). */
  get dimensions(): number {
    return this.width;
  }

  /** The slot of the text of `key` ({@link textKey}; now the most recently used), or −1. */
  slotOf(key: number): number {
    if (this.slots.size === 0) return -1;
    const slot = this.slots.get(key);
    if (slot === undefined) return -1;
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot;
  }

  /**
   * Copies the codes of `slot` into `target` at `offset` and returns their scale. A slot is
   * good only until the next {@link put}, which may give it to another text: copy before
   * anything else can put (an asynchronous wait lets other catalogs put).
   */
  copy(slot: number, target: Int8Array, offset: number): number {
    const block = this.blocks[Math.floor(slot / CACHE_BLOCK)]!;
    const width = this.width;
    const start = (slot % CACHE_BLOCK) * width;
    for (let index = 0; index < width; index++) target[offset + index] = block[start + index]!;
    return this.scales[slot]!;
  }

  /** Keeps `dimensions` codes of `source` at `offset` with their scale under `key` ({@link textKey}). */
  put(key: number, source: Int8Array, offset: number, dimensions: number, scale: number): void {
    if (this.capacity <= 0) return;
    if (dimensions !== this.width) this.reset(dimensions);
    let slot = this.slots.get(key);
    if (slot !== undefined) {
      this.slots.delete(key);
    } else {
      if (this.slots.size >= this.capacity) this.evict();
      slot = this.free.pop() ?? this.used++;
      if (slot >= this.scales.length) {
        const grown = new Float32Array(
          Math.min(this.capacity, Math.max(CACHE_BLOCK, 2 * this.scales.length)),
        );
        grown.set(this.scales);
        this.scales = grown;
      }
      const block = Math.floor(slot / CACHE_BLOCK);
      while (this.blocks.length <= block) this.blocks.push(new Int8Array(CACHE_BLOCK * dimensions));
    }
    this.slots.set(key, slot);
    const block = this.blocks[Math.floor(slot / CACHE_BLOCK)]!;
    const start = (slot % CACHE_BLOCK) * dimensions;
    for (let index = 0; index < dimensions; index++) block[start + index] = source[offset + index]!;
    this.scales[slot] = scale;
  }

  /**
   * Forgets the least recently used sixteenth, with one pass of one iterator: taking a Map's
   * first key once per insertion costs more and more as deleted entries pile up at its front
   * (a 100,000-tool catalog through a 20,000-entry cache spent seconds there).
   */
  private evict(): void {
    let count = Math.max(1, Math.ceil(this.capacity / 16));
    for (const [key, slot] of this.slots) {
      this.slots.delete(key);
      this.free.push(slot);
      if (--count === 0) break;
    }
  }

  private reset(dimensions: number): void {
    this.slots.clear();
    this.blocks.length = 0;
    this.scales = new Float32Array(0);
    this.free.length = 0;
    this.used = 0;
    this.width = dimensions;
  }
}

/** The catalog's vectors, int8 and row after row, with the prefilter subspace when it pays. */
export interface ToolMatrix {
  readonly dimensions: number;
  readonly codes: Int8Array;
  readonly scales: Float32Array;
  /** Rows checked exactly per candidate wanted, after the prefilter. */
  readonly oversampling: number;
  /**
   * The prefilter (undefined: every tool is checked exactly), made on first call: only a
   * search that scans the catalog needs it, and most searches do not.
   */
  readonly subspace: () => Subspace | undefined;
}

/**
 * The prefilter: every tool's coordinates on PREFILTER_DIMENSIONS axes that hold most of the
 * catalog's energy, int8 at a fixed scale (value ≈ code / 127: coordinates of unit vectors lie
 * in −1..1), so that scores of different tools and views compare and the scan runs on small
 * integers.
 */
interface Subspace {
  /** The axes: PREFILTER_DIMENSIONS orthonormal rows of `dimensions`. */
  readonly basis: Float32Array;
  /** Scans every tool's PREFILTER_DIMENSIONS codes against views' coordinates. */
  readonly scanner: SubspaceScanner;
}

/**
 * The top eigenvectors of Σ t·tᵀ over a sample of tool vectors (subspace iteration): the
 * directions in which tools differ most, where a query's dot product is mostly decided.
 * Undefined when they hold less than PREFILTER_MIN_ENERGY of the sample's energy.
 */
function prefilterBasis(
  codes: Int8Array,
  scales: Float32Array,
  dimensions: number,
  sample: readonly number[],
  minEnergy: number,
): Float32Array | undefined {
  const moment = new Float64Array(dimensions * dimensions);
  const row = new Float64Array(dimensions);
  for (const tool of sample) {
    const offset = tool * dimensions;
    const scale = scales[tool]!;
    for (let index = 0; index < dimensions; index++) row[index] = codes[offset + index]! * scale;
    for (let left = 0; left < dimensions; left++) {
      const value = row[left]!;
      if (value === 0) continue;
      const base = left * dimensions;
      for (let right = left; right < dimensions; right++) moment[base + right]! += value * row[right]!;
    }
  }
  for (let left = 0; left < dimensions; left++) {
    for (let right = 0; right < left; right++)
      moment[left * dimensions + right] = moment[right * dimensions + left]!;
  }
  const count = PREFILTER_DIMENSIONS;
  // Deterministic start: rows of a fixed pseudo-random matrix.
  let basis: Float64Array = new Float64Array(count * dimensions);
  let seed = 0x9e3779b9;
  for (let index = 0; index < basis.length; index++) {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    basis[index] = seed / 2 ** 32 - 0.5;
  }
  const orthonormalise = (rows: Float64Array): void => {
    for (let current = 0; current < count; current++) {
      const base = current * dimensions;
      for (let previous = 0; previous < current; previous++) {
        const other = previous * dimensions;
        let dot = 0;
        for (let index = 0; index < dimensions; index++) dot += rows[base + index]! * rows[other + index]!;
        for (let index = 0; index < dimensions; index++) rows[base + index]! -= dot * rows[other + index]!;
      }
      let length = 0;
      for (let index = 0; index < dimensions; index++) length += rows[base + index]! * rows[base + index]!;
      const inverse = length > 0 ? 1 / Math.sqrt(length) : 0;
      for (let index = 0; index < dimensions; index++) rows[base + index]! *= inverse;
    }
  };
  orthonormalise(basis);
  const multiply = (rows: Float64Array): Float64Array => {
    const next = new Float64Array(count * dimensions);
    for (let current = 0; current < count; current++) {
      const base = current * dimensions;
      for (let left = 0; left < dimensions; left++) {
        let sum = 0;
        const momentRow = left * dimensions;
        for (let right = 0; right < dimensions; right++)
          sum += moment[momentRow + right]! * rows[base + right]!;
        next[base + left] = sum;
      }
    }
    return next;
  };
  for (let iteration = 0; iteration < PREFILTER_ITERATIONS; iteration++) {
    const next = multiply(basis);
    orthonormalise(next);
    basis = next;
  }
  // The share of the sample's energy (trace) that the subspace holds: Σ bᵀ·M·b over its rows.
  let trace = 0;
  for (let index = 0; index < dimensions; index++) trace += moment[index * dimensions + index]!;
  const image = multiply(basis);
  let held = 0;
  for (let index = 0; index < image.length; index++) held += image[index]! * basis[index]!;
  return trace > 0 && held / trace >= minEnergy ? Float32Array.from(basis) : undefined;
}

/** Evenly spaced tools, at most PREFILTER_SAMPLE. */
function sampleTools(tools: number): number[] {
  const step = Math.max(1, Math.floor(tools / PREFILTER_SAMPLE));
  const sample: number[] = [];
  for (let tool = 0; tool < tools; tool += step) sample.push(tool);
  return sample;
}

/** The four int8 codes at `offset` as one int32 (code k in bits 8k..8k+7), independent of endianness. */
function packCodes(codes: Int8Array, offset: number): number {
  return (
    (codes[offset]! & 0xff) |
    ((codes[offset + 1]! & 0xff) << 8) |
    ((codes[offset + 2]! & 0xff) << 16) |
    (codes[offset + 3]! << 24)
  );
}

function buildSubspace(
  codes: Int8Array,
  scales: Float32Array,
  dimensions: number,
  minEnergy: number,
): Subspace | undefined {
  const tools = scales.length;
  const width = PREFILTER_DIMENSIONS;
  const basis = prefilterBasis(codes, scales, dimensions, sampleTools(tools), minEnergy);
  if (basis === undefined) return undefined;
  const packed = new Int32Array((tools * width) / 4);
  // The axes in fixed point (|value| ≤ 1 → ≤ 2¹⁴, int16 range), so projecting a tool is
  // integer dot products, in the exact checks' kernel: |sum| ≤ 2¹⁴ × 127 × dimensions < 2³¹ for
  // dimensions ≤ PREFILTER_MAX_DIMENSIONS.
  const axes = Array.from({ length: width }, (_, axis) =>
    Int32Array.from(basis.subarray(axis * dimensions, (axis + 1) * dimensions), (value) =>
      Math.round(value * BASIS_SCALE),
    ),
  );
  const kernel = rowDots();
  const chunk = Math.min(tools, SUBSPACE_CHUNK);
  const rows = new Int32Array(chunk);
  const sums = new Int32Array(width * chunk);
  const row = new Int8Array(width);
  for (let first = 0; first < tools; first += chunk) {
    const count = Math.min(chunk, tools - first);
    for (let index = 0; index < count; index++) rows[index] = first + index;
    kernel.dots(codes, dimensions, rows, count, axes, sums);
    for (let index = 0; index < count; index++) {
      const tool = first + index;
      const toCode = (scales[tool]! * 127) / BASIS_SCALE;
      for (let axis = 0; axis < width; axis++) {
        const value = roundToInteger(sums[axis * count + index]! * toCode);
        row[axis] = Math.max(-127, Math.min(127, value));
      }
      for (let word = 0; word < width / 4; word++)
        packed[(tool * width) / 4 + word] = packCodes(row, 4 * word);
    }
  }
  return { basis, scanner: createSubspaceScanner(packed, tools) };
}

/** When the prefilter is used, and how many rows it leaves to check exactly. */
export interface PrefilterSettings {
  /** The subspace is used only when it holds at least this share of the rows' energy. */
  readonly minEnergy: number;
  /** Rows checked exactly per candidate wanted. */
  readonly oversampling: number;
}

const TOOL_PREFILTER: PrefilterSettings = {
  minEnergy: PREFILTER_MIN_ENERGY,
  oversampling: PREFILTER_OVERSAMPLING,
};

/** The matrix of a catalog whose codes and scales are filled, with its prefilter when it pays. */
export function finishMatrix(
  codes: Int8Array,
  scales: Float32Array,
  dimensions: number,
  prefilter: PrefilterSettings = TOOL_PREFILTER,
): ToolMatrix {
  const { minEnergy, oversampling } = prefilter;
  const worthIt = scales.length >= PREFILTER_MIN_TOOLS && dimensions <= PREFILTER_MAX_DIMENSIONS;
  let subspace: Subspace | undefined;
  let made = !worthIt;
  return {
    dimensions,
    codes,
    scales,
    oversampling,
    subspace() {
      if (!made) {
        subspace = buildSubspace(codes, scales, dimensions, minEnergy);
        made = true;
      }
      return subspace;
    },
  };
}

/** A unit view quantised to int8 for the exact dot products (value ≈ code × scale). */
interface QuantisedView {
  readonly codes: Int32Array;
  readonly scale: number;
}

function quantiseView(view: Float32Array, dimensions: number): QuantisedView {
  let largestValue = 0;
  for (let index = 0; index < dimensions; index++)
    largestValue = Math.max(largestValue, Math.abs(view[index]!));
  const codes = new Int32Array(dimensions);
  if (largestValue === 0) return { codes, scale: 0 };
  const toCode = 127 / largestValue;
  for (let index = 0; index < dimensions; index++) codes[index] = roundToInteger(view[index]! * toCode);
  return { codes, scale: largestValue / 127 };
}

/**
 * Pseudo-relevance feedback (Rocchio's): each view moved towards the mean vector of `tools` (the
 * search's leading results) by `share` of that mean, at unit length. A view with no vector (a
 * request of words the embedder does not know) stays without one: the feedback refines what
 * the request says, it does not stand in for it.
 */
export function feedbackViews(
  matrix: ToolMatrix,
  views: readonly Float32Array[],
  tools: readonly number[],
  share: number,
): Float32Array[] {
  const { codes, scales, dimensions } = matrix;
  const mean = new Float64Array(dimensions);
  for (const tool of tools) {
    const factor = scales[tool]! / tools.length;
    for (let index = 0, offset = tool * dimensions; index < dimensions; index++, offset++)
      mean[index]! += codes[offset]! * factor;
  }
  return views.map((view) => {
    let length = 0;
    for (let index = 0; index < dimensions; index++) length += view[index]! * view[index]!;
    if (length === 0) return view;
    const moved = new Float32Array(dimensions);
    for (let index = 0; index < dimensions; index++) moved[index] = view[index]! + share * mean[index]!;
    return unitVector(moved, dimensions);
  });
}

/** A search's views (the whole request and its parts), quantised once for every exact check. */
export class QueryViews {
  private readonly quantised: readonly QuantisedView[];
  private readonly codes: readonly Int32Array[];
  /** The exact dot products (WebAssembly SIMD where it compiles). */
  private readonly kernel = rowDots();
  /** The codes of the tool last given as `left` to {@link between}, widened to int32. */
  private left: Int32Array | undefined;
  private leftTool = -1;

  constructor(
    private readonly matrix: ToolMatrix,
    readonly views: readonly Float32Array[],
  ) {
    this.quantised = views.map((view) => quantiseView(view, matrix.dimensions));
    this.codes = this.quantised.map((view) => view.codes);
  }

  /**
   * The cosine of tool `left` with each of the first `count` of `rights` (calls with the same
   * `left` in a row are cheaper).
   */
  between(left: number, rights: ArrayLike<number>, count: number): Float64Array {
    const { codes, scales, dimensions } = this.matrix;
    this.left ??= new Int32Array(dimensions);
    if (left !== this.leftTool) {
      for (let index = 0, offset = left * dimensions; index < dimensions; index++, offset++)
        this.left[index] = codes[offset]!;
      this.leftTool = left;
    }
    const dots = new Int32Array(count);
    this.kernel.dots(codes, dimensions, rights, count, [this.left], dots);
    const cosines = new Float64Array(count);
    for (let index = 0; index < count; index++)
      cosines[index] = dots[index]! * scales[left]! * scales[rights[index]!]!;
    return cosines;
  }

  /** The cosine of each view with each of the first `count` of `tools`: view by view, `count` per view. */
  each(tools: ArrayLike<number>, count: number): Float64Array {
    const { codes, scales, dimensions } = this.matrix;
    const dots = new Int32Array(this.quantised.length * count);
    this.kernel.dots(codes, dimensions, tools, count, this.codes, dots);
    const cosines = new Float64Array(dots.length);
    for (let slot = 0; slot < this.quantised.length; slot++) {
      const { scale } = this.quantised[slot]!;
      for (let index = 0; index < count; index++)
        cosines[slot * count + index] = dots[slot * count + index]! * scale * scales[tools[index]!]!;
    }
    return cosines;
  }

  /** Each of the first `count` of `tools`' best cosine over the views. */
  best(tools: ArrayLike<number>, count: number): Float64Array {
    const { codes, scales, dimensions } = this.matrix;
    const views = this.quantised.length;
    const dots = new Int32Array(views * count);
    this.kernel.dots(codes, dimensions, tools, count, this.codes, dots);
    const best = new Float64Array(count).fill(-1);
    for (let slot = 0; slot < views; slot++) {
      const { scale } = this.quantised[slot]!;
      for (let index = 0; index < count; index++) {
        const value = dots[slot * count + index]! * scale * scales[tools[index]!]!;
        if (value > best[index]!) best[index] = value;
      }
    }
    return best;
  }
}

/** A view's coordinates in the prefilter subspace, int8 at the tools' fixed scale. */
function subspaceCoordinates(basis: Float32Array, view: Float32Array, dimensions: number): Int32Array {
  const coordinates = new Int32Array(PREFILTER_DIMENSIONS);
  for (let axis = 0; axis < PREFILTER_DIMENSIONS; axis++) {
    let sum = 0;
    for (let index = 0, base = axis * dimensions; index < dimensions; index++, base++)
      sum += basis[base]! * view[index]!;
    coordinates[axis] = Math.max(-127, Math.min(127, Math.round(sum * 127)));
  }
  return coordinates;
}

/** The tools a search considers for their similarity, with their best cosines. */
export interface SemanticCandidates {
  readonly tools: Int32Array;
  readonly similarities: Float32Array;
}

/**
 * The `count` tools most similar to any view: every tool checked exactly, or (large catalogs)
 * an estimate in the subspace for every tool, then an exact check of the best estimates.
 */
export function semanticCandidates(query: QueryViews, matrix: ToolMatrix, count: number): SemanticCandidates {
  const tools = matrix.scales.length;
  const subspace = matrix.subspace();
  let shortlist: Int32Array;
  if (subspace === undefined) {
    shortlist = new Int32Array(tools);
    for (let tool = 0; tool < tools; tool++) shortlist[tool] = tool;
  } else {
    const coordinates = query.views.map((view) =>
      subspaceCoordinates(subspace.basis, view, matrix.dimensions),
    );
    shortlist = subspace.scanner.best(coordinates, count * matrix.oversampling);
  }
  const exact = Float32Array.from(query.best(shortlist, shortlist.length));
  const chosen = largest(exact, count);
  return {
    tools: chosen.map((position) => shortlist[position]!),
    similarities: Float32Array.from(chosen, (position) => exact[position]!),
  };
}

keepShape(new VectorCache(0));
