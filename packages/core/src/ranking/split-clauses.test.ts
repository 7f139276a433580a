import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitClauses } from './split-clauses';

describe('splitClauses', () => {
  it('splits a request at sentences and at joining words', () => {
    expect(splitClauses('find flights to Rome and convert 200 euros to dollars')).toEqual([
      'find flights to Rome',
      'convert 200 euros to dollars',
    ]);
    expect(splitClauses('Check the weather in Paris. Then book a table for two!')).toEqual([
      'Check the weather in Paris',
      'book a table for two',
    ]);
    expect(splitClauses('get the stock price of AAPL; also send the report to my boss')).toEqual([
      'get the stock price of AAPL',
      'send the report to my boss',
    ]);
  });

  it('keeps lists and short pieces with the part they belong to', () => {
    expect(splitClauses("Tell me Messi's clubs, managers, teammates, and referees.")).toEqual([
      "Tell me Messi's clubs, managers, teammates, and referees",
    ]);
    expect(splitClauses('salt and pepper')).toEqual(['salt and pepper']);
  });

  it('does not split inside numbers, dotted names or version strings', () => {
    expect(splitClauses('call math.factorial on 3.5 with v1.2')).toEqual([
      'call math.factorial on 3.5 with v1.2',
    ]);
  });

  it('splits CJK sentences', () => {
    expect(splitClauses('查询北京的天气预报。然后预订去上海的机票。')).toHaveLength(2);
  });

  it('gives nothing for empty or blank text and one part for a simple request', () => {
    expect(splitClauses('')).toEqual([]);
    expect(splitClauses('  \n ')).toEqual([]);
    expect(splitClauses('weather')).toEqual(['weather']);
    expect(splitClauses('...').length).toBeLessThanOrEqual(1);
  });

  it('never throws and returns non-empty pieces of the text, in order', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        let from = 0;
        for (const part of splitClauses(text)) {
          expect(part.length).toBeGreaterThan(0);
          expect(part).toBe(part.trim());
          const at = text.indexOf(part, from);
          expect(at).toBeGreaterThanOrEqual(from);
          from = at + part.length;
        }
      }),
      { numRuns: 300 },
    );
  });
});
