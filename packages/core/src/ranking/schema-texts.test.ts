import { describe, expect, it } from 'vitest';
import { schemaTexts } from './schema-texts';

describe('schemaTexts', () => {
  it('reads names, titles, descriptions and enums, nested and combined', () => {
    const schema = {
      type: 'object',
      description: 'Options',
      properties: {
        city: { type: 'string', description: 'City name' },
        units: { enum: ['celsius', 'fahrenheit', 3] },
        stops: {
          type: 'array',
          items: { type: 'object', properties: { airport: { title: 'Airport code' } } },
        },
        extra: { anyOf: [{ description: 'A date' }, { description: 'A time' }] },
        labels: { type: 'object', additionalProperties: { description: 'Label value' } },
      },
    };
    expect(schemaTexts(schema)).toEqual([
      'Options',
      'city',
      'City name',
      'units',
      'celsius',
      'fahrenheit',
      'stops',
      'airport',
      'Airport code',
      'extra',
      'A date',
      'A time',
      'labels',
      'Label value',
    ]);
  });

  it('gives nothing for a schema that is not an object', () => {
    for (const schema of [undefined, null, 'x', 42, true, []]) expect(schemaTexts(schema)).toEqual([]);
  });

  it('stops on cycles, depth and size', () => {
    const cyclic: Record<string, unknown> = { description: 'loop' };
    cyclic.items = cyclic;
    expect(schemaTexts(cyclic).length).toBeLessThanOrEqual(10);
    let deep: Record<string, unknown> = { description: 'bottom' };
    for (let level = 0; level < 50; level++) deep = { properties: { [`p${level}`]: deep } };
    expect(schemaTexts(deep)).not.toContain('bottom');
    const wide = {
      properties: Object.fromEntries(Array.from({ length: 2000 }, (_, index) => [`p${index}`, {}])),
    };
    expect(schemaTexts(wide)).toHaveLength(500);
  });

  it('reads a property called __proto__ as a property', () => {
    const schema = JSON.parse('{"properties":{"__proto__":{"description":"odd"}}}');
    expect(schemaTexts(schema)).toEqual(['__proto__', 'odd']);
  });
});
