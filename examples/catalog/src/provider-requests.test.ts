import { describe, expect, it } from 'vitest';
import { exampleToolsByName, toJsonSchema } from './catalog';
import type { PlannerAction } from './planner';
import { providerRequestFigures } from './provider-figures';
import { planProviderCall, readProviderRequest } from './provider-requests';
import { countToolDefinitionTokens } from './tokens';

// Bodies in the documented wire shapes (Anthropic Messages: tools with defer_loading, tool_use /
// tool_result blocks, tool_reference blocks, mid-conversation system messages with
// tool_addition; OpenAI Responses: function tools with defer_loading, function_call /
// function_call_output, client tool_search with tool_search_call / tool_search_output,
// additional_tools). The AI SDK example's native comparison test reads the bodies the real
// provider packages send.
const request = "what's the weather forecast in Lisbon this weekend";
const forecast = exampleToolsByName.get('get_weather_forecast')!;
const booking = exampleToolsByName.get('book_restaurant_table')!;
const searchSchema = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] };
const found = JSON.stringify({
  results: [
    { name: forecast.name, description: forecast.description, score: 0.9 },
    { name: booking.name, description: booking.description, score: 0.1 },
  ],
});

const anthropicTools = [
  { name: 'search_tools', description: 'Find tools.', input_schema: searchSchema },
  {
    name: forecast.name,
    description: forecast.description,
    input_schema: toJsonSchema(forecast),
    defer_loading: true,
  },
  {
    name: booking.name,
    description: booking.description,
    input_schema: toJsonSchema(booking),
    defer_loading: true,
  },
];
const openAITool = (tool: typeof forecast, deferred: boolean) => ({
  type: 'function',
  name: tool.name,
  description: tool.description,
  parameters: toJsonSchema(tool),
  strict: false,
  ...(deferred ? { defer_loading: true } : {}),
});

const calledTools = (action: PlannerAction) =>
  action.type === 'tool-calls' ? action.calls.map((call) => call.toolName) : action.type;

describe('readProviderRequest: Anthropic Messages', () => {
  const searched = {
    model: 'claude-haiku-4-5',
    tools: anthropicTools,
    messages: [
      { role: 'user', content: [{ type: 'text', text: request }] },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'call-1', name: 'search_tools', input: { query: request } }],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'call-1',
            content: [
              { type: 'text', text: found },
              { type: 'tool_reference', tool_name: forecast.name },
            ],
          },
        ],
      },
    ],
  };

  it('holds the undeferred tools and the deferred ones a tool result referred, not the others', () => {
    const read = readProviderRequest('anthropic', searched);
    expect(read.tools.map((tool) => [tool.name, tool.deferred])).toEqual([
      ['search_tools', false],
      [forecast.name, true],
      [booking.name, true],
    ]);
    expect(read.inContext.map((tool) => tool.name)).toEqual(['search_tools', forecast.name]);
    expect(read.events.map((event) => event.type)).toEqual(['user', 'tool-call', 'tool-result']);
    expect(read.searchToolName).toBe('search_tools');
  });

  it('lets the planner call a referred tool in the same turn, with no load_tool', () => {
    expect(calledTools(planProviderCall(readProviderRequest('anthropic', searched)))).toEqual([
      forecast.name,
    ]);
    // Before the search: search first.
    const first = { ...searched, messages: searched.messages.slice(0, 1) };
    expect(calledTools(planProviderCall(readProviderRequest('anthropic', first)))).toEqual(['search_tools']);
  });

  it('reads a tool added by reference in a mid-conversation system message, and a result of references only', () => {
    const later = {
      ...searched,
      messages: [
        {
          role: 'system',
          content: [{ type: 'tool_addition', tool: { type: 'tool_reference', name: booking.name } }],
        },
        ...searched.messages.slice(0, 2),
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'call-1',
              content: [{ type: 'tool_reference', tool_name: forecast.name }],
            },
          ],
        },
      ],
    };
    const read = readProviderRequest('anthropic', later);
    expect(read.inContext.map((tool) => tool.name)).toEqual(['search_tools', booking.name, forecast.name]);
    expect(read.events[2]).toMatchObject({
      type: 'tool-result',
      output: { results: [{ name: forecast.name }] },
    });
  });
});

describe('readProviderRequest: OpenAI Responses', () => {
  it('holds the tools of additional_tools items, and the planner calls them', () => {
    const body = {
      model: 'gpt-5-mini',
      tools: [
        { type: 'function', name: 'search_tools', description: 'Find tools.', parameters: searchSchema },
        openAITool(forecast, true),
        openAITool(booking, true),
      ],
      input: [
        { role: 'developer', content: 'You are helpful.' },
        { role: 'user', content: [{ type: 'input_text', text: request }] },
        {
          type: 'function_call',
          call_id: 'call-1',
          name: 'search_tools',
          arguments: JSON.stringify({ query: request }),
        },
        { type: 'function_call_output', call_id: 'call-1', output: found },
        { type: 'additional_tools', role: 'developer', tools: [openAITool(forecast, false)] },
      ],
    };
    const read = readProviderRequest('openai', body);
    expect(read.inContext.map((tool) => tool.name)).toEqual(['search_tools', forecast.name]);
    expect(calledTools(planProviderCall(read))).toEqual([forecast.name]);
  });

  it("drives OpenAI's client-executed tool search: a tool_search_call, then its tool_search_output's tools", () => {
    const tools = [
      { type: 'tool_search', execution: 'client', description: 'Find tools.', parameters: searchSchema },
      openAITool(forecast, true),
    ];
    const first = readProviderRequest('openai', { tools, input: [{ role: 'user', content: request }] });
    expect(first.searchToolName).toBe('tool_search');
    expect(first.inContext.map((tool) => tool.name)).toEqual(['tool_search']);
    const action = planProviderCall(first);
    expect(action).toMatchObject({
      type: 'tool-calls',
      calls: [{ toolName: 'tool_search', input: { query: request } }],
    });

    const second = readProviderRequest('openai', {
      tools,
      input: [
        { role: 'user', content: request },
        { type: 'tool_search_call', call_id: 'call-1', execution: 'client', arguments: { query: request } },
        {
          type: 'tool_search_output',
          call_id: 'call-1',
          execution: 'client',
          tools: [openAITool(forecast, true)],
        },
      ],
    });
    expect(second.inContext.map((tool) => tool.name)).toEqual(['tool_search', forecast.name]);
    expect(calledTools(planProviderCall(second))).toEqual([forecast.name]);

    // The same call sent as a reference to the item the server answered with (`store` on).
    const served = new Map([
      [
        'ts_1',
        {
          type: 'tool_search_call',
          id: 'ts_1',
          call_id: 'call-1',
          execution: 'client',
          arguments: { query: request },
        },
      ],
    ]);
    const referenced = readProviderRequest(
      'openai',
      {
        tools,
        input: [
          { role: 'user', content: request },
          { type: 'item_reference', id: 'ts_1' },
          {
            type: 'tool_search_output',
            call_id: 'call-1',
            execution: 'client',
            tools: [openAITool(forecast, true)],
          },
        ],
      },
      { servedItems: served },
    );
    expect(referenced.events).toEqual(second.events);
    expect(calledTools(planProviderCall(referenced))).toEqual([forecast.name]);
  });
});

describe('providerRequestFigures', () => {
  it('counts the tokens of the definitions in context per call, and the calls whose tools array changed', () => {
    const first = { tools: anthropicTools, messages: [{ role: 'user', content: request }] };
    const same = { ...first, messages: [...first.messages, { role: 'assistant', content: 'thinking' }] };
    const changed = { ...first, tools: anthropicTools.slice(0, 2) };
    const figures = providerRequestFigures('anthropic', [first, same, changed, changed]);
    expect(figures.calls.map((call) => call.toolListChanged)).toEqual([false, false, true, false]);
    expect(figures.toolListChanges).toBe(1);
    expect(figures.modelCalls).toBe(4);
    const searchOnly = countToolDefinitionTokens([
      { name: 'search_tools', description: 'Find tools.', parameters: searchSchema },
    ]);
    expect(figures.calls[0]).toEqual({
      inContext: ['search_tools'],
      toolDefinitionTokens: searchOnly,
      toolsSent: 3,
      toolListChanged: false,
    });
    expect(figures.toolDefinitionTokens).toBe(4 * searchOnly);
  });
});
