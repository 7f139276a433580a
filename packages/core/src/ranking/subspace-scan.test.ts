import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileSubspaceScan } from '../../scripts/wasm-source';
import { seededRandom } from './__fixtures__/seeded-random';
import { largest } from './largest';
import { createSubspaceScanner, rowDots, SUBSPACE_DIMENSIONS } from './subspace-scan';
import { SUBSPACE_SCAN_WASM } from './subspace-scan-wasm';

/** Rows of int8 codes packed four to an int32 (coordinate k in bits 8k..8k+7), as tool-vectors packs them. */
function pack(rows: readonly (readonly number[])[]): Int32Array {
  const packed = new Int32Array(rows.length * (SUBSPACE_DIMENSIONS / 4));
  rows.forEach((row, index) => {
    for (let word = 0; word < SUBSPACE_DIMENSIONS / 4; word++) {
      const [a, b, c, d] = row.slice(4 * word, 4 * word + 4) as [number, number, number, number];
      packed[index * 4 + word] = (a & 0xff) | ((b & 0xff) << 8) | ((c & 0xff) << 16) | (d << 24);
    }
  });
  return packed;
}

function randomCodes(seed: number, count: number, range = 255, length = SUBSPACE_DIMENSIONS): number[][] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length }, () => Math.round(next() * (range - 1)) - (range >> 1)),
  );
}

/** The estimates by the definition: each row's largest dot product with any view. */
function expected(rows: readonly (readonly number[])[], views: readonly Int32Array[]): number[] {
  return rows.map((row) =>
    Math.max(...views.map((view) => row.reduce((sum, code, axis) => sum + code * view[axis]!, 0))),
  );
}

/**
 * A WebAssembly whose one memory page (64 kB) cannot grow, and whose functions do nothing: what
 * does not fit must run in JavaScript. Fresh modules load after it (`vi.resetModules`).
 */
function stubUngrowableWebAssembly(): void {
  const instance = {
    exports: {
      memory: {
        buffer: new ArrayBuffer(65_536),
        grow: () => {
          throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
        },
      },
      scan: () => {},
      dots: () => {},
    },
  };
  vi.resetModules();
  vi.stubGlobal('WebAssembly', {
    validate: () => true,
    Module: class {},
    Instance: class {
      constructor() {
        // biome-ignore lint/correctness/noConstructorReturn: a stub instance of the test's making
        return instance;
      }
    },
  });
}

describe('createSubspaceScanner', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('ships the bytes of subspace-scan.wat (rebuild with `pnpm --filter @tool-search/core run build-wasm`)', async () => {
    const wat = readFileSync(new URL('./subspace-scan.wat', import.meta.url), 'utf8');
    expect([...(await compileSubspaceScan(wat))]).toEqual([...SUBSPACE_SCAN_WASM]);
  });

  it.each([0, 1, 3, 4, 5, 64, 1_001])(
    'gives every row its largest estimate over the views, with SIMD and without (%i rows)',
    (count) => {
      // Extreme codes too: ±127 and −128 rows against ±127 views (the largest sums).
      const rows = [
        ...randomCodes(count + 1, Math.max(0, count - 3)),
        Array(SUBSPACE_DIMENSIONS).fill(127),
        Array(SUBSPACE_DIMENSIONS).fill(-128),
        Array(SUBSPACE_DIMENSIONS).fill(-127),
      ].slice(0, count);
      const views = [
        Int32Array.from(randomCodes(7, 1, 255)[0]!),
        new Int32Array(SUBSPACE_DIMENSIONS).fill(127),
        new Int32Array(SUBSPACE_DIMENSIONS).fill(-127),
      ];
      const simd = createSubspaceScanner(pack(rows), count);
      const plain = createSubspaceScanner(pack(rows), count, { simd: false });
      expect(simd.kind).toBe('simd');
      expect(plain.kind).toBe('javascript');
      for (const scanner of [simd, plain]) {
        expect([...scanner.scan(views)]).toEqual(expected(rows, views));
        // Scanning again starts afresh: one view alone.
        expect([...scanner.scan(views.slice(0, 1))]).toEqual(expected(rows, views.slice(0, 1)));
      }
    },
  );

  it('shares one WebAssembly instance between scanners of any size, interleaved', () => {
    // One memory per catalog would reserve gigabytes of address space each: past some 13,000
    // live catalogs the process slowed to a crawl (minutes, not milliseconds). These share one.
    const scanners = Array.from({ length: 20_000 }, (_, index) => {
      const rows = randomCodes(index, 1 + (index % 16));
      return { rows, scanner: createSubspaceScanner(pack(rows), rows.length) };
    });
    expect(scanners.every(({ scanner }) => scanner.kind === 'simd')).toBe(true);
    // A larger catalog grows the shared memory; the smaller ones scan correctly before and after.
    const large = randomCodes(99, 20_001);
    const largeScanner = createSubspaceScanner(pack(large), large.length);
    const views = [Int32Array.from(randomCodes(5, 1)[0]!)];
    for (const { rows, scanner } of [
      scanners[3]!,
      { rows: large, scanner: largeScanner },
      scanners[19_999]!,
    ]) {
      expect([...scanner.scan(views)]).toEqual(expected(rows, views));
    }
    // Scanning twice in a row (its rows already in place), and again after another scanner.
    const other = scanners[7]!;
    for (let round = 0; round < 2; round++) {
      expect([...other.scanner.scan(views)]).toEqual(expected(other.rows, views));
    }
    largeScanner.scan(views);
    expect([...other.scanner.scan(views)]).toEqual(expected(other.rows, views));
    // Results are the scanner's own: a later scan by another scanner leaves them as they were.
    const first = scanners[10]!;
    const kept = first.scanner.scan(views);
    const copy = [...kept];
    largeScanner.scan(views);
    expect([...kept]).toEqual(copy);
  });

  it('falls back to the JavaScript scan where WebAssembly is missing or refuses to compile', async () => {
    const rows = randomCodes(3, 10);
    const views = [Int32Array.from(randomCodes(4, 1)[0]!)];
    // A fresh module instance, so that no compiled module is remembered from the tests above.
    for (const stub of [
      undefined,
      {
        validate: () => true,
        Module: class {
          constructor() {
            throw new Error('Wasm code generation disallowed by embedder');
          }
        },
      },
    ]) {
      vi.resetModules();
      vi.stubGlobal('WebAssembly', stub);
      const { createSubspaceScanner: create } = await import('./subspace-scan');
      const scanner = create(pack(rows), rows.length);
      expect(scanner.kind).toBe('javascript');
      expect([...scanner.scan(views)]).toEqual(expected(rows, views));
      vi.unstubAllGlobals();
    }
  });

  it('scans in JavaScript a catalog the shared memory cannot grow for', async () => {
    // A runtime whose memory cannot grow past one page (64 kB, about 3,200 rows).
    stubUngrowableWebAssembly();
    const { createSubspaceScanner: create } = await import('./subspace-scan');
    const rows = randomCodes(8, 4_000);
    const views = [Int32Array.from(randomCodes(9, 1)[0]!)];
    const scanner = create(pack(rows), rows.length);
    expect(scanner.kind).toBe('javascript');
    expect([...scanner.scan(views)]).toEqual(expected(rows, views));
  });
});

describe('SubspaceScanner.best', () => {
  /** The `count` largest of `values`, largest first. */
  const top = (values: readonly number[], count: number): number[] =>
    [...values].sort((left, right) => right - left).slice(0, count);

  it.each([
    [0, 5],
    [3, 1],
    [7, 2],
    [1_001, 30],
    [4_003, 0],
    [4_003, 1],
    [4_003, 120],
    [4_003, 600],
  ])(
    'picks the rows of the largest estimates, with SIMD and without (%i rows, %i wanted)',
    (count, wanted) => {
      // The last row has the largest estimate against the view of +127s: a row past the kernel's
      // groups of four (4,003 rows) must be found too.
      const rows = [
        ...randomCodes(count, Math.max(0, count - 1)),
        Array(SUBSPACE_DIMENSIONS).fill(127),
      ].slice(0, count);
      const views = [Int32Array.from(randomCodes(3, 1)[0]!), new Int32Array(SUBSPACE_DIMENSIONS).fill(127)];
      const estimates = expected(rows, views);
      // The same picks, in the same order, as the selection over the estimates in JavaScript.
      const reference = [...largest(Int32Array.from(estimates), wanted)];
      for (const options of [{}, { simd: false }]) {
        const scanner = createSubspaceScanner(pack(rows), count, options);
        const picked = [...scanner.best(views, wanted)];
        expect(picked).toEqual(reference);
        expect(
          top(
            picked.map((row) => estimates[row]!),
            wanted,
          ),
        ).toEqual(top(estimates, wanted));
        if (count > 0 && wanted > 0) expect(picked).toContain(count - 1);
      }
    },
  );

  it.each([
    ['every estimate tied (a view of zeros)', 255, new Int32Array(SUBSPACE_DIMENSIONS)],
    ['a few distinct estimates, many tied at the cut', 3, new Int32Array(SUBSPACE_DIMENSIONS).fill(1)],
  ])('breaks ties as the JavaScript selection does: %s', (_, range, view) => {
    const rows = randomCodes(11, 4_003, range);
    const estimates = expected(rows, [view]);
    const reference = [...largest(Int32Array.from(estimates), 120)];
    expect(reference).toHaveLength(120);
    for (const options of [{}, { simd: false }]) {
      expect([...createSubspaceScanner(pack(rows), rows.length, options).best([view], 120)]).toEqual(
        reference,
      );
    }
  });

  it('answers with an array of its own, which the next scan leaves alone', () => {
    const rows = randomCodes(12, 2_000);
    const scanner = createSubspaceScanner(pack(rows), rows.length);
    const views = [Int32Array.from(randomCodes(13, 1)[0]!)];
    const first = scanner.best(views, 50);
    const copy = [...first];
    scanner.best([Int32Array.from(randomCodes(14, 1)[0]!)], 50);
    rowDots().dots(
      Int8Array.from({ length: 64 * 100 }, (_, index) => index % 100),
      64,
      [0, 1, 2],
      3,
      [new Int32Array(64).fill(1)],
      new Int32Array(3),
    );
    expect([...first]).toEqual(copy);
  });
});

/** The dot products by the definition, vector after vector: `out[v × count + i]`. */
function expectedDots(
  matrix: readonly (readonly number[])[],
  rows: readonly number[],
  vectors: readonly Int32Array[],
): number[] {
  return vectors.flatMap((vector) =>
    rows.map((row) => matrix[row]!.reduce((sum, code, index) => sum + code * vector[index]!, 0)),
  );
}

/** `rowDots(…).dots` over a matrix given as rows, into a fresh array. */
function dotsOf(
  kernel: ReturnType<typeof rowDots>,
  matrix: readonly (readonly number[])[],
  dimensions: number,
  rows: readonly number[],
  vectors: readonly Int32Array[],
): number[] {
  const out = new Int32Array(rows.length * vectors.length);
  kernel.dots(Int8Array.from(matrix.flat()), dimensions, rows, rows.length, vectors, out);
  return [...out];
}

describe('rowDots', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([1, 3, 15, 16, 17, 100, 3_072])(
    'gives the exact dot products of chosen rows with each vector, with SIMD and without (%i dimensions)',
    (dimensions) => {
      // Extreme codes too: ±127 and −128 rows against ±127 vectors (the largest sums).
      const matrix = [
        ...randomCodes(dimensions, 40, 255, dimensions),
        Array(dimensions).fill(127),
        Array(dimensions).fill(-128),
      ];
      const vectors = [
        Int32Array.from(randomCodes(dimensions + 1, 1, 255, dimensions)[0]!),
        new Int32Array(dimensions).fill(127),
        new Int32Array(dimensions).fill(-127),
      ];
      // Rows in any order, repeated, the last ones included.
      const rows = [41, 0, 7, 7, 40, 39, 3];
      const simd = rowDots();
      const plain = rowDots({ simd: false });
      expect(simd.kind).toBe('simd');
      expect(plain.kind).toBe('javascript');
      for (const kernel of [simd, plain]) {
        expect(dotsOf(kernel, matrix, dimensions, rows, vectors)).toEqual(
          expectedDots(matrix, rows, vectors),
        );
        expect(dotsOf(kernel, matrix, dimensions, [], vectors)).toEqual([]);
      }
    },
  );

  it.each([0, 1, 2, 4])(
    'reads codes that start %i bytes into their buffer (rows copied as words or as bytes)',
    (start) => {
      const dimensions = 100;
      const matrix = randomCodes(31, 50, 255, dimensions);
      const vectors = [Int32Array.from(randomCodes(32, 1, 255, dimensions)[0]!)];
      const rows = [49, 0, 17, 17, 3];
      // The matrix inside a larger buffer, with other bytes on either side.
      const buffer = new Int8Array(start + 50 * dimensions + 7).fill(99);
      const codes = buffer.subarray(start, start + 50 * dimensions);
      codes.set(matrix.flat());
      for (const kernel of [rowDots(), rowDots({ simd: false })]) {
        const out = new Int32Array(rows.length);
        kernel.dots(codes, dimensions, rows, rows.length, vectors, out);
        expect([...out]).toEqual(expectedDots(matrix, rows, vectors));
      }
    },
  );

  it('leaves the rows of the scanner last loaded in place (its next scan copies nothing)', () => {
    const scanRows = randomCodes(21, 3_000);
    const scanner = createSubspaceScanner(pack(scanRows), scanRows.length);
    const views = [Int32Array.from(randomCodes(22, 1)[0]!)];
    expect([...scanner.scan(views)]).toEqual(expected(scanRows, views));
    // A batch far larger than the scanner's estimates and view, then the same scanner again.
    const dimensions = 300;
    const matrix = randomCodes(23, 2_000, 255, dimensions);
    const rows = Array.from({ length: 2_000 }, (_, index) => (index * 7) % 2_000);
    const vectors = [1, 2, 3].map((seed) => Int32Array.from(randomCodes(seed, 1, 255, dimensions)[0]!));
    expect(dotsOf(rowDots(), matrix, dimensions, rows, vectors)).toEqual(expectedDots(matrix, rows, vectors));
    expect([...scanner.scan(views)]).toEqual(expected(scanRows, views));
  });

  it('checks a batch of long rows in blocks, without growing the shared memory to its size', async () => {
    // The real kernel, its memory watched: 3,000 rows of 1,536 codes (4.6 MB, a remote
    // embedding's catalog checked in full) must go through a memory of a few hundred kB.
    // The core's TypeScript setup has no DOM library: the little of the API used, declared here.
    const real = (globalThis as { WebAssembly?: unknown }).WebAssembly as {
      validate(bytes: Uint8Array): boolean;
      Module: new (bytes: Uint8Array) => object;
      Instance: new (
        module: object,
        imports: object,
      ) => { exports: { memory: { buffer: ArrayBuffer }; dots: (...args: number[]) => void } };
    };
    let largest = 0;
    let calls = 0;
    vi.resetModules();
    vi.stubGlobal('WebAssembly', {
      validate: (bytes: Uint8Array) => real.validate(bytes),
      Module: real.Module,
      Instance: class {
        constructor(module: object) {
          const { exports } = new real.Instance(module, {});
          const watched = {
            ...exports,
            dots: (...args: number[]) => {
              calls++;
              largest = Math.max(largest, exports.memory.buffer.byteLength);
              exports.dots(...args);
            },
          };
          // biome-ignore lint/correctness/noConstructorReturn: a watched instance of the test's making
          return { exports: watched };
        }
      },
    });
    const kernel = (await import('./subspace-scan')).rowDots();
    expect(kernel.kind).toBe('simd');
    const dimensions = 1_536;
    const matrix = randomCodes(41, 3_000, 255, dimensions);
    const rows = Array.from({ length: 3_000 }, (_, index) => (index * 11) % 3_000);
    const vectors = [42, 43].map((seed) => Int32Array.from(randomCodes(seed, 1, 255, dimensions)[0]!));
    expect(dotsOf(kernel, matrix, dimensions, rows, vectors)).toEqual(expectedDots(matrix, rows, vectors));
    expect(calls).toBeGreaterThan(2 * 10);
    expect(largest).toBeLessThanOrEqual(512 * 1024);
  });

  it('computes in JavaScript where WebAssembly is missing, or the shared memory cannot grow', async () => {
    const dimensions = 100;
    const matrix = randomCodes(31, 1_000, 255, dimensions);
    const rows = Array.from({ length: 1_000 }, (_, index) => 999 - index);
    const vectors = [Int32Array.from(randomCodes(32, 1, 255, dimensions)[0]!)];
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    const missing = (await import('./subspace-scan')).rowDots();
    expect(missing.kind).toBe('javascript');
    expect(dotsOf(missing, matrix, dimensions, rows, vectors)).toEqual(expectedDots(matrix, rows, vectors));
    vi.unstubAllGlobals();

    // A runtime whose memory cannot grow past one page (64 kB): 1,000 rows of 112 bytes do not fit.
    stubUngrowableWebAssembly();
    const kernel = (await import('./subspace-scan')).rowDots();
    expect(dotsOf(kernel, matrix, dimensions, rows, vectors)).toEqual(expectedDots(matrix, rows, vectors));
  });
});
