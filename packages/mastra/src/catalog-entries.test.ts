import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inputJsonSchema, toCatalogEntries, toCatalogEntry } from './catalog-entries';

describe('toCatalogEntries', () => {
  it('names each tool by its key, with a different id as an alias, and its input as JSON Schema', () => {
    const weather = createTool({
      id: 'get-weather',
      description: 'Get the weather for a city.',
      inputSchema: z.object({ city: z.string().describe('City name') }),
      execute: async () => ({}),
    });
    const [entry] = toCatalogEntries({ getWeather: weather });
    expect(entry!.descriptor.name).toBe('getWeather');
    expect(entry!.descriptor.description).toBe('Get the weather for a city.');
    expect(entry!.aliases).toEqual(['get-weather']);
    expect(entry!.tool).toBe(weather);
    expect(entry!.descriptor.parameters).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' } },
      required: ['city'],
    });
  });

  it('reads JSON Schema inputs, AI SDK schemas (jsonSchema) and tolerates tools without any', () => {
    const json = { type: 'object', properties: { subject: { type: 'string' } } };
    expect(inputJsonSchema({ inputSchema: json })).toBe(json);
    expect(inputJsonSchema({ parameters: { jsonSchema: json, validate: () => ({}) } })).toBe(json);
    expect(inputJsonSchema({ description: 'no schema' })).toBeUndefined();
    expect(inputJsonSchema(null)).toBeUndefined();
    expect(inputJsonSchema({ inputSchema: { '~standard': { validate: () => ({}) } } })).toBeUndefined();
  });

  it('converts a schema only when it is read, and gives the same entry for the same tool and key', () => {
    let reads = 0;
    const tool = {
      id: 'lazy',
      description: 'Lazy.',
      get inputSchema() {
        reads++;
        return { type: 'object', properties: {} };
      },
    };
    const entry = toCatalogEntry('lazy', tool);
    expect(reads).toBe(0);
    expect(entry.descriptor.parameters).toEqual({ type: 'object', properties: {} });
    expect(entry.descriptor.parameters).toEqual({ type: 'object', properties: {} });
    expect(reads).toBe(1);
    expect(toCatalogEntry('lazy', tool)).toBe(entry);
    expect(toCatalogEntry('other', tool)).not.toBe(entry);
    expect(entry.aliases).toBeUndefined();
  });

  it('keeps odd keys as names and leaves the engine to judge them', () => {
    const tools = Object.fromEntries([
      ['__proto__', { description: 'proto' }],
      ['constructor', { description: 'ctor' }],
      ['', { description: 'empty' }],
    ]);
    expect(toCatalogEntries(tools).map((entry) => entry.descriptor.name)).toEqual([
      '__proto__',
      'constructor',
      '',
    ]);
    expect(toCatalogEntries(undefined)).toEqual([]);
  });
});
