import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildToolArguments } from './build-tool-arguments';
import { exampleTools, exampleToolsByName, toJsonSchema } from './catalog';

const build = (name: string, text: string, request?: string) =>
  buildToolArguments(toJsonSchema(exampleToolsByName.get(name)!), { text, request, toolName: name });

/** Request texts: free text, unicode, the tools' own descriptions and sentences full of values. */
const requestText = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 120 }),
  fc.constantFrom(...exampleTools.map((tool) => tool.description)),
  fc
    .array(
      fc.constantFrom(
        'book',
        'a table for two',
        'in Rome',
        'from Lisbon to Tokyo',
        'tomorrow at 8pm',
        'this weekend',
        'on 2025-02-29',
        'on June 31',
        'for 3 nights',
        'convert 250 USD to EUR',
        '$25',
        'ana@acme.io',
        'PR #42',
        'in the payments repo',
        '#general',
        '"quoted title"',
        'ch_3MmlLrLkdIwHu7ix',
        'PAY-142',
        '14C',
        'TP1234',
        'AAPL',
        '-90.5, 200.1',
        '999999999999 people',
        '0 minutes',
        'about failed refunds',
        '__proto__',
        'constructor',
        '😀',
      ),
      { maxLength: 8 },
    )
    .map((words) => words.join(' ')),
);

describe('buildToolArguments', () => {
  it('fills every tool from its own description with arguments its zod schema accepts', () => {
    for (const tool of exampleTools) {
      const args = buildToolArguments(toJsonSchema(tool), { text: tool.description, toolName: tool.name });
      const parsed = tool.input.safeParse(args);
      expect(parsed.success, `${tool.name}: ${JSON.stringify(args)}`).toBe(true);
    }
  });

  it('property: for any request text, every tool gets valid arguments and its executor returns a result', () => {
    fc.assert(
      fc.property(requestText, requestText, (text, request) => {
        for (const tool of exampleTools) {
          const args = buildToolArguments(toJsonSchema(tool), { text, request, toolName: tool.name });
          const parsed = tool.input.safeParse(args);
          if (!parsed.success)
            throw new Error(`${tool.name} ${JSON.stringify(text)}: ${JSON.stringify(args)}`);
          expect(tool.execute(parsed.data)).toBeDefined();
        }
      }),
      { numRuns: 25, seed: 7 },
    );
  });

  it('is deterministic', () => {
    for (const tool of exampleTools.slice(0, 40)) {
      const text = `${tool.description} tomorrow at 9am in Paris`;
      expect(buildToolArguments(toJsonSchema(tool), { text })).toEqual(
        buildToolArguments(toJsonSchema(tool), { text }),
      );
    }
  });

  it('reads places, dates, times and head counts', () => {
    expect(build('book_restaurant_table', 'book a table for two in Rome tomorrow at 8pm')).toEqual({
      city: 'Rome',
      date: '2025-06-17',
      time: '20:00',
      partySize: 2,
    });
    expect(build('get_weather_forecast', "what's the weather in Lisbon this weekend")).toEqual({
      city: 'Lisbon',
      startDate: '2025-06-21',
      days: 2,
    });
    expect(
      build('search_flights', 'flights from Lisbon to Tokyo on June 20 for 2 passengers in business class'),
    ).toEqual({
      origin: 'Lisbon',
      destination: 'Tokyo',
      departureDate: '2025-06-20',
      passengers: 2,
      cabin: 'business',
    });
    expect(build('search_hotels', 'a hotel in Paris from July 3 for 3 nights')).toEqual({
      city: 'Paris',
      checkIn: '2025-07-03',
      checkOut: '2025-07-06',
    });
  });

  it('reads repositories, topics, numbers, money and currencies', () => {
    expect(build('create_github_issue', 'open an issue in the payments repo about failed refunds')).toEqual({
      repo: 'payments',
      title: 'Failed refunds',
    });
    expect(build('merge_github_pr', 'merge PR #42 in acme/web-app')).toEqual({
      owner: 'acme',
      repo: 'web-app',
      pullNumber: 42,
    });
    expect(build('convert_currency', 'convert 250 USD to EUR')).toEqual({
      amount: 250,
      from: 'USD',
      to: 'EUR',
    });
    expect(build('create_stripe_refund', 'refund ch_3MmlLrLkdIwHu7ix for $25')).toEqual({
      chargeId: 'ch_3MmlLrLkdIwHu7ix',
      amount: 2500,
    });
    expect(build('send_slack_message', 'post "deploy is done" to #engineering')).toEqual({
      channel: '#engineering',
      text: 'deploy is done',
    });
  });

  it('takes what a part lacks from the whole request', () => {
    expect(
      build(
        'get_current_weather',
        'check the weather there',
        'book a table in Rome and check the weather there',
      ),
    ).toMatchObject({
      city: 'Rome',
    });
  });

  it('leaves optional fields out unless the text names them', () => {
    expect(build('list_github_prs', 'list pull requests in the mobile repo')).toEqual({ repo: 'mobile' });
    expect(build('list_github_prs', 'list closed pull requests in the mobile repo')).toEqual({
      repo: 'mobile',
      state: 'closed',
    });
  });

  it("fills a field that is required only in the framework's schema with its default, not a guess", () => {
    // LangChain converts zod's output side: a field with a default is listed as required.
    const schema = (name: string) => {
      const own = toJsonSchema(exampleToolsByName.get(name)!);
      return { ...own, required: Object.keys(own.properties as object) };
    };
    expect(
      buildToolArguments(schema('create_github_issue'), {
        text: 'open an issue in the payments repo about failed refunds',
        toolName: 'create_github_issue',
      }),
    ).toMatchObject({ owner: 'acme', repo: 'payments' });
    expect(
      buildToolArguments(schema('book_restaurant_table'), { text: 'book a table for two in Rome' }),
    ).toMatchObject({ name: 'Guest', city: 'Rome' });
    // A value the text names still wins over the default.
    expect(
      buildToolArguments(schema('create_github_issue'), { text: 'open an issue in globex/payments' }),
    ).toMatchObject({ owner: 'globex', repo: 'payments' });
  });

  it('resolves relative dates against the given today, not the clock', () => {
    const schema = toJsonSchema(exampleToolsByName.get('get_weather_forecast')!);
    expect(
      buildToolArguments(schema, { text: 'weather in Rome tomorrow', today: '2024-02-28' }),
    ).toMatchObject({
      startDate: '2024-02-29',
    });
  });

  it('handles schemas it was not written for: unions, nested objects, odd names, no schema', () => {
    const schema = {
      type: 'object',
      properties: {
        ['__proto__']: { type: 'string' },
        constructor: { type: 'integer', minimum: 10, maximum: 20 },
        choice: { anyOf: [{ type: 'null' }, { type: 'boolean' }] },
        nested: {
          type: 'object',
          properties: { when: { type: 'string', format: 'date' } },
          required: ['when'],
        },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 2 },
        code: { type: 'string', pattern: '^[0-9]{4}$' },
      },
      required: ['__proto__', 'constructor', 'choice', 'nested', 'tags', 'code'],
    };
    const args = buildToolArguments(schema, { text: 'something' });
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.hasOwn(args, '__proto__')).toBe(true);
    expect(args.constructor).toBeGreaterThanOrEqual(10);
    expect(args.choice).toBe(false);
    expect(args.nested).toEqual({ when: '2025-06-16' });
    expect(args.tags).toHaveLength(2);
    expect(args.code).toMatch(/^x+$|^[0-9]{4}$/);
    expect(buildToolArguments(undefined, { text: 'x' })).toEqual({});
  });

  it('reads a 100 kB request without choking', () => {
    const text = `${'lorem ipsum '.repeat(9000)} in Rome`;
    const tool = exampleToolsByName.get('create_github_issue')!;
    const args = buildToolArguments(toJsonSchema(tool), { text, toolName: tool.name });
    expect(tool.input.safeParse(args).success).toBe(true);
  });
});
