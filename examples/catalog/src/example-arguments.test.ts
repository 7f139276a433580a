import { describe, expect, it } from 'vitest';
import { parseDemoArguments, parseExampleArguments } from './example-arguments';

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

describe('parseDemoArguments', () => {
  const noKeys = {};
  it('reads the framework (or an alias), the flags and the requests, in any order', () => {
    expect(parseDemoArguments([], noKeys)).toEqual({
      framework: 'ai-sdk',
      hybrid: false,
      real: false,
      requests: [],
    });
    expect(parseDemoArguments(['--', '-f', 'LangChain', 'book a table', '--hybrid'], noKeys)).toEqual({
      framework: 'langchain',
      hybrid: true,
      real: false,
      requests: ['book a table'],
    });
    expect(parseDemoArguments(['--framework=vercel'], noKeys)).toMatchObject({ framework: 'ai-sdk' });
    expect(parseDemoArguments(['--real', 'weather'], { ANTHROPIC_API_KEY: 'key' })).toMatchObject({
      real: true,
    });
    expect(parseDemoArguments(['weather', '--help'], noKeys)).toEqual({ help: true });
  });

  it('refuses what cannot run as asked, with a message', () => {
    expect(parseDemoArguments(['--bogus'], noKeys)).toEqual({
      error: 'Unknown option --bogus.',
      usage: true,
    });
    for (const argv of [['--framework'], ['--framework', '--hybrid', 'weather']]) {
      expect(parseDemoArguments(argv, noKeys)).toEqual({
        error: expect.stringMatching(/^--framework needs a value/),
      });
    }
    expect(parseDemoArguments(['--framework=', 'x'], noKeys)).toEqual({
      error: expect.stringContaining('Unknown framework ""'),
    });
    expect(parseDemoArguments(['-f', 'crewai'], noKeys)).toEqual({
      error: expect.stringContaining('Unknown framework "crewai"'),
    });
    // An empty request ran the five demo requests; --real with no key ran the offline planner.
    for (const request of ['', ' \t']) {
      expect(parseDemoArguments(['weather', request], noKeys)).toEqual({
        error: expect.stringContaining('empty'),
      });
    }
    expect(parseDemoArguments(['--real'], { OPENAI_API_KEY: '' })).toEqual({
      error: expect.stringContaining('--real needs OPENAI_API_KEY or ANTHROPIC_API_KEY'),
    });
  });

  it('reads --native with a provider: the AI SDK agent, default and native side by side', () => {
    expect(parseDemoArguments(['--', '--native', 'anthropic'], noKeys)).toEqual({
      framework: 'ai-sdk',
      hybrid: false,
      real: false,
      native: 'anthropic',
      requests: [],
    });
    expect(parseDemoArguments(['--native=OpenAI', '--hybrid', 'weather'], noKeys)).toEqual({
      framework: 'ai-sdk',
      hybrid: true,
      real: false,
      native: 'openai',
      requests: ['weather'],
    });
    expect(parseDemoArguments(['-f', 'ai-sdk', '--native', 'openai'], noKeys)).toMatchObject({
      native: 'openai',
    });
  });

  it('refuses --native without a known provider, with --real, or with another framework', () => {
    for (const argv of [['--native'], ['--native', '--hybrid']]) {
      expect(parseDemoArguments(argv, noKeys)).toEqual({
        error: '--native needs a provider: anthropic, openai.',
      });
    }
    expect(parseDemoArguments(['--native', 'gemini'], noKeys)).toEqual({
      error: expect.stringContaining('Unknown provider "gemini" for --native'),
    });
    expect(parseDemoArguments(['--native', 'openai', '--real'], { OPENAI_API_KEY: 'key' })).toEqual({
      error: expect.stringContaining('cannot be combined with --real'),
    });
    expect(parseDemoArguments(['--native', 'openai', '-f', 'langchain'], noKeys)).toEqual({
      error: expect.stringContaining('--native runs the AI SDK agent'),
    });
  });
});
