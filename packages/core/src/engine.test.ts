import { describe, expect, it } from 'vitest';
import { createFakeClock } from './clock';
import { createToolSearchEngine } from './engine';
import { sampleCatalog } from './testing/sample-tools';
import type { ToolSearchEvent } from './types';

describe('createToolSearchEngine: search → load → call', () => {
  it('shows meta-tools, then always-on, then loaded tools from the next step', async () => {
    const events: ToolSearchEvent[] = [];
    const engine = createToolSearchEngine({
      catalog: sampleCatalog(),
      clock: createFakeClock(),
      onEvent: (e) => events.push(e),
    });
    const request = engine.startRequest({ threadId: 't1', alwaysOn: ['clock'] });

    const first = await request.prepareStep();
    expect(first.visible).toEqual(['search_tools', 'load_tool', 'clock']);
    expect(first.degraded).toBe(false);

    const found = await request.searchTools({ query: 'weather forecast' });
    expect(found.results.map((result) => result.name)).toContain('getForecast');

    expect((await request.guard('getForecast')).allowed).toBe(false);
    const loaded = await request.loadTool({ toolName: 'getForecast' });
    expect(loaded).toMatchObject({ success: true, toolName: 'getForecast', loaded: ['getForecast'] });

    const second = await request.prepareStep();
    expect(second.visible).toEqual(['search_tools', 'load_tool', 'clock', 'getForecast']);
    expect(second.loaded.map((entry) => entry.tool)).toEqual([{ name: 'getForecast' }]);
    expect(await request.guard('getForecast')).toEqual({ allowed: true });
    expect(request.resolve('getForecast')?.descriptor.name).toBe('getForecast');

    const step = events.filter((event) => event.type === 'step').at(-1);
    expect(step).toMatchObject({ visibleCount: 4, catalogCount: 13 });
    engine.dispose();
  });
});
