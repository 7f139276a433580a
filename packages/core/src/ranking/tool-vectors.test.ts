import { describe, expect, it } from 'vitest';
import { ToolSearchError } from '../errors';
import { seededRandom } from './__fixtures__/seeded-random';
import {
  feedbackViews,
  finishMatrix,
  QueryViews,
  quantiseInto,
  semanticCandidates,
  type ToolMatrix,
  textKey,
  VectorCache,
} from './tool-vectors';

function codesOf(values: readonly number[]): { codes: Int8Array; scale: number } {
  const codes = new Int8Array(values.length);
  const scale = quantiseInto(values, values.length, codes, 0);
  return { codes, scale };
}

describe('quantiseInto', () => {
  it('writes a unit vector as int8 codes and a scale', () => {
    const { codes, scale } = codesOf([3, -4]);
    expect(Math.max(...codes.map(Math.abs))).toBe(127);
    expect(codes[0]! * scale).toBeCloseTo(0.6, 2);
    expect(codes[1]! * scale).toBeCloseTo(-0.8, 2);
  });

  it('rounds each code to the nearest integer, on both sides of zero', () => {
    // Largest 127, so value × 1 is the code before rounding.
    const values = [127, -127, 12.4, 12.6, -12.4, -12.6, 0.49, -0.49, 1.5000001, -2.4999999, 0];
    expect([...codesOf(values).codes]).toEqual([127, -127, 12, 13, -12, -13, 0, 0, 2, -2, 0]);
    const random = Array.from({ length: 1_000 }, (_, index) => Math.sin(index * 12.9898) * 43.758);
    const { codes } = codesOf(random);
    const toCode = 127 / Math.max(...random.map(Math.abs));
    for (const [index, value] of random.entries()) {
      expect(Math.abs(codes[index]! - value * toCode)).toBeLessThanOrEqual(0.5);
    }
  });

  it('gives the zero vector scale 0 and refuses values that are not finite', () => {
    expect(codesOf([0, 0, 0]).scale).toBe(0);
    expect(() => codesOf([1, Number.POSITIVE_INFINITY])).toThrow(ToolSearchError);
    expect(() => codesOf([Number.NaN, 1])).toThrow(ToolSearchError);
  });
});

describe('textKey', () => {
  it('gives a text one safe-integer key, and 200,000 near-identical texts 200,000 keys', () => {
    const text = 'get_weather. Weather forecast for a city. city, days';
    expect(textKey(text)).toBe(textKey(`${text}`));
    expect(Number.isSafeInteger(textKey(text)) && textKey(text) >= 0).toBe(true);
    const keys = new Set<number>();
    for (let index = 0; index < 100_000; index++) {
      keys.add(textKey(`${text} ${index}`));
      keys.add(textKey(`tool_${index}. ${text}`));
    }
    expect(keys.size).toBe(200_000);
    for (const other of ['', ' ', 'a', 'b', 'ab', 'ba', '\u0000', '__proto__', 'é', 'e\u0301']) {
      expect(textKey(other)).not.toBe(textKey(`${other}x`));
    }
    expect(new Set(['ab', 'ba', 'a', 'b', ''].map(textKey)).size).toBe(5);
  });
});

describe('VectorCache', () => {
  const row = (value: number) => Int8Array.of(value, -value, value);

  it('keeps vectors by text and forgets the least recently used beyond its capacity', () => {
    const cache = new VectorCache(2);
    cache.put(textKey('a'), row(1), 0, 3, 0.5);
    cache.put(textKey('b'), row(2), 0, 3, 0.25);
    expect(cache.slotOf(textKey('a'))).toBeGreaterThanOrEqual(0); // a is now the most recent
    cache.put(textKey('c'), row(3), 0, 3, 0.125);
    expect(cache.slotOf(textKey('b'))).toBe(-1);
    const target = new Int8Array(6);
    expect(cache.copy(cache.slotOf(textKey('a')), target, 3)).toBe(0.5);
    expect([...target]).toEqual([0, 0, 0, 1, -1, 1]);
    expect(cache.copy(cache.slotOf(textKey('c')), target, 0)).toBe(0.125);
    expect([...target.subarray(0, 3)]).toEqual([3, -3, 3]);
  });

  it('replaces a text put again, keeps nothing at capacity 0, and restarts for new dimensions', () => {
    const cache = new VectorCache(4);
    cache.put(textKey('a'), row(1), 0, 3, 1);
    cache.put(textKey('a'), row(5), 0, 3, 2);
    const target = new Int8Array(3);
    expect(cache.copy(cache.slotOf(textKey('a')), target, 0)).toBe(2);
    expect([...target]).toEqual([5, -5, 5]);
    expect(cache.dimensions).toBe(3);
    cache.put(textKey('wide'), Int8Array.of(1, 2, 3, 4), 0, 4, 1);
    expect(cache.slotOf(textKey('a'))).toBe(-1);
    expect(cache.dimensions).toBe(4);
    const none = new VectorCache(0);
    expect(none.dimensions).toBe(0);
    none.put(textKey('a'), row(1), 0, 3, 1);
    expect(none.slotOf(textKey('a'))).toBe(-1);
  });

  it('holds many more vectors than one block', () => {
    const cache = new VectorCache(5_000);
    for (let index = 0; index < 5_000; index++)
      cache.put(textKey(`t${index}`), row(index % 100), 0, 3, index);
    const target = new Int8Array(3);
    expect(cache.copy(cache.slotOf(textKey('t4321')), target, 0)).toBe(4321);
    expect([...target]).toEqual([21, -21, 21]);
  });
});

/** A catalog matrix of three-dimension tool vectors. */
function matrixOf(vectors: readonly (readonly number[])[]): ToolMatrix {
  const codes = new Int8Array(vectors.length * 3);
  const scales = Float32Array.from(vectors, (vector, tool) => quantiseInto(vector, 3, codes, tool * 3));
  return finishMatrix(codes, scales, 3);
}

describe('semanticCandidates', () => {
  it('finds the tools most similar to any view, with their cosines, in a catalog scanned in full', () => {
    const vectors = [
      [1, 0, 0],
      [0, 1, 0],
      [0.7, 0.7, 0],
      [0, 0, 1],
    ];
    const matrix = matrixOf(vectors);
    expect(matrix.subspace()).toBeUndefined();
    const query = new QueryViews(matrix, [Float32Array.of(1, 0, 0), Float32Array.of(0, 0, 1)]);
    const found = semanticCandidates(query, matrix, 2);
    expect([...found.tools].sort()).toEqual([0, 3]);
    for (const similarity of found.similarities) expect(similarity).toBeCloseTo(1, 2);
    const [nearX, nearZ, between] = query.best([2, 3, 2], 3);
    expect(nearX).toBeCloseTo(Math.SQRT1_2, 2);
    expect(nearZ).toBeCloseTo(1, 2);
    expect(between).toBe(nearX);
    const [same, apart, halfway] = query.between(0, [0, 3, 2], 3);
    expect(same).toBeCloseTo(1, 2);
    expect(apart).toBe(0);
    expect(halfway).toBeCloseTo(Math.SQRT1_2, 2);
  });
});

describe('the prefilter subspace', () => {
  it('gives every tool its coordinates on the axes, in int8 at the fixed scale, past a batch of the kernel', () => {
    // More tools than one batch of the projection (4,096), in an awkward number of dimensions.
    const tools = 9_000;
    const dimensions = 37;
    const uniform = seededRandom(11);
    const random = () => uniform() - 0.5;
    const codes = new Int8Array(tools * dimensions);
    const scales = new Float32Array(tools);
    for (let tool = 0; tool < tools; tool++) {
      const vector = Array.from({ length: dimensions }, random);
      scales[tool] = quantiseInto(vector, dimensions, codes, tool * dimensions);
    }
    const matrix = finishMatrix(codes, scales, dimensions, { minEnergy: 0, oversampling: 4 });
    const subspace = matrix.subspace();
    expect(subspace).toBeDefined();
    const { basis, scanner } = subspace!;
    const axes = basis.length / dimensions;
    for (let axis = 0; axis < axes; axis++) {
      // A view of 1 on one axis reads each tool's code on it.
      const coordinates = new Int32Array(axes);
      coordinates[axis] = 1;
      const read = Int32Array.from(scanner.scan([coordinates]));
      let worst = 0;
      for (let tool = 0; tool < tools; tool++) {
        let sum = 0;
        for (let index = 0; index < dimensions; index++)
          sum += codes[tool * dimensions + index]! * scales[tool]! * basis[axis * dimensions + index]!;
        const expected = Math.max(-127, Math.min(127, Math.round(sum * 127)));
        worst = Math.max(worst, Math.abs(read[tool]! - expected));
      }
      // The axes are rounded to 14 bits before the products: at most one code apart.
      expect(worst).toBeLessThanOrEqual(1);
    }
  });
});

describe('feedbackViews', () => {
  const matrix = matrixOf([
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 2],
  ]);

  it('moves each view towards the mean of the given tools’ unit vectors, at unit length', () => {
    const [whole, part] = feedbackViews(
      matrix,
      [Float32Array.of(0, 0, 1), Float32Array.of(1, 0, 0)],
      [0, 2],
      0.5,
    );
    // (0, 0, 1) + 0.5 × (0.5, 0, 0.5) = (0.25, 0, 1.25); (1, 0, 0) + … = (1.25, 0, 0.25).
    const length = Math.hypot(0.25, 1.25);
    expect([...whole!].map((value) => Number(value.toFixed(2)))).toEqual([
      Number((0.25 / length).toFixed(2)),
      0,
      Number((1.25 / length).toFixed(2)),
    ]);
    expect(Math.hypot(...part!)).toBeCloseTo(1, 5);
    expect(part![0]! / part![2]!).toBeCloseTo(5, 1);
  });

  it('leaves a view without a vector as it is, and every view with share 0', () => {
    const zero = new Float32Array(3);
    const view = Float32Array.of(0, 0.6, 0.8);
    const [same, moved] = feedbackViews(matrix, [zero, view], [0], 0);
    expect(same).toBe(zero);
    expect([...moved!].map((value) => Number(value.toFixed(3)))).toEqual([0, 0.6, 0.8]);
    expect([...feedbackViews(matrix, [zero], [0, 1], 1)[0]!]).toEqual([0, 0, 0]);
  });
});
