import { RequestContext } from '@mastra/core/request-context';
import { lazyTool, type ResolveToolArgs } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { call, createAgent, run, say } from './__fixtures__/harness';
import { ToolSearchProcessor } from './tool-search-processor';

function context(threadId: string, user: string): RequestContext {
  const requestContext = new RequestContext();
  requestContext.set('mastra__threadId', threadId);
  requestContext.set('user', user);
  return requestContext;
}

const userOf = (args: ResolveToolArgs<RequestContext>) => String(args.requestContext?.get('user'));

function crmTool(state: { resolved: string[]; revoked: Set<string>; ran: unknown[] }) {
  return lazyTool<RequestContext>({
    name: 'crm_lookup',
    description: 'Look up a customer in the CRM by id.',
    resolve: (args) => {
      const user = userOf(args);
      state.resolved.push(user);
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

describe('lazily resolved catalog tools (Mastra Agent)', () => {
  for (const mode of ['generate', 'stream'] as const) {
    it(`are resolved on load for the run's request context and run as it resolved them (${mode})`, async () => {
      const state = { resolved: [] as string[], revoked: new Set<string>(), ran: [] as unknown[] };
      const processor = new ToolSearchProcessor({ tools: { crm_lookup: crmTool(state) } });
      const runFor = async (user: string) => {
        const { agent, steps } = createAgent({
          processors: [processor],
          script: [
            call('search_tools', { query: 'customer crm' }),
            call('load_tool', { toolName: 'crm_lookup' }),
            call('crm_lookup', { id: '7' }),
            say('done'),
          ],
        });
        const result = await run(agent, mode, 'customer 7', { requestContext: context(user, user) });
        return { steps, result };
      };
      const ann = await runFor('ann');
      expect(ann.steps[2]).toEqual(['search_tools', 'load_tool', 'crm_lookup']);
      expect(ann.result.toolRuns.find((item) => item.toolName === 'crm_lookup')?.result).toEqual({
        user: 'ann',
        customer: 'ACME',
      });
      await runFor('bob');
      expect(state.ran).toEqual([
        { user: 'ann', input: { id: '7' } },
        { user: 'bob', input: { id: '7' } },
      ]);
      expect(new Set(state.resolved)).toEqual(new Set(['ann', 'bob']));
    });
  }

  it('withholds a loaded tool once its resolve fails for the next run, and says why load_tool failed', async () => {
    const state = { resolved: [] as string[], revoked: new Set<string>(), ran: [] as unknown[] };
    const processor = new ToolSearchProcessor({ tools: { crm_lookup: crmTool(state) } });
    const first = createAgent({
      processors: [processor],
      script: [call('load_tool', { toolName: 'crm_lookup' }), say()],
    });
    await run(first.agent, 'generate', 'load it', { requestContext: context('t', 'ann') });
    expect(first.steps[1]).toContain('crm_lookup');

    state.revoked.add('ann');
    const second = createAgent({
      processors: [processor],
      script: [call('load_tool', { toolName: 'crm_lookup' }), say('no access')],
    });
    const result = await run(second.agent, 'generate', 'customer 7', { requestContext: context('t', 'ann') });
    expect(second.steps).toEqual([
      ['search_tools', 'load_tool'],
      ['search_tools', 'load_tool'],
    ]);
    const answer = result.toolRuns.find((item) => item.toolName === 'load_tool')?.result as {
      success: boolean;
      message: string;
    };
    expect(answer.success).toBe(false);
    expect(answer.message).toContain("401: ann's token was revoked");
    expect(state.ran).toEqual([]);
  });
});
