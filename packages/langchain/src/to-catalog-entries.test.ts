import { tool } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toCatalogEntries, toCatalogEntry } from './to-catalog-entries';

describe('toCatalogEntries', () => {
  const weather = tool(async ({ city }) => city, {
    name: 'get_weather',
    description: 'Weather for a city',
    schema: z.object({ city: z.string().describe('The city') }),
  });

  it('describes a zod tool with a JSON Schema, and keeps the tool itself', () => {
    const [entry] = toCatalogEntries([weather]);
    expect(entry!.descriptor).toMatchObject({
      name: 'get_weather',
      description: 'Weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string', description: 'The city' } } },
    });
    expect(entry!.tool).toBe(weather);
  });

  it('returns the same entry for the same tool object', () => {
    expect(toCatalogEntry(weather)).toBe(toCatalogEntry(weather));
    expect(toCatalogEntries({ get_weather: weather })[0]).toBe(toCatalogEntry(weather));
  });

  it('rejects what is not a tool, and a record key that differs from the tool name', () => {
    expect(() => toCatalogEntries([{ name: 'x' } as never])).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    expect(() => toCatalogEntries({ weather })).toThrow(
      expect.objectContaining({ code: 'TOOL_ID_MISMATCH' }),
    );
    expect(() => toCatalogEntries('tools' as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    expect(toCatalogEntries(undefined)).toEqual([]);
  });
});
