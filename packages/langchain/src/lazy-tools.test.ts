import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { lazyTool, type ResolveToolArgs } from '@tool-search/core';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { recordBoundDefinitions } from './__fixtures__/tools';
import { toolSearchMiddleware } from './tool-search-middleware';

type Caller = { user: string };

function crmTool(state: { resolved: ResolveToolArgs<Caller>[]; revoked: Set<string>; ran: unknown[] }) {
  return lazyTool<Caller>({
    name: 'crm_lookup',
    description: 'Look up a customer in the CRM by id.',
    resolve: (args) => {
      state.resolved.push(args);
      const user = args.requestContext?.user ?? 'nobody';
      if (state.revoked.has(user)) throw new Error(`401: ${user}'s token was revoked`);
      return {
        inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        execute: async (input) => {
          state.ran.push({ user, input });
          return `ACME for ${user}`;
        },
      };
    },
  });
}

function lastToolMessage(messages: readonly BaseMessage[], name: string): ToolMessage {
  const found = messages.filter(
    (message): message is ToolMessage => ToolMessage.isInstance(message) && message.name === name,
  );
  return found.at(-1)!;
}

const names = (tools: readonly unknown[]) => tools.map((tool) => (tool as { name: string }).name);

describe('lazily resolved catalog tools (LangChain createAgent)', () => {
  it('are bound with their resolved schema once loaded, and run for the run’s own caller', async () => {
    const state = {
      resolved: [] as ResolveToolArgs<Caller>[],
      revoked: new Set<string>(),
      ran: [] as unknown[],
    };
    const middleware = toolSearchMiddleware<Caller>({ tools: [crmTool(state)] });
    const run = async (user: string) => {
      const model = fakeModel()
        .respondWithTools([{ name: 'search_tools', args: { query: 'customer crm' } }])
        .respondWithTools([{ name: 'load_tool', args: { toolName: 'crm_lookup' } }])
        .respondWithTools([{ name: 'crm_lookup', args: { id: '7' } }])
        .respond(new AIMessage('done'));
      const bound = recordBoundDefinitions(model);
      const agent = createAgent({
        model,
        tools: [],
        middleware: [middleware],
        checkpointer: new MemorySaver(),
      });
      const result = await agent.invoke(
        { messages: [new HumanMessage('customer 7')] },
        { configurable: { thread_id: user }, context: { user } },
      );
      return { bound, result };
    };
    const ann = await run('ann');
    expect(ann.bound.map(names)).toEqual([
      ['search_tools', 'load_tool'],
      ['search_tools', 'load_tool'],
      ['search_tools', 'load_tool', 'crm_lookup'],
      ['search_tools', 'load_tool', 'crm_lookup'],
    ]);
    const crm = ann.bound[2]!.find((tool) => (tool as { name: string }).name === 'crm_lookup') as {
      schema: unknown;
    };
    expect(crm.schema).toMatchObject({ properties: { id: { type: 'string' } } });
    expect(lastToolMessage(ann.result.messages, 'crm_lookup').content).toBe('ACME for ann');
    await run('bob');
    expect(state.ran).toEqual([
      { user: 'ann', input: { id: '7' } },
      { user: 'bob', input: { id: '7' } },
    ]);
    expect(state.resolved.every((args) => args.requestContext?.user === args.threadId)).toBe(true);
  });

  it('tell the model why a tool whose resolve fails was not loaded', async () => {
    const state = {
      resolved: [] as ResolveToolArgs<Caller>[],
      revoked: new Set(['ann']),
      ran: [] as unknown[],
    };
    const model = fakeModel()
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'crm_lookup' } }])
      .respond(new AIMessage('no access'));
    const bound = recordBoundDefinitions(model);
    const agent = createAgent({
      model,
      tools: [],
      middleware: [toolSearchMiddleware<Caller>({ tools: [crmTool(state)] })],
    });
    const result = await agent.invoke(
      { messages: [new HumanMessage('customer 7')] },
      { context: { user: 'ann' } },
    );
    const answer = JSON.parse(String(lastToolMessage(result.messages, 'load_tool').content));
    expect(answer).toMatchObject({ success: false, unavailable: ['crm_lookup'] });
    expect(answer.message).toContain("401: ann's token was revoked");
    expect(bound.map(names)).toEqual([
      ['search_tools', 'load_tool'],
      ['search_tools', 'load_tool'],
    ]);
  });
});
