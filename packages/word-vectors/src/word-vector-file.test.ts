import { ToolSearchError } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { decodeWordVectors, encodeWordVectors, type WordVectorTable } from './word-vector-file';

const table: WordVectorTable = {
  dimensions: 3,
  words: ['alpha', 'beta', 'café'],
  ranks: Uint32Array.from([1, 5, 9]),
  scales: Float32Array.from([0.5, 0.25, 1]),
  codes: Int8Array.from([1, -2, 3, 127, -127, 0, 4, 5, 6]),
  common: Float32Array.from([0, 0.6, 0.8]),
  vocabularySize: 400_000,
};

describe('word vector file', () => {
  it('round-trips a table, also from a misaligned buffer', () => {
    const bytes = encodeWordVectors(table);
    expect(decodeWordVectors(bytes)).toEqual(table);
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(decodeWordVectors(shifted.subarray(1))).toEqual(table);
  });

  it('rejects data that is short, truncated or of another format with a typed error', () => {
    const bytes = encodeWordVectors(table);
    const wrongMagic = bytes.slice();
    wrongMagic[0] = 0;
    const wrongVersion = bytes.slice();
    wrongVersion[4] = 9;
    for (const input of [new Uint8Array(4), bytes.subarray(0, bytes.length - 1), wrongMagic, wrongVersion]) {
      expect(() => decodeWordVectors(input)).toThrow(ToolSearchError);
    }
  });
});
