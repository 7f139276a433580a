import { describe, expect, it } from 'vitest';
import { domains, exampleToolsByName, toToolDescriptor } from './catalog';
import type { PlannerEvent, PlannerTool } from './planner';
import { planNextStep } from './planner';
import { demoRequests } from './requests';

const searchTool: PlannerTool = { name: 'search_tools' };
const loadTool: PlannerTool = { name: 'load_tool' };

/** Search results that put every expected tool among look-alikes from its domain, never first. */
function lookAlikeResults(expected: readonly string[]) {
  const names: string[] = [];
  for (const name of expected) {
    const tool = exampleToolsByName.get(name)!;
    const siblings = domains
      .find((domain) => domain.id === tool.domain)!
      .tools.filter((other) => other.name !== name);
    names.push(siblings[0]!.name, name, siblings[1]!.name);
  }
  return {
    results: names.map((name, rank) => ({
      name,
      description: exampleToolsByName.get(name)!.description,
      score: 1 - rank / 20,
    })),
  };
}

describe('demoRequests', () => {
  it('name tools of the catalog, with unique ids', () => {
    expect(demoRequests.length).toBeGreaterThanOrEqual(4);
    expect(new Set(demoRequests.map((request) => request.id)).size).toBe(demoRequests.length);
    for (const request of demoRequests)
      for (const name of request.expectedTools) expect(exampleToolsByName.has(name), name).toBe(true);
    expect(demoRequests.some((request) => request.expectedTools.length > 1)).toBe(true);
  });

  it.each(demoRequests)(
    '$id: the planner picks $expectedTools among look-alikes and calls each with valid arguments',
    (request) => {
      const events: PlannerEvent[] = [
        { type: 'user', text: request.text },
        { type: 'tool-call', toolCallId: 's', toolName: 'search_tools', input: { query: request.text } },
        {
          type: 'tool-result',
          toolCallId: 's',
          toolName: 'search_tools',
          output: lookAlikeResults(request.expectedTools),
        },
      ];
      const load = planNextStep({ events, tools: [searchTool, loadTool] });
      expect(load.type === 'tool-calls' && load.calls[0]!.input).toEqual(
        request.expectedTools.length === 1
          ? { toolName: request.expectedTools[0] }
          : { toolNames: request.expectedTools },
      );
      const offered = [
        searchTool,
        loadTool,
        ...request.expectedTools.map((name) => toToolDescriptor(exampleToolsByName.get(name)!)),
      ];
      events.push(
        { type: 'tool-call', toolCallId: 'l', toolName: 'load_tool', input: {} },
        {
          type: 'tool-result',
          toolCallId: 'l',
          toolName: 'load_tool',
          output: { success: true, loaded: request.expectedTools },
        },
      );
      const call = planNextStep({ events, tools: offered });
      if (call.type !== 'tool-calls') throw new Error(call.text);
      expect(call.calls.map((planned) => planned.toolName)).toEqual(request.expectedTools);
      for (const planned of call.calls) {
        const tool = exampleToolsByName.get(planned.toolName)!;
        expect(tool.input.safeParse(planned.input).success, JSON.stringify(planned.input)).toBe(true);
      }
    },
  );
});
