import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exampleTools, exampleToolsByName, toJsonSchema, toToolDescriptor } from './catalog';
import type { PlannerAction, PlannerEvent, PlannerTool } from './planner';
import { planNextStep, summariseResult, unwrapToolOutput } from './planner';

const searchTool: PlannerTool = {
  name: 'search_tools',
  description: 'Find tools.',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};
const loadTool: PlannerTool = {
  name: 'load_tool',
  description: 'Load tools.',
  parameters: {
    type: 'object',
    properties: { toolName: { type: 'string' }, toolNames: { type: 'array', items: { type: 'string' } } },
  },
};
const descriptor = (name: string): PlannerTool => toToolDescriptor(exampleToolsByName.get(name)!);
const found = (...names: string[]) => ({
  results: names.map((name, rank) => ({
    name,
    description: exampleToolsByName.get(name)?.description ?? '',
    score: 1 - rank / 10,
  })),
  message: `Found ${names.length} tools.`,
});

function callsOf(action: PlannerAction) {
  if (action.type !== 'tool-calls')
    throw new Error(`expected tool calls, got: ${action.type === 'text' ? action.text : ''}`);
  return action.calls;
}

/** Appends the planned calls and the results `answer` gives for them. */
function record(
  events: PlannerEvent[],
  action: PlannerAction,
  answer: (name: string, input: Record<string, unknown>) => unknown,
) {
  for (const call of callsOf(action)) {
    events.push({ type: 'tool-call', ...call });
    events.push({
      type: 'tool-result',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: answer(call.toolName, call.input),
    });
  }
}

const runTool = (name: string, input: Record<string, unknown>) => {
  const tool = exampleToolsByName.get(name)!;
  return tool.execute(tool.input.parse(input));
};

describe('planNextStep', () => {
  it('searches with the request, loads the best result, calls it with arguments from its schema, then answers', () => {
    const request = 'open an issue in the payments repo about failed refunds';
    const events: PlannerEvent[] = [{ type: 'user', text: request }];
    const tools: PlannerTool[] = [searchTool, loadTool];

    const first = planNextStep({ events, tools });
    expect(callsOf(first)).toEqual([
      { toolCallId: 'planner-call-1', toolName: 'search_tools', input: { query: request } },
    ]);
    // The ranker put a look-alike first; the planner reads the results as a model would.
    record(events, first, () =>
      found('create_stripe_refund', 'get_github_repo', 'list_stripe_refunds', 'create_github_issue'),
    );

    const second = planNextStep({ events, tools });
    expect(callsOf(second)).toEqual([
      { toolCallId: 'planner-call-2', toolName: 'load_tool', input: { toolName: 'create_github_issue' } },
    ]);
    record(events, second, () => ({ success: true, message: 'Loaded.', loaded: ['create_github_issue'] }));

    const offered = [...tools, descriptor('create_github_issue')];
    const third = planNextStep({ events, tools: offered });
    expect(callsOf(third)).toEqual([
      {
        toolCallId: 'planner-call-3',
        toolName: 'create_github_issue',
        input: { repo: 'payments', title: 'Failed refunds' },
      },
    ]);
    record(events, third, runTool);

    const fourth = planNextStep({ events, tools: offered });
    expect(fourth.type).toBe('text');
    expect(fourth.type === 'text' && fourth.text).toMatch(
      /^\[offline planner\] create_github_issue → number \d+; url https:\/\/github.com\/acme\/payments\/issues\/\d+; title Failed refunds/,
    );
  });

  it('takes the top result when nothing in the results shares a word with the request', () => {
    const events: PlannerEvent[] = [
      { type: 'user', text: 'qqq zzz' },
      { type: 'tool-call', toolCallId: 'a', toolName: 'search_tools', input: { query: 'qqq zzz' } },
      {
        type: 'tool-result',
        toolCallId: 'a',
        toolName: 'search_tools',
        output: found('get_timezone', 'get_elevation'),
      },
    ];
    expect(callsOf(planNextStep({ events, tools: [searchTool, loadTool] }))[0]!.input).toEqual({
      toolName: 'get_timezone',
    });
  });

  it('loads and calls one tool per part of a multi-part request, each with its own part', () => {
    const request = 'search hotels in Paris from July 3 for 3 nights and convert 500 EUR to USD';
    const events: PlannerEvent[] = [{ type: 'user', text: request }];
    const tools: PlannerTool[] = [searchTool, loadTool];
    record(events, planNextStep({ events, tools }), () =>
      found(
        'convert_currency',
        'search_hotels',
        'get_hotel_details',
        'get_exchange_rate',
        'check_hotel_availability',
      ),
    );
    const load = planNextStep({ events, tools });
    expect(callsOf(load)[0]!.input).toEqual({ toolNames: ['search_hotels', 'convert_currency'] });
    record(events, load, () => ({
      success: true,
      message: 'Loaded.',
      loaded: ['search_hotels', 'convert_currency'],
    }));
    const offered = [...tools, descriptor('search_hotels'), descriptor('convert_currency')];
    const calls = callsOf(planNextStep({ events, tools: offered }));
    expect(calls.map((call) => [call.toolName, call.input])).toEqual([
      [
        'search_hotels',
        { city: 'Paris', checkIn: '2025-07-03', checkOut: '2025-07-06', maxPricePerNight: 500 },
      ],
      ['convert_currency', { amount: 500, from: 'EUR', to: 'USD' }],
    ]);
    record(events, planNextStep({ events, tools: offered }), runTool);
    const answer = planNextStep({ events, tools: offered });
    expect(answer.type === 'text' && answer.text.split('\n')).toEqual([
      expect.stringMatching(/^\[offline planner\] search_hotels → city Paris; nights 3; hotels: 4 items/),
      expect.stringMatching(
        /^convert_currency → amount 500; from EUR; to USD; rate [\d.]+; converted [\d.]+/,
      ),
    ]);
  });

  it('with autoLoad (no load_tool offered) calls the found tool on the next step', () => {
    const events: PlannerEvent[] = [{ type: 'user', text: 'book a table for two in Rome tomorrow at 8pm' }];
    record(events, planNextStep({ events, tools: [searchTool] }), () => ({
      ...found('book_restaurant_table', 'check_table_availability'),
      loaded: ['book_restaurant_table', 'check_table_availability'],
    }));
    const offered = [searchTool, descriptor('book_restaurant_table'), descriptor('check_table_availability')];
    expect(callsOf(planNextStep({ events, tools: offered }))).toEqual([
      {
        toolCallId: 'planner-call-2',
        toolName: 'book_restaurant_table',
        input: { city: 'Rome', date: '2025-06-17', time: '20:00', partySize: 2 },
      },
    ]);
  });

  it('says so when the search finds nothing, fails, or a loaded tool never becomes callable', () => {
    const base: PlannerEvent[] = [
      { type: 'user', text: 'teleport me to Mars' },
      {
        type: 'tool-call',
        toolCallId: 's',
        toolName: 'search_tools',
        input: { query: 'teleport me to Mars' },
      },
    ];
    const none = planNextStep({
      events: [
        ...base,
        {
          type: 'tool-result',
          toolCallId: 's',
          toolName: 'search_tools',
          output: { results: [], message: '' },
        },
      ],
      tools: [searchTool, loadTool],
    });
    expect(none).toEqual({ type: 'text', text: '[offline planner] No tool matched "teleport me to Mars".' });

    const failed = planNextStep({
      events: [
        ...base,
        {
          type: 'tool-result',
          toolCallId: 's',
          toolName: 'search_tools',
          output: { type: 'error-text', value: 'store is down' },
        },
      ],
      tools: [searchTool, loadTool],
    });
    expect(failed).toEqual({ type: 'text', text: '[offline planner] The tool search failed: store is down' });

    const refused = planNextStep({
      events: [
        ...base,
        { type: 'tool-result', toolCallId: 's', toolName: 'search_tools', output: found('get_timezone') },
        { type: 'tool-call', toolCallId: 'l', toolName: 'load_tool', input: { toolName: 'get_timezone' } },
        {
          type: 'tool-result',
          toolCallId: 'l',
          toolName: 'load_tool',
          output: { success: false, message: 'Not allowed here.' },
        },
      ],
      tools: [searchTool, loadTool],
    });
    expect(refused).toEqual({
      type: 'text',
      text: '[offline planner] Could not use get_timezone: not available to call (Not allowed here.).',
    });
  });

  it('reports a tool error, such as the guard refusing a call', () => {
    const events: PlannerEvent[] = [
      { type: 'user', text: 'what time zone is Tokyo in' },
      { type: 'tool-call', toolCallId: 's', toolName: 'search_tools', input: {} },
      { type: 'tool-result', toolCallId: 's', toolName: 'search_tools', output: found('get_timezone') },
      { type: 'tool-call', toolCallId: 't', toolName: 'get_timezone', input: { city: 'Tokyo' } },
      {
        type: 'tool-result',
        toolCallId: 't',
        toolName: 'get_timezone',
        output: 'Tool get_timezone is not loaded: search, then load it.',
        isError: true,
      },
    ];
    expect(planNextStep({ events, tools: [searchTool, loadTool, descriptor('get_timezone')] })).toEqual({
      type: 'text',
      text: '[offline planner] get_timezone failed: Tool get_timezone is not loaded: search, then load it.',
    });
  });

  it('reads outputs as the frameworks hand them over: JSON strings, AI SDK parts, text parts', () => {
    const output = found('get_timezone');
    for (const wrapped of [
      JSON.stringify(output),
      { type: 'json', value: output },
      [{ type: 'text', text: JSON.stringify(output) }],
    ]) {
      const events: PlannerEvent[] = [
        { type: 'user', text: 'time zone of Tokyo' },
        { type: 'tool-call', toolCallId: 's', toolName: 'search_tools', input: {} },
        { type: 'tool-result', toolCallId: 's', toolName: 'search_tools', output: wrapped },
      ];
      expect(callsOf(planNextStep({ events, tools: [searchTool, loadTool] }))[0]!.input).toEqual({
        toolName: 'get_timezone',
      });
    }
    expect(unwrapToolOutput('not json {')).toBe('not json {');
  });

  it('looks up the schema of a tool offered by name only, and accepts inputSchema', () => {
    const events: PlannerEvent[] = [
      { type: 'user', text: 'time zone of Tokyo' },
      { type: 'tool-call', toolCallId: 's', toolName: 'search_tools', input: {} },
      { type: 'tool-result', toolCallId: 's', toolName: 'search_tools', output: found('get_timezone') },
    ];
    expect(callsOf(planNextStep({ events, tools: ['search_tools', 'get_timezone'] }))[0]!.input).toEqual({
      city: 'Tokyo',
    });
    const inputSchema = { type: 'object', properties: { place: { type: 'string' } }, required: ['place'] };
    const action = planNextStep({
      events,
      tools: ['search_tools', { name: 'get_timezone', inputSchema } as unknown as PlannerTool],
    });
    expect(Object.keys(callsOf(action)[0]!.input)).toEqual(['place']);
  });

  it('starts over for a new request in the same conversation, with fresh call ids', () => {
    const events: PlannerEvent[] = [
      { type: 'user', text: 'time zone of Tokyo' },
      { type: 'tool-call', toolCallId: 'planner-call-1', toolName: 'search_tools', input: {} },
      {
        type: 'tool-result',
        toolCallId: 'planner-call-1',
        toolName: 'search_tools',
        output: found('get_timezone'),
      },
      { type: 'tool-call', toolCallId: 'planner-call-2', toolName: 'get_timezone', input: { city: 'Tokyo' } },
      {
        type: 'tool-result',
        toolCallId: 'planner-call-2',
        toolName: 'get_timezone',
        output: { timezone: 'Asia/Tokyo' },
      },
      { type: 'assistant', text: 'Asia/Tokyo' },
      { type: 'user', text: 'and the weather in Tokyo now?' },
    ];
    expect(planNextStep({ events, tools: [searchTool, descriptor('get_timezone')] })).toEqual({
      type: 'tool-calls',
      calls: [
        {
          toolCallId: 'planner-call-3',
          toolName: 'search_tools',
          input: { query: 'and the weather in Tokyo now?' },
        },
      ],
    });
  });

  it('calls an already offered tool directly when the results name it', () => {
    const events: PlannerEvent[] = [
      { type: 'user', text: 'time zone of Lisbon' },
      { type: 'tool-call', toolCallId: 's', toolName: 'search_tools', input: {} },
      { type: 'tool-result', toolCallId: 's', toolName: 'search_tools', output: found('get_timezone') },
    ];
    expect(
      callsOf(planNextStep({ events, tools: [searchTool, loadTool, descriptor('get_timezone')] }))[0],
    ).toMatchObject({
      toolName: 'get_timezone',
      input: { city: 'Lisbon' },
    });
  });

  it('answers sensibly with no request, an empty one, or no search tool', () => {
    expect(planNextStep({ events: [], tools: [] })).toEqual({
      type: 'text',
      text: '[offline planner] There is no request to act on.',
    });
    expect(planNextStep({ events: [{ type: 'user', text: '  ' }], tools: [searchTool] }).type).toBe('text');
    expect(
      planNextStep({
        events: [{ type: 'user', text: 'time zone of Tokyo' }],
        tools: [descriptor('get_timezone')],
      }),
    ).toMatchObject({
      type: 'tool-calls',
      calls: [{ toolName: 'get_timezone', input: { city: 'Tokyo' } }],
    });
    expect(planNextStep({ events: [{ type: 'user', text: 'hello' }], tools: [] })).toEqual({
      type: 'text',
      text: '[offline planner] No tool is offered that matches "hello".',
    });
  });

  it('property: for every tool, the planner calls it with arguments its schema accepts and the executor runs', () => {
    fc.assert(
      fc.property(fc.constantFrom(...exampleTools), fc.string({ maxLength: 80 }), (tool, extra) => {
        const request = `${tool.description} ${extra}`;
        const events: PlannerEvent[] = [
          { type: 'user', text: request },
          { type: 'tool-call', toolCallId: 's', toolName: 'search_tools', input: { query: request } },
          { type: 'tool-result', toolCallId: 's', toolName: 'search_tools', output: found(tool.name) },
        ];
        const [call] = callsOf(
          planNextStep({ events, tools: [searchTool, loadTool, descriptor(tool.name)] }),
        );
        expect(call!.toolName).toBe(tool.name);
        const parsed = tool.input.safeParse(call!.input);
        if (!parsed.success) throw new Error(`${tool.name}: ${JSON.stringify(call!.input)}`);
        expect(tool.execute(parsed.data)).toBeDefined();
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('is deterministic and never reads the clock', () => {
    const events: PlannerEvent[] = [{ type: 'user', text: 'weather in Rome tomorrow' }];
    const input = { events, tools: [searchTool, loadTool] };
    expect(planNextStep(input)).toEqual(planNextStep(input));
    const schema = toJsonSchema(exampleToolsByName.get('get_weather_forecast')!);
    const withResults: PlannerEvent[] = [
      ...events,
      { type: 'tool-call', toolCallId: 's', toolName: 'search_tools', input: {} },
      {
        type: 'tool-result',
        toolCallId: 's',
        toolName: 'search_tools',
        output: found('get_weather_forecast'),
      },
    ];
    const tools = [searchTool, { name: 'get_weather_forecast', parameters: schema }];
    expect(
      callsOf(planNextStep({ events: withResults, tools }, { today: '2030-01-01' }))[0]!.input,
    ).toMatchObject({ startDate: '2030-01-02' });
  });
});

describe('summariseResult', () => {
  it('lists scalars, counts arrays with a peek at the first item, and stays short', () => {
    expect(
      summariseResult({ ok: true, items: [{ id: 1, name: 'a' }, { id: 2 }], nested: { a: 1, b: { c: 2 } } }),
    ).toBe('ok true; items: 2 items (first: id 1, name a); nested {a 1}');
    expect(summariseResult('x'.repeat(1000)).length).toBeLessThanOrEqual(280);
    expect(summariseResult([1, 2, 3])).toBe('3 items');
  });
});
