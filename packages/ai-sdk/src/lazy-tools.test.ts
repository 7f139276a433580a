import { lazyTool, type ResolveToolArgs, type ToolSearchEvent } from '@tool-search/core';
import { generateText, isStepCount } from 'ai';
import { describe, expect, it } from 'vitest';
import { createCatalog } from './__fixtures__/catalog';
import { scriptedModel, toolResultsIn } from './__fixtures__/scripted-model';
import { createToolSearch } from './create-tool-search';

const META = ['search_tools', 'load_tool'];
type Caller = { user: string };

/** A lazily resolved tool, as @tool-search/mcp makes them: its schema only from resolve, per caller. */
function crmTool(state: { resolved: ResolveToolArgs<Caller>[]; revoked: Set<string>; ran: unknown[] }) {
  return lazyTool<Caller>({
    name: 'crm_lookup',
    description: 'Look up a customer in the CRM by id.',
    tags: ['crm'],
    resolve: (args) => {
      state.resolved.push(args);
      const user = args.requestContext?.user ?? 'nobody';
      if (state.revoked.has(user)) throw new Error(`401: ${user}'s token was revoked`);
      return {
        inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        execute: async (input) => {
          state.ran.push({ user, input });
          return { user, customer: 'ACME' };
        },
      };
    },
  });
}

describe('lazily resolved request tools (AI SDK)', () => {
  it('are searched without their schema, sent with it once loaded, and run for the call’s own caller', async () => {
    const state = {
      resolved: [] as ResolveToolArgs<Caller>[],
      revoked: new Set<string>(),
      ran: [] as unknown[],
    };
    const crm = crmTool(state);
    const toolSearch = createToolSearch({ tools: createCatalog().tools });
    const run = async (user: string) => {
      const { model, toolsPerStep, seen } = scriptedModel([
        { toolCalls: [{ toolName: 'search_tools', input: { query: 'customer crm' } }] },
        { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'crm_lookup' } }] },
        { toolCalls: [{ toolName: 'crm_lookup', input: { id: '7' } }] },
        { text: 'ok' },
      ]);
      const result = await generateText({
        model,
        ...toolSearch.forCall({
          threadId: user,
          requestContext: { user },
          requestTools: { crm_lookup: crm },
        }),
        stopWhen: isStepCount(6),
        prompt: 'customer 7',
      });
      return { result, steps: toolsPerStep(), seen };
    };
    const ann = await run('ann');
    expect(state.resolved).toHaveLength(1); // on load, not on search
    expect(ann.steps).toEqual([META, META, [...META, 'crm_lookup'], [...META, 'crm_lookup']]);
    const sent = ann.seen[2]!.definitions.find((definition) => definition.name === 'crm_lookup') as {
      inputSchema: unknown;
    };
    expect(sent.inputSchema).toMatchObject({ properties: { id: { type: 'string' } }, required: ['id'] });
    const output = ann.result.steps
      .flatMap((step) => step.toolResults)
      .find((part) => part.toolName === 'crm_lookup');
    expect(output?.output).toEqual({ user: 'ann', customer: 'ACME' });

    const bob = await run('bob');
    expect(state.resolved.map((args) => args.requestContext?.user)).toEqual(['ann', 'bob']);
    expect(state.ran).toEqual([
      { user: 'ann', input: { id: '7' } },
      { user: 'bob', input: { id: '7' } },
    ]);
    expect(bob.steps[2]).toEqual([...META, 'crm_lookup']);
  });

  it('tell the model why a tool whose resolve fails was not loaded, and withhold a loaded one once it fails', async () => {
    const state = {
      resolved: [] as ResolveToolArgs<Caller>[],
      revoked: new Set<string>(),
      ran: [] as unknown[],
    };
    const crm = crmTool(state);
    const events: ToolSearchEvent[] = [];
    const toolSearch = createToolSearch({
      tools: createCatalog().tools,
      onEvent: (event) => events.push(event),
    });
    const first = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'crm_lookup' } }] },
      { text: 'loaded' },
    ]);
    await generateText({
      model: first.model,
      ...toolSearch.forCall({
        threadId: 'ann',
        requestContext: { user: 'ann' },
        requestTools: { crm_lookup: crm },
      }),
      stopWhen: isStepCount(4),
      prompt: 'load it',
    });
    expect(first.toolsPerStep()[1]).toEqual([...META, 'crm_lookup']);

    state.revoked.add('ann');
    const second = scriptedModel([
      { toolCalls: [{ toolName: 'crm_lookup', input: { id: '7' } }] },
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'crm_lookup' } }] },
      { text: 'no access' },
    ]);
    await generateText({
      model: second.model,
      ...toolSearch.forCall({
        threadId: 'ann',
        requestContext: { user: 'ann' },
        requestTools: { crm_lookup: crm },
      }),
      stopWhen: isStepCount(4),
      prompt: 'customer 7',
    });
    expect(second.toolsPerStep()).toEqual([META, META, META]);
    expect(state.ran).toEqual([]);
    const loadAnswer = toolResultsIn(second.seen[2]!.prompt).at(-1)!.value as {
      success: boolean;
      message: string;
    };
    expect(loadAnswer.success).toBe(false);
    expect(loadAnswer.message).toContain("401: ann's token was revoked");
    // Resolved once per request: the step's failure is the one load_tool reports.
    expect(events.filter((event) => event.type === 'resolve-error').map((event) => event.phase)).toEqual([
      'active',
    ]);
    expect(state.resolved.map((args) => args.requestContext?.user)).toEqual(['ann', 'ann']);
  });
});
