import { MAX_QUERY_LENGTH } from '@tool-search/core';
import { manySampleTools, repeatedInput } from '@tool-search/core/testing';
import { generateText, isStepCount, jsonSchema, type Tool, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { scriptedModel, toolResultsIn } from './__fixtures__/scripted-model';
import { createToolSearch } from './create-tool-search';

/** 2,100 real AI SDK tools: a catalog large enough that an unknown name's suggestions come from a search. */
function largeCatalog(): Record<string, Tool> {
  const tools: Record<string, Tool> = {};
  for (const descriptor of manySampleTools(2_100)) {
    tools[descriptor.name] = tool({
      description: descriptor.description ?? '',
      inputSchema: jsonSchema({ type: 'object', properties: {} }),
      execute: async () => ({ ok: true }),
    });
  }
  return tools;
}

describe('worst-case input through generateText', () => {
  it('answers search_tools at its cap and load_tool with a 9,000-character name at once', async () => {
    // Text in a tool result can talk a model into these calls; each used to block the event
    // loop for seconds (search) to minutes (load).
    const query = repeatedInput(' ', MAX_QUERY_LENGTH);
    const name = repeatedInput(' ', 9_000);
    const toolSearch = createToolSearch({ tools: largeCatalog() });
    const { model, seen } = scriptedModel([
      {
        toolCalls: [
          { toolName: 'search_tools', input: { query } },
          { toolName: 'load_tool', input: { toolName: name } },
          { toolName: 'load_tool', input: { toolNames: [name, repeatedInput(', and ', 9_000)] } },
        ],
      },
      { text: 'Nothing fits.' },
    ]);
    const start = performance.now();
    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'worst-case' }),
      stopWhen: isStepCount(3),
      prompt: 'Find a tool.',
    });
    // A hang guard, not a speed figure (those are in `pnpm bench`): generous for a loaded machine.
    expect(performance.now() - start).toBeLessThan(5_000);
    expect(result.text).toBe('Nothing fits.');
    const results = toolResultsIn(seen[1]!.prompt);
    expect(results.map((entry) => entry.toolName)).toEqual(['search_tools', 'load_tool', 'load_tool']);
    expect(results[1]!.value).toMatchObject({ success: false, message: expect.stringMatching(/not found/) });
    expect(results[2]!.value).toMatchObject({ success: false, loadedCount: 0 });
  });
});
