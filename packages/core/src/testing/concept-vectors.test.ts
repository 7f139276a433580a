import { describe, expect, it } from 'vitest';
import { conceptVectors } from './concept-vectors';

describe('conceptVectors', () => {
  it('adds 1 per listed word on its axis, 0.01 on an extra axis, and ignores other words', () => {
    const vectorOf = conceptVectors({ weather: 0, umbrella: 0, money: 1 });
    expect(vectorOf('Weather, weather and an UMBRELLA')).toEqual([3, 0, 0.01]);
    expect(vectorOf('money')).toEqual([0, 1, 0.01]);
    expect(vectorOf('')).toEqual([0, 0, 0.01]);
    expect(vectorOf('__proto__ constructor toString')).toEqual([0, 0, 0.01]);
    expect(conceptVectors({})('anything')).toEqual([0.01]);
  });
});
