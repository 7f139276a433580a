import { describe, expect, it } from 'vitest';
import { parseExampleArguments } from './example-arguments';

describe('parseExampleArguments', () => {
  it('reads requests and the two flags, in any order', () => {
    expect(parseExampleArguments(['--', '--hybrid', 'book a table', '--offline', 'weather in Rome'])).toEqual(
      {
        requests: ['book a table', 'weather in Rome'],
        offline: true,
        hybrid: true,
      },
    );
    expect(parseExampleArguments([])).toEqual({ requests: [], offline: false, hybrid: false });
  });

  it('refuses an unknown option and an empty request instead of running them as requests', () => {
    expect(parseExampleArguments(['-f', 'langchain', 'weather'])).toEqual({
      error: expect.stringContaining('Unknown option "-f"'),
    });
    expect(parseExampleArguments(['--framework', 'langchain'])).toEqual({
      error: expect.stringContaining('--offline and --hybrid'),
    });
    expect(parseExampleArguments(['  '])).toEqual({ error: expect.stringContaining('empty') });
  });
});
