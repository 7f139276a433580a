import { describe, expect, it } from 'vitest';
import { runComparison } from '../examples/vs-builtin-tool-search';

describe("side by side with the AI SDK's built-in toolSearch()", () => {
  it('theirs forgets what it found when a generateText call ends; ours keeps it for the thread', async () => {
    const { builtin, ours } = await runComparison();

    // Turn 1: both search, then have the forecast tool from the next step.
    expect(builtin[0]!.toolsPerStep).toEqual([
      ['search'],
      ['search', 'getForecast'],
      ['search', 'getForecast'],
    ]);
    expect(ours[0]!.toolsPerStep).toEqual([
      ['search_tools'],
      ['search_tools', 'getForecast'],
      ['search_tools', 'getForecast'],
    ]);

    // Turn 2, a new generateText call with the whole history: the built-in search starts over.
    expect(builtin[1]!.toolsPerStep[0]).toEqual(['search']);
    expect(builtin[1]!.steps).toBe(3);
    // Ours starts with the forecast tool and calls it at once.
    expect(ours[1]!.toolsPerStep[0]).toEqual(['search_tools', 'getForecast']);
    expect(ours[1]!.steps).toBe(2);
    expect(ours[1]!.definitionsSent).toBeLessThan(builtin[1]!.definitionsSent);
  });
});
