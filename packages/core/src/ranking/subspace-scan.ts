/**
 * The prefilter's scan: every row's (tool's, or word's) estimated dot product with a request's
 * views in the 16-dimension subspace, the hot loop of a search that scans; the rows of the
 * best estimates, chosen from those at or above a cut (largest.ts); and the exact
 * integer dot products of chosen rows with vectors that check the scan's best estimates and
 * measure the likeness of tools. With WebAssembly SIMD (subspace-scan.wat) a row of the scan
 * takes a few instructions instead of some sixty, and an exact check 16 codes per step; where
 * WebAssembly is missing or may not compile code (a Content-Security-Policy without
 * `wasm-unsafe-eval`, some edge runtimes), the same integer arithmetic runs in JavaScript. Both
 * give the same results, bit for bit.
 */
import { largest } from './largest';
import { SUBSPACE_SCAN_WASM } from './subspace-scan-wasm';

/** Coordinates per row: the scan is written out for this many. */
export const SUBSPACE_DIMENSIONS = 16;
/** Below every estimate: `|estimate| ≤ 16 × 128 × 127`. */
const NO_ESTIMATE = -0x80000000;

/** The rows' subspace coordinates, scanned against views. */
export interface SubspaceScanner {
  /** `simd` or `javascript`: which scan runs. */
  readonly kind: 'simd' | 'javascript';
  /**
   * Each row's largest estimate over `views` (each 16 int8-range coordinates). The array is
   * the scanner's own and is overwritten by the next call; read it before scanning again.
   */
  scan(views: readonly Int32Array[]): Int32Array;
  /**
   * The rows of the `count` largest estimates over `views` (unordered; a fresh array): the
   * same rows as `largest` (largest.ts) of what `scan` gives.
   */
  best(views: readonly Int32Array[], count: number): Int32Array;
}

export interface SubspaceScannerOptions {
  /** Use WebAssembly SIMD when it compiles (default true); false for the JavaScript loop. */
  readonly simd?: boolean;
}

/**
 * A scanner over `packed`: each row's 16 int8 coordinates as four int32 words (coordinate k in
 * bits 8k..8k+7 of word k / 4), `rows` rows.
 */
export function createSubspaceScanner(
  packed: Int32Array,
  rows: number,
  options: SubspaceScannerOptions = {},
): SubspaceScanner {
  // WebAssembly memory is little-endian; so are the typed arrays that fill it, except on a
  // big-endian machine, which gets the JavaScript scan.
  const module = options.simd === false || BIG_ENDIAN ? undefined : simdModule();
  if (module !== undefined) {
    const scanner = simdScanner(module, packed, rows);
    if (scanner !== undefined) return scanner;
  }
  return javascriptScanner(packed, rows);
}

/*
 * The little of the WebAssembly API used here, declared locally: the core's TypeScript setup
 * has no DOM library, and a runtime without WebAssembly must still load this module.
 */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmModule {
  readonly __brand?: 'WebAssembly.Module';
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { readonly exports: unknown };
}

let compiled: WasmModule | null | undefined;

/** The compiled scan, once per process; undefined where WebAssembly or its SIMD is unavailable. */
function simdModule(): WasmModule | undefined {
  if (compiled === undefined) {
    const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    try {
      compiled =
        typeof wasm === 'object' && wasm !== null && wasm.validate(SUBSPACE_SCAN_WASM)
          ? new wasm.Module(SUBSPACE_SCAN_WASM)
          : null;
    } catch {
      // Compiling refused (a policy against generated code): the JavaScript scan it is.
      compiled = null;
    }
  }
  return compiled ?? undefined;
}

interface ScanExports {
  readonly memory: WasmMemory;
  readonly scan: (codes: number, estimates: number, rows: number, view: number) => void;
  readonly above: (estimates: number, rows: number, threshold: number, out: number) => number;
  readonly dots: (codes: number, rows: number, stride: number, vector: number, out: number) => void;
}

const PAGE_BYTES = 65_536;

/**
 * The kernel's one instance for the process, its memory grown to the largest catalog scanned
 * so far. Not one per catalog: each WebAssembly memory reserves gigabytes of address space, and
 * a process holding thousands of them (a server with a catalog per tenant) slows to a crawl,
 * then fails to make more. A scan copies its rows in first unless the last scan was its own
 * (160 kB at 10,000 rows: microseconds, against the 0.7 ms the JavaScript scan of four views takes).
 */
let kernel: ScanExports | null | undefined;
/** The scanner whose rows the shared memory holds: when it scans again, they are not copied. */
let loaded: object | undefined;
/** Where the rows of `loaded` end: the exact checks' rows and vectors go after them. */
let loadedEnd = 0;

/** The shared instance with room for `bytes`, or undefined (none could be made or grown). */
function kernelWithRoom(module: WasmModule, bytes: number): ScanExports | undefined {
  if (kernel === undefined) {
    try {
      const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly!;
      kernel = new wasm.Instance(module, {}).exports as ScanExports;
    } catch {
      kernel = null;
    }
  }
  if (kernel === null) return undefined;
  const missing = Math.ceil(bytes / PAGE_BYTES) - kernel.memory.buffer.byteLength / PAGE_BYTES;
  if (missing > 0) {
    try {
      kernel.memory.grow(missing);
    } catch {
      // Out of memory for this catalog: its scans run in JavaScript.
      return undefined;
    }
  }
  return kernel;
}

function simdScanner(module: WasmModule, packed: Int32Array, rows: number): SubspaceScanner | undefined {
  // Rows padded to a multiple of four (the kernel takes four per step; padding rows are zero).
  const padded = Math.ceil(rows / 4) * 4;
  const codesAt = 0;
  const estimatesAt = padded * SUBSPACE_DIMENSIONS;
  const viewAt = estimatesAt + padded * 4;
  // The rows that pass the cut go after the view: at most every row.
  const survivorsAt = viewAt + SUBSPACE_DIMENSIONS * 2;
  const bytes = survivorsAt + rows * 4;
  if (kernelWithRoom(module, bytes) === undefined) return undefined;
  const estimates = new Int32Array(rows);
  let fallback: SubspaceScanner | undefined;
  const identity = {};
  /** Scans in the shared memory, the estimates left there; undefined when it cannot grow. */
  const scanInPlace = (views: readonly Int32Array[]): ScanExports | undefined => {
    const shared = kernelWithRoom(module, bytes);
    if (shared === undefined) return undefined;
    // Views of the memory as it is now (growing it for a larger catalog detaches older ones).
    const { buffer } = shared.memory;
    if (loaded !== identity) {
      // Another scanner's rows, estimates or view may be where these rows go (a grow keeps
      // the memory's contents). Coordinate k of a row is in bits 8k..8k+7 of its words, so
      // byte k in little-endian memory.
      const codes = new Int32Array(buffer, codesAt, padded * (SUBSPACE_DIMENSIONS / 4));
      codes.set(packed);
      codes.fill(0, packed.length);
      loaded = identity;
      loadedEnd = estimatesAt;
    }
    const scanned = new Int32Array(buffer, estimatesAt, padded);
    scanned.fill(NO_ESTIMATE);
    const view = new Int16Array(buffer, viewAt, SUBSPACE_DIMENSIONS);
    for (const coordinates of views) {
      view.set(coordinates);
      shared.scan(codesAt, estimatesAt, padded, viewAt);
    }
    return shared;
  };
  const fallbackScanner = (): SubspaceScanner => {
    fallback ??= javascriptScanner(packed, rows);
    return fallback;
  };
  return {
    kind: 'simd',
    scan(views) {
      const shared = scanInPlace(views);
      if (shared === undefined) return fallbackScanner().scan(views);
      estimates.set(new Int32Array(shared.memory.buffer, estimatesAt, rows));
      return estimates;
    },
    best(views, count) {
      const shared = scanInPlace(views);
      if (shared === undefined) return fallbackScanner().best(views, count);
      // The estimates are read where the kernel left them; the rows that pass the cut are
      // found by the kernel too, so only those are read into JavaScript.
      const { buffer } = shared.memory;
      return largest(new Int32Array(buffer, estimatesAt, rows), count, (threshold) => {
        const found = shared.above(estimatesAt, rows, threshold, survivorsAt);
        return { survivors: new Int32Array(buffer, survivorsAt, found), found };
      });
    },
  };
}

const BIG_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 0;

function javascriptScanner(packed: Int32Array, rows: number): SubspaceScanner {
  const estimates = new Int32Array(rows);
  const scan = (views: readonly Int32Array[]): Int32Array => {
    estimates.fill(NO_ESTIMATE);
    for (const coordinates of views) scanRows(packed, coordinates, estimates);
    return estimates;
  };
  return {
    kind: 'javascript',
    scan,
    best: (views, count) => largest(scan(views), count),
  };
}

/**
 * Raises each row's estimate to its dot product with a view's subspace coordinates. A row's 16
 * int8 coordinates are read as four int32 words and unpacked with shifts (four loads instead
 * of sixteen), and the loop is written out for the 16 axes (no inner loop, the view in
 * registers).
 */
function scanRows(packed: Int32Array, coordinates: Int32Array, estimates: Int32Array): void {
  const c0 = coordinates[0]!;
  const c1 = coordinates[1]!;
  const c2 = coordinates[2]!;
  const c3 = coordinates[3]!;
  const c4 = coordinates[4]!;
  const c5 = coordinates[5]!;
  const c6 = coordinates[6]!;
  const c7 = coordinates[7]!;
  const c8 = coordinates[8]!;
  const c9 = coordinates[9]!;
  const c10 = coordinates[10]!;
  const c11 = coordinates[11]!;
  const c12 = coordinates[12]!;
  const c13 = coordinates[13]!;
  const c14 = coordinates[14]!;
  const c15 = coordinates[15]!;
  const rows = estimates.length;
  for (let row = 0, offset = 0; row < rows; row++, offset += 4) {
    const a = packed[offset]!;
    const b = packed[offset + 1]!;
    const c = packed[offset + 2]!;
    const d = packed[offset + 3]!;
    const sum =
      (((a << 24) >> 24) * c0 +
        ((a << 16) >> 24) * c1 +
        ((a << 8) >> 24) * c2 +
        (a >> 24) * c3 +
        ((b << 24) >> 24) * c4 +
        ((b << 16) >> 24) * c5 +
        ((b << 8) >> 24) * c6 +
        (b >> 24) * c7 +
        ((c << 24) >> 24) * c8 +
        ((c << 16) >> 24) * c9 +
        ((c << 8) >> 24) * c10 +
        (c >> 24) * c11 +
        ((d << 24) >> 24) * c12 +
        ((d << 16) >> 24) * c13 +
        ((d << 8) >> 24) * c14 +
        (d >> 24) * c15) |
      0;
    if (sum > estimates[row]!) estimates[row] = sum;
  }
}

/**
 * Exact dot products of rows of an int8 matrix with vectors of small integers: the checks of
 * the scan's best estimates, a search's cosines and the likeness of two tools.
 */
export interface RowDots {
  /** `simd` or `javascript`: which loop runs. */
  readonly kind: 'simd' | 'javascript';
  /**
   * For each vector `v` and each `i < count`: `out[v × count + i] = Σ_k codes[rows[i] ×
   * dimensions + k] × vectors[v][k]`. A vector has `dimensions` integers of int16 range; `out`
   * holds at least `vectors.length × count`.
   */
  dots(
    codes: Int8Array,
    dimensions: number,
    rows: ArrayLike<number>,
    count: number,
    vectors: readonly Int32Array[],
    out: Int32Array,
  ): void;
}

/** The integer dot product of the codes at `offset` with `vector` (four running sums, for speed). */
function dotCodes(codes: Int8Array, offset: number, vector: Int32Array, dimensions: number): number {
  let sum0 = 0;
  let sum1 = 0;
  let sum2 = 0;
  let sum3 = 0;
  let index = 0;
  for (; index + 4 <= dimensions; index += 4) {
    sum0 = (sum0 + codes[offset + index]! * vector[index]!) | 0;
    sum1 = (sum1 + codes[offset + index + 1]! * vector[index + 1]!) | 0;
    sum2 = (sum2 + codes[offset + index + 2]! * vector[index + 2]!) | 0;
    sum3 = (sum3 + codes[offset + index + 3]! * vector[index + 3]!) | 0;
  }
  for (; index < dimensions; index++) sum0 = (sum0 + codes[offset + index]! * vector[index]!) | 0;
  return (sum0 + sum1 + sum2 + sum3) | 0;
}

const javascriptDots: RowDots = {
  kind: 'javascript',
  dots(codes, dimensions, rows, count, vectors, out) {
    vectors.forEach((vector, slot) => {
      for (let index = 0; index < count; index++)
        out[slot * count + index] = dotCodes(codes, rows[index]! * dimensions, vector, dimensions);
    });
  },
};

/**
 * Bytes of rows copied into the shared memory per block: a batch goes through in blocks, so
 * that checking every tool of a catalog of long remote embeddings (10,000 × 1,536 int8 codes,
 * 15 MB) does not grow the memory, which never shrinks, to the catalog's size.
 */
const DOTS_BLOCK_BYTES = 256 * 1024;

/**
 * Copies rows `rows[first..first + length)` of `codes` (`dimensions` each) into `buffer` from
 * `rowsAt`, one per `stride` bytes. Read and written as int32 words when the rows allow it: a
 * quarter of the steps and no view made per row (a `subarray` per row cost more than the
 * copy: 55 against 33 ns for a row of 100 codes in the processor's caches, 115–340 against
 * 52–99 ns for one that is not).
 */
function gatherRows(
  codes: Int8Array,
  dimensions: number,
  rows: ArrayLike<number>,
  first: number,
  length: number,
  buffer: ArrayBufferLike,
  rowsAt: number,
  stride: number,
): void {
  if (dimensions % 4 === 0 && codes.byteOffset % 4 === 0 && rowsAt % 4 === 0) {
    const source = new Int32Array(codes.buffer, codes.byteOffset, codes.length >> 2);
    const target = new Int32Array(buffer, rowsAt, (length * stride) / 4);
    const words = dimensions / 4;
    const targetWords = stride / 4;
    for (let index = 0; index < length; index++) {
      const from = rows[first + index]! * words;
      const to = index * targetWords;
      for (let word = 0; word < words; word++) target[to + word] = source[from + word]!;
    }
    return;
  }
  const target = new Int8Array(buffer, rowsAt, length * stride);
  for (let index = 0; index < length; index++) {
    const offset = rows[first + index]! * dimensions;
    target.set(codes.subarray(offset, offset + dimensions), index * stride);
  }
}

/**
 * The exact checks in the shared instance: the rows are copied after those of the scanner
 * last loaded (which stay, so its next scan copies nothing), each padded to a multiple of 16
 * codes; the vectors' padding is zero, so the rows' padding adds nothing.
 */
function simdDots(module: WasmModule): RowDots {
  return {
    kind: 'simd',
    dots(codes, dimensions, rows, count, vectors, out) {
      if (count === 0) return;
      const stride = Math.ceil(dimensions / 16) * 16;
      const block = Math.min(count, Math.max(1, Math.floor(DOTS_BLOCK_BYTES / stride)));
      const rowsAt = loadedEnd;
      const vectorsAt = rowsAt + block * stride;
      const outAt = vectorsAt + vectors.length * stride * 2;
      const shared = kernelWithRoom(module, outAt + block * vectors.length * 4);
      if (shared === undefined) {
        javascriptDots.dots(codes, dimensions, rows, count, vectors, out);
        return;
      }
      const { buffer } = shared.memory;
      vectors.forEach((vector, slot) => {
        const weights = new Int16Array(buffer, vectorsAt + slot * stride * 2, stride);
        weights.set(vector.subarray(0, dimensions));
        weights.fill(0, dimensions);
      });
      const results = new Int32Array(buffer, outAt, block * vectors.length);
      for (let first = 0; first < count; first += block) {
        const length = Math.min(block, count - first);
        gatherRows(codes, dimensions, rows, first, length, buffer, rowsAt, stride);
        for (let slot = 0; slot < vectors.length; slot++) {
          shared.dots(rowsAt, length, stride, vectorsAt + slot * stride * 2, outAt + slot * length * 4);
          out.set(results.subarray(slot * length, (slot + 1) * length), slot * count + first);
        }
      }
    },
  };
}

let sharedDots: RowDots | undefined;

/**
 * The exact dot products, with WebAssembly SIMD where it compiles (one instance for the
 * process, shared with the scan), else in JavaScript. `simd: false` asks for the JavaScript loop.
 */
export function rowDots(options: SubspaceScannerOptions = {}): RowDots {
  if (options.simd === false || BIG_ENDIAN) return javascriptDots;
  if (sharedDots === undefined) {
    const module = simdModule();
    sharedDots = module === undefined ? javascriptDots : simdDots(module);
  }
  return sharedDots;
}
