import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel, toolResultsIn } from './__fixtures__/scripted-model';
import { createToolSearch } from './create-tool-search';
import { toCatalogEntry } from './to-catalog-entry';

describe('toCatalogEntry: a description given as a function (AI SDK 7)', () => {
  const translate = tool({
    description: () => 'Translate a sentence from one human language into another.',
    inputSchema: z.object({ text: z.string() }),
    execute: async () => ({ translated: true }),
  });

  it('is searched by the text it returns', async () => {
    const toolSearch = createToolSearch({ tools: { lingo: translate } });
    const { model, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'sentence human language' } }] },
      { text: 'ok' },
    ]);
    await generateText({ model, ...toolSearch.forCall(), stopWhen: isStepCount(3), prompt: 'x' });
    const found = toolResultsIn(seen[1]!.prompt).at(-1)!.value as {
      results: Array<{ name: string; description: string }>;
    };
    expect(found.results).toEqual([
      expect.objectContaining({
        name: 'lingo',
        description: 'Translate a sentence from one human language into another.',
      }),
    ]);
  });

  it('that needs the call’s context (throws without it) or answers no string leaves the tool searchable by name', async () => {
    const perTenant = tool({
      contextSchema: z.object({ tenant: z.string() }),
      description: ({ context }) => `Refund an order of ${context.tenant}.`,
      inputSchema: z.object({ orderId: z.string() }),
      execute: async () => ({ refunded: true }),
    });
    const odd = tool({
      description: (() => 42) as unknown as () => string,
      inputSchema: z.object({}),
      execute: async () => ({}),
    });
    expect(toCatalogEntry('refund_order', perTenant).descriptor.description).toBeUndefined();
    expect(toCatalogEntry('odd', odd).descriptor.description).toBeUndefined();

    const toolSearch = createToolSearch({ tools: { refund_order: perTenant, odd } });
    const { model, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'refund order' } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...toolSearch.forCall(),
      toolsContext: { refund_order: { tenant: 'acme' } },
      stopWhen: isStepCount(3),
      prompt: 'x',
    });
    const found = toolResultsIn(seen[1]!.prompt).at(-1)!.value as { results: Array<{ name: string }> };
    expect(found.results.map((result) => result.name)).toEqual(['refund_order']);
  });
});
