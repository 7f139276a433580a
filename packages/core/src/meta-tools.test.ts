import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entry, harness } from './__fixtures__/engine-fixtures';
import {
  createMetaToolDefinitions,
  cutDescription,
  isMetaToolName,
  MAX_LOAD_NAMES,
  MAX_QUERY_LENGTH,
  nameSimilarity,
  parseLoadToolInput,
  parseSearchToolsInput,
  suggestToolNames,
  toolSearchInstructions,
} from './meta-tools';
import { sampleTools } from './testing/sample-tools';

describe('meta-tool definitions', () => {
  it('define search_tools and load_tool once, with JSON Schema inputs', () => {
    const [search, load] = createMetaToolDefinitions();
    expect(search).toMatchObject({
      name: 'search_tools',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    });
    expect(load).toMatchObject({
      name: 'load_tool',
      inputSchema: {
        type: 'object',
        properties: { toolName: { type: 'string' }, toolNames: { type: 'array' } },
      },
    });
    expect(search!.description).toMatch(/keywords/);
    expect(search!.description).toMatch(/load_tool/);
    expect(load!.description).toMatch(/exact name/);
    expect(load!.description).toMatch(/next step/);
    expect(toolSearchInstructions()).toMatch(/search_tools.*load_tool/s);
  });

  it('with autoLoad, offer search_tools alone and say it loads', () => {
    const definitions = createMetaToolDefinitions({ autoLoad: true });
    expect(definitions.map((definition) => definition.name)).toEqual(['search_tools']);
    expect(definitions[0]!.description).toMatch(/loaded automatically/);
    expect(toolSearchInstructions({ autoLoad: true })).not.toMatch(/load_tool/);
  });

  it("give each engine schemas of its own: editing one engine's does not edit another's", () => {
    const { engine: first } = harness();
    const { engine: second } = harness();
    const pristine = structuredClone(second.metaTools);
    // What a framework or a user may do to a schema it was handed (strict mode, a $schema key).
    const schema = first.metaTools[0]!.inputSchema as Record<string, unknown>;
    schema.$schema = 'http://json-schema.org/draft-07/schema#';
    (schema.properties as Record<string, Record<string, unknown>>).query!.description = 'edited';
    (first.metaTools[1]!.inputSchema.properties as Record<string, Record<string, unknown>>)
      .toolNames!.maxItems = 2;
    expect(second.metaTools).toEqual(pristine);
    expect(createMetaToolDefinitions()).toEqual(pristine);
    expect(createMetaToolDefinitions({ autoLoad: true })[0]!.inputSchema).toEqual(pristine[0]!.inputSchema);
  });

  it('know their own names', () => {
    expect(isMetaToolName('search_tools')).toBe(true);
    expect(isMetaToolName('load_tool')).toBe(true);
    expect(isMetaToolName('Search_Tools')).toBe(false);
    expect(isMetaToolName(undefined)).toBe(false);
  });
});

describe('parseSearchToolsInput', () => {
  it('accepts { query }, a bare string and a JSON string', () => {
    expect(parseSearchToolsInput({ query: ' weather ' })).toEqual({
      ok: true,
      query: 'weather',
      truncated: false,
    });
    expect(parseSearchToolsInput('weather')).toEqual({ ok: true, query: 'weather', truncated: false });
    expect(parseSearchToolsInput('{"query":"mail"}')).toEqual({ ok: true, query: 'mail', truncated: false });
  });

  it('explains what is wrong with a bad input', () => {
    for (const input of [undefined, null, {}, { q: 'x' }, 42, []]) {
      const parsed = parseSearchToolsInput(input);
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.message).toMatch(/query/);
    }
    expect(parseSearchToolsInput({ query: 7 })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/number/),
    });
    for (const query of ['', '   ', '?!.,;', '\u0000']) {
      expect(parseSearchToolsInput({ query })).toMatchObject({
        ok: false,
        message: expect.stringMatching(/empty/),
      });
    }
  });

  it('cuts a huge query instead of ranking 100 kB', () => {
    const parsed = parseSearchToolsInput({ query: 'weather '.repeat(20_000) });
    expect(parsed).toMatchObject({ ok: true, truncated: true });
    expect(parsed.ok && parsed.query.length).toBe(MAX_QUERY_LENGTH);
  });

  it('cuts a huge query before a surrogate pair, never between its halves', () => {
    const parsed = parseSearchToolsInput({ query: `a${'😀'.repeat(60_000)}` });
    expect(parsed).toMatchObject({ ok: true, truncated: true });
    const query = parsed.ok ? parsed.query : '';
    expect(query.length).toBe(MAX_QUERY_LENGTH - 1);
    expect(/[\uD800-\uDBFF]$/.test(query)).toBe(false);
    expect(query.endsWith('😀')).toBe(true);
  });

  it('does not read inherited properties', () => {
    const input = Object.create({ query: 'inherited' }) as object;
    expect(parseSearchToolsInput(input).ok).toBe(false);
  });
});

describe('parseLoadToolInput', () => {
  it('takes toolName, toolNames or both, trimmed and without duplicates', () => {
    expect(parseLoadToolInput({ toolName: ' a ' })).toEqual({ ok: true, names: ['a'], single: true });
    expect(parseLoadToolInput({ toolNames: ['a', 'b', 'a'] })).toEqual({
      ok: true,
      names: ['a', 'b'],
      single: false,
    });
    expect(parseLoadToolInput({ toolNames: ['a'], toolName: 'c' })).toEqual({
      ok: true,
      names: ['a', 'c'],
      single: false,
    });
    expect(parseLoadToolInput({ toolNames: 'a' })).toEqual({ ok: true, names: ['a'], single: false });
    expect(parseLoadToolInput('a')).toEqual({ ok: true, names: ['a'], single: true });
    expect(parseLoadToolInput('{"toolNames":["x"]}')).toEqual({ ok: true, names: ['x'], single: false });
    expect(parseLoadToolInput({ toolName: null, toolNames: ['x'] })).toEqual({
      ok: true,
      names: ['x'],
      single: false,
    });
  });

  it('answers empty input, wrong types and too many names with a clear message', () => {
    expect(parseLoadToolInput({})).toMatchObject({
      ok: false,
      message: expect.stringMatching(/toolName.*toolNames/),
    });
    // Mastra's text, word for word.
    expect(parseLoadToolInput({ toolNames: [] })).toEqual({
      ok: false,
      message: 'toolNames array must not be empty.',
    });
    expect(parseLoadToolInput({ toolName: '  ' })).toMatchObject({ ok: false });
    expect(parseLoadToolInput({ toolName: 5 })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/"toolName" must be a string/),
    });
    expect(parseLoadToolInput({ toolNames: { a: 1 } })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/array/),
    });
    expect(parseLoadToolInput({ toolNames: ['a', 3] })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/item 1/),
    });
    expect(parseLoadToolInput(42)).toMatchObject({ ok: false });
    const many = Array.from({ length: MAX_LOAD_NAMES + 1 }, (_, index) => `t${index}`);
    expect(parseLoadToolInput({ toolNames: many })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/Too many/),
    });
  });
});

describe('suggestions', () => {
  const names = sampleTools.map((tool) => tool.name);

  it('find close names: typos, other separators, missing words', () => {
    expect(suggestToolNames('get_weather', names)[0]).toBe('getWeather');
    expect(suggestToolNames('getWether', names)[0]).toBe('getWeather');
    expect(suggestToolNames('github_prs', names)[0]).toBe('list_github_prs');
    expect(suggestToolNames('send_mail', names)).toContain('send_email');
    expect(suggestToolNames('completely_unrelated', names)).toEqual([]);
    expect(suggestToolNames('x'.repeat(10_000), names)).toEqual([]);
  });

  it('score similarity in 0..1', () => {
    expect(nameSimilarity('getWeather', 'get_weather')).toBe(1);
    expect(nameSimilarity('abc', 'xyz')).toBe(0);
    expect(nameSimilarity('', 'x')).toBe(0);
  });
});

describe('meta-tool handlers on bad input', () => {
  it('answer an empty, punctuation-only or missing query with a clear message', async () => {
    const request = harness().engine.startRequest();
    for (const input of [{ query: '' }, { query: '  ' }, { query: '?!' }, {}, null, undefined, 17]) {
      const output = await request.searchTools(input);
      expect(output.results).toEqual([]);
      expect(output.message.length).toBeGreaterThan(10);
    }
  });

  it('answer a 100 kB query', async () => {
    const request = harness().engine.startRequest();
    const output = await request.searchTools({ query: `weather ${'x'.repeat(100_000)}` });
    expect(Array.isArray(output.results)).toBe(true);
    expect(output.message.length).toBeLessThan(500);
  });

  it('cut a long description in search results as Mastra does: its first 147 characters and "..."', async () => {
    const exact = 'e'.repeat(150);
    const emoji = `${'x'.repeat(146)}😀${'y'.repeat(10)}`;
    const { engine } = harness({
      catalog: [
        entry('long_tool', { description: 'a'.repeat(400) }),
        entry('exact_tool', { description: exact }),
        entry('emoji_tool', { description: emoji }),
      ],
    });
    const request = engine.startRequest();
    const described = async (query: string) => (await request.searchTools({ query })).results[0]?.description;
    expect(await described('long_tool')).toBe(`${'a'.repeat(147)}...`);
    expect(await described('exact_tool')).toBe(exact);
    // Never between the two halves of a surrogate pair.
    expect(await described('emoji_tool')).toBe(`${'x'.repeat(146)}...`);
    expect(cutDescription('short', 150)).toBe('short');
  });

  it('answer unicode and prototype-named queries', async () => {
    const { engine } = harness({
      catalog: [entry('clima', { description: 'Pronóstico del tiempo — 天气预报' }), entry('__proto__')],
    });
    const request = engine.startRequest();
    for (const query of [
      'pronóstico',
      '天气',
      '🧵🧵',
      '__proto__',
      'constructor',
      'toString hasOwnProperty',
    ]) {
      const output = await request.searchTools({ query });
      expect(Array.isArray(output.results)).toBe(true);
      for (const result of output.results) expect(result.score).toBeGreaterThanOrEqual(0);
    }
  });

  it('answer bad load input without loading anything', async () => {
    const { engine } = harness();
    const request = engine.startRequest({ threadId: 't' });
    for (const input of [
      {},
      { toolNames: [] },
      { toolName: 1 },
      { toolNames: [null] },
      'not json {',
      [],
      { toolName: 'x'.repeat(100_000) },
      { toolName: '__proto__' },
    ]) {
      const output = await request.loadTool(input);
      expect(output.success).toBe(false);
      expect(output.message.length).toBeLessThan(400);
    }
    expect(await engine.getLoadedToolNames('t')).toEqual([]);
  });

  it('never throw and never corrupt state, whatever the model sends (property)', async () => {
    const { engine } = harness();
    const catalogNames = new Set(sampleTools.map((tool) => tool.name));
    const nameLike = fc.oneof(
      fc.constantFrom(...catalogNames, '__proto__', 'constructor', 'search_tools', 'load_tool', ''),
      fc.string(),
    );
    const input = fc.oneof(
      fc.anything(),
      fc.record({ query: fc.oneof(fc.string(), fc.anything()) }),
      fc.record({ toolName: nameLike }, { requiredKeys: [] }),
      fc.record(
        { toolNames: fc.array(nameLike, { maxLength: 25 }), toolName: nameLike },
        { requiredKeys: [] },
      ),
      fc.record({ toolNames: fc.anything() }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('search', 'load', 'step'), input), { maxLength: 8 }),
        async (calls) => {
          const request = engine.startRequest({ threadId: 'p' });
          for (const [kind, value] of calls) {
            if (kind === 'search') {
              const output = await request.searchTools(value);
              expect(Array.isArray(output.results)).toBe(true);
              expect(typeof output.message).toBe('string');
              for (const result of output.results) expect(catalogNames.has(result.name)).toBe(true);
            } else if (kind === 'load') {
              const output = await request.loadTool(value);
              expect(typeof output.success).toBe('boolean');
              expect(typeof output.message).toBe('string');
            } else {
              const plan = await request.prepareStep();
              expect(new Set(plan.visible).size).toBe(plan.visible.length);
              expect(plan.visible.slice(0, 2)).toEqual(['search_tools', 'load_tool']);
            }
          }
          const loaded = await engine.getLoadedToolNames('p');
          expect(new Set(loaded).size).toBe(loaded.length);
          for (const name of loaded) expect(catalogNames.has(name)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });
});
