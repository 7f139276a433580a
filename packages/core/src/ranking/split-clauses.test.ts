import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clauseBoundaries, isSpace, MAX_REQUEST_PARTS, requestParts, splitClauses } from './split-clauses';

/**
 * The expression the splitter used before its scanner, kept as the reference the scanner must
 * agree with (on short texts: on a long run of spaces it backtracks in cubic time).
 */
const REFERENCE_BOUNDARY = new RegExp(
  // eslint-disable-next-line regexp/no-super-linear-backtracking, regexp/no-super-linear-move -- the old expression, kept as the reference
  /(?:[.!?;:](?=\s|$)|[。！？；\n])+|\s*,?\s+(?:and then|and also|and|then|also|as well as|plus|after that|afterwards|additionally|furthermore|moreover|besides)\s+|[，、]/
    .source,
  'giu',
);
const referenceBoundaries = (text: string) =>
  [...text.matchAll(REFERENCE_BOUNDARY)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));

/** Text made of the characters and words that the boundaries are made of. */
const ordinaryText = fc
  .array(
    fc.constantFrom(
      ' ',
      '  ',
      '\t',
      '\n',
      '\u00a0',
      '\u3000',
      ',',
      ', ',
      ' , ',
      '.',
      '. ',
      '3.5',
      '!',
      '?',
      ';',
      ':',
      '。',
      '！',
      '，',
      '、',
      'and',
      'AND',
      'And',
      'and then',
      'and also',
      'then',
      'also',
      'as well as',
      'plus',
      'after that',
      'afterwards',
      'additionally',
      'furthermore',
      'moreover',
      'besides',
      'alſo',
      'thenceforth',
      'band',
      'weather',
      'email',
      'Rome',
      'math.factorial',
      'v1.2',
      '中文',
      '😀',
    ),
    { maxLength: 24 },
  )
  .map((pieces) => pieces.join(''));

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

describe('clauseBoundaries', () => {
  it('finds the boundaries the old expression found, on ordinary and on random text', () => {
    fc.assert(
      fc.property(ordinaryText, (text) => {
        expect(clauseBoundaries(text)).toEqual(referenceBoundaries(text));
      }),
      { numRuns: 3_000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 40, unit: 'grapheme' }), (text) => {
        expect(clauseBoundaries(text)).toEqual(referenceBoundaries(text));
      }),
      { numRuns: 1_000 },
    );
  });

  it('sees white space as \\s does', () => {
    for (let code = 0; code <= 0xffff; code++) {
      if (isSpace(code) !== /\s/u.test(String.fromCharCode(code))) expect.fail(`U+${code.toString(16)}`);
    }
  });

  it('scans a run of spaces once, however long', () => {
    const text = `a${' '.repeat(100_000)}and then b`;
    expect(clauseBoundaries(text)).toEqual([{ start: 1, end: 100_010 }]);
    expect(splitClauses(`find the weather in Rome${' '.repeat(50_000)}and send an email to Ann`)).toEqual([
      'find the weather in Rome',
      'send an email to Ann',
    ]);
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
