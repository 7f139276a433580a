import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_PARTS, requestParts, splitClauses } from './split-clauses';

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

describe('requestParts', () => {
  it('gives no parts for a request of one part, and each part of a longer one', () => {
    expect(requestParts('send an email to my team')).toEqual([]);
    expect(requestParts('book a flight to Lisbon and check the weather there')).toEqual([
      'book a flight to Lisbon',
      'check the weather there',
    ]);
  });

  it(`groups neighbouring parts into at most ${MAX_REQUEST_PARTS}`, () => {
    const request = Array.from({ length: 9 }, (_, index) => `find the report number ${index}`).join('. ');
    const parts = requestParts(request);
    expect(parts).toHaveLength(5);
    expect(parts[0]).toBe('find the report number 0 find the report number 1');
    expect(parts.join(' ')).toBe(splitClauses(request).join(' '));
  });

  it('gives the same parts again for the same request, whatever the caller did with the last answer', () => {
    const request = 'book a flight to Lisbon and check the weather there';
    const first = requestParts(request);
    first.push('cancel everything');
    first[0] = 'something else';
    expect(requestParts(request)).toEqual(['book a flight to Lisbon', 'check the weather there']);
    expect(requestParts('rent a car in Porto and find a hotel near the station')).toEqual([
      'rent a car in Porto',
      'find a hotel near the station',
    ]);
    expect(requestParts(request)).toEqual(['book a flight to Lisbon', 'check the weather there']);
  });
});
