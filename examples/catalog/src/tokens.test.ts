import { encode } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { exampleTools, exampleToolsByName, toToolDescriptor } from './catalog';
import {
  countExampleCatalogTokens,
  countTextTokens,
  countToolDefinitionTokens,
  countToolTokens,
  toOpenAIFunctionTool,
} from './tokens';

describe('token counts', () => {
  it('serialise a tool in OpenAI function-tool format', () => {
    const descriptor = toToolDescriptor(exampleToolsByName.get('get_timezone')!);
    expect(toOpenAIFunctionTool(descriptor)).toEqual({
      type: 'function',
      function: {
        name: 'get_timezone',
        description: descriptor.description,
        parameters: descriptor.parameters,
      },
    });
    expect(toOpenAIFunctionTool({ name: 'search_tools', inputSchema: { type: 'object' } }).function).toEqual({
      name: 'search_tools',
      parameters: { type: 'object' },
    });
    expect(toOpenAIFunctionTool({ name: 'bare' }).function.parameters).toEqual({
      type: 'object',
      properties: {},
    });
  });

  it('count the encoded JSON of each definition with the real tokenizer', () => {
    const descriptor = toToolDescriptor(exampleToolsByName.get('book_restaurant_table')!);
    expect(countToolTokens(descriptor)).toBe(encode(JSON.stringify(toOpenAIFunctionTool(descriptor))).length);
    expect(countTextTokens('hello world')).toBe(2);
  });

  it('add up over a set of definitions', () => {
    const definitions = ['get_timezone', 'send_email', 'search_flights'].map((name) =>
      toToolDescriptor(exampleToolsByName.get(name)!),
    );
    expect(countToolDefinitionTokens(definitions)).toBe(
      definitions.reduce((sum, definition) => sum + countToolTokens(definition), 0),
    );
    expect(countToolDefinitionTokens([])).toBe(0);
  });

  it('make the whole catalog cost far more than a few tools', () => {
    const catalog = countExampleCatalogTokens();
    expect(catalog).toBe(countToolDefinitionTokens(exampleTools.map(toToolDescriptor)));
    const few = countToolDefinitionTokens(
      ['get_timezone', 'book_restaurant_table'].map((name) =>
        toToolDescriptor(exampleToolsByName.get(name)!),
      ),
    );
    expect(catalog).toBeGreaterThan(few * 50);
  });
});
