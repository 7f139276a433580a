import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { buildToolArguments } from './build-tool-arguments';
import {
  domains,
  exampleTools,
  exampleToolsByName,
  runExampleTool,
  toJsonSchema,
  toToolDescriptor,
} from './catalog';

/** Arguments built from the tool's own description: a request that names what the tool does. */
const argumentsFor = (name: string) => {
  const tool = exampleToolsByName.get(name)!;
  return tool.input.parse(
    buildToolArguments(toJsonSchema(tool), { text: tool.description, toolName: tool.name }),
  );
};

describe('the example catalog', () => {
  it('has at least 200 tools in at least 12 domains, a dozen or more each', () => {
    expect(exampleTools.length).toBeGreaterThanOrEqual(200);
    expect(domains.length).toBeGreaterThanOrEqual(12);
    for (const domain of domains) expect(domain.tools.length, domain.id).toBeGreaterThanOrEqual(8);
  });

  it('names every tool once, in snake_case, and indexes it by name', () => {
    const names = exampleTools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/);
    expect(exampleToolsByName.size).toBe(names.length);
    for (const tool of exampleTools) expect(exampleToolsByName.get(tool.name)).toBe(tool);
  });

  it('tags each tool with its domain first and lists it under that domain', () => {
    const ids = new Set(domains.map((domain) => domain.id));
    expect(ids.size).toBe(domains.length);
    for (const domain of domains) {
      for (const tool of domain.tools) {
        expect(tool.domain).toBe(domain.id);
        expect(tool.tags[0]).toBe(domain.id);
      }
    }
    expect(domains.flatMap((domain) => domain.tools)).toEqual(exampleTools);
  });

  it('describes each tool in one or two sentences', () => {
    for (const tool of exampleTools) {
      expect(tool.description.length, tool.name).toBeGreaterThan(20);
      expect(tool.description.length, tool.name).toBeLessThan(220);
      expect(tool.description, tool.name).toMatch(/[.)]$/);
      const sentences = tool.description.split(/(?<=[.!?])\s+(?=[A-Z])/).length;
      expect(sentences, tool.name).toBeLessThanOrEqual(2);
    }
  });

  it('has look-alike tools in a domain, as real MCP servers do', () => {
    for (const name of ['list_github_prs', 'get_github_pr', 'merge_github_pr', 'create_github_pr']) {
      expect(exampleToolsByName.has(name), name).toBe(true);
    }
    for (const domain of domains) {
      // Tools whose names share a word other than a common verb (plurals folded).
      const verbs = new Set([
        'get',
        'list',
        'search',
        'create',
        'update',
        'delete',
        'send',
        'add',
        'run',
        'find',
      ]);
      const words = domain.tools.map(
        (tool) =>
          new Set(
            tool.name
              .split('_')
              .filter((word) => !verbs.has(word))
              .map((word) => word.replace(/s$/, '')),
          ),
      );
      const lookAlikes = domain.tools.filter((_, index) =>
        words.some((other, at) => at !== index && [...words[index]!].some((word) => other.has(word))),
      );
      expect(lookAlikes.length, domain.id).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('toJsonSchema and toToolDescriptor', () => {
  it('converts every input schema to a closed JSON Schema object whose fields are all described', () => {
    for (const tool of exampleTools) {
      const schema = toJsonSchema(tool);
      expect(schema.type, tool.name).toBe('object');
      expect(schema.additionalProperties, tool.name).toBe(false);
      const properties = schema.properties as Record<string, { description?: string }>;
      expect(Object.keys(properties)).toEqual(Object.keys(tool.input.shape));
      for (const [field, property] of Object.entries(properties)) {
        expect(property.description, `${tool.name}.${field}`).toEqual(expect.any(String));
      }
      expect(() => JSON.parse(JSON.stringify(schema))).not.toThrow();
    }
  });

  it('sends defaulted fields as optional (the input side) and caches the conversion', () => {
    const schema = toJsonSchema(exampleToolsByName.get('list_github_prs')!);
    expect(schema.required).toEqual(['repo']);
    expect(toJsonSchema(exampleToolsByName.get('list_github_prs')!)).toBe(schema);
  });

  it('gives the descriptor shape the core indexes', () => {
    const tool = exampleToolsByName.get('get_weather_forecast')!;
    expect(toToolDescriptor(tool)).toEqual({
      name: 'get_weather_forecast',
      description: tool.description,
      parameters: toJsonSchema(tool),
      tags: ['weather', 'forecast'],
    });
  });
});

describe('the executors', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('return the same plain JSON result for the same input, whatever the clock and Math.random say', () => {
    const firstRun = new Map<string, unknown>();
    vi.useFakeTimers({ now: new Date('2001-02-03T04:05:06Z') });
    vi.spyOn(Math, 'random').mockReturnValue(0.123);
    for (const tool of exampleTools) firstRun.set(tool.name, tool.execute(argumentsFor(tool.name)));
    vi.setSystemTime(new Date('2039-12-31T23:59:59Z'));
    vi.spyOn(Math, 'random').mockReturnValue(0.987);
    for (const tool of exampleTools) {
      const result = tool.execute(argumentsFor(tool.name));
      expect(result, tool.name).toEqual(firstRun.get(tool.name));
      expect(JSON.parse(JSON.stringify(result)), tool.name).toEqual(result);
      expect(result, tool.name).toEqual(expect.any(Object));
    }
  });

  it('vary their results with the input', () => {
    const search = exampleToolsByName.get('search_hotels')!;
    const lisbon = runExampleTool(search, { city: 'Lisbon', checkIn: '2025-07-01', checkOut: '2025-07-03' });
    const rome = runExampleTool(search, { city: 'Rome', checkIn: '2025-07-01', checkOut: '2025-07-03' });
    expect(lisbon).not.toEqual(rome);
    expect(lisbon).toMatchObject({ city: 'Lisbon', nights: 2 });
  });

  it('compute what can be computed', () => {
    expect(
      runExampleTool(exampleToolsByName.get('convert_currency')!, { amount: 100, from: 'EUR', to: 'EUR' }),
    ).toMatchObject({
      rate: 1,
      converted: 100,
    });
    const loan = runExampleTool(exampleToolsByName.get('calculate_loan_payment')!, {
      principal: 120_000,
      annualRatePercent: 0,
      years: 10,
    });
    expect(loan).toMatchObject({ monthlyPayment: 1000, totalInterest: 0 });
    const forecast = runExampleTool(exampleToolsByName.get('get_weather_forecast')!, {
      city: 'Lisbon',
      startDate: '2025-06-21',
      days: 2,
    }) as {
      days: Array<{ date: string; weekday: string }>;
    };
    expect(forecast.days.map((day) => [day.date, day.weekday])).toEqual([
      ['2025-06-21', 'Saturday'],
      ['2025-06-22', 'Sunday'],
    ]);
  });

  it('runExampleTool validates first and throws the ZodError on bad arguments', () => {
    const tool = exampleToolsByName.get('book_restaurant_table')!;
    expect(() => runExampleTool(tool, { city: 'Rome' })).toThrow(z.ZodError);
    expect(() => runExampleTool(tool, null)).toThrow(z.ZodError);
    expect(() =>
      runExampleTool(tool, { city: 'Rome', date: '2025-02-30', time: '20:00', partySize: 2 }),
    ).toThrow(z.ZodError);
    expect(
      runExampleTool(tool, { city: 'Rome', date: '2025-06-17', time: '20:00', partySize: 2 }),
    ).toMatchObject({
      city: 'Rome',
      date: '2025-06-17',
      time: '20:00',
      partySize: 2,
      status: 'confirmed',
    });
  });
});
