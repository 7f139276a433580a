import { InvalidToolInputError, isStepCount, ToolLoopAgent } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCatalog } from './__fixtures__/catalog';
import {
  firstUserText,
  type SeenCall,
  scriptedModel,
  type Turn,
  toolResultsIn,
} from './__fixtures__/scripted-model';
import { createToolSearch } from './create-tool-search';

const META = ['search_tools', 'load_tool'];

/**
 * A model that acts on what it is sent, so concurrent conversations can share it:
 * the first user message says what to look for ("need: weather; input: {...}"); it
 * searches, loads the best result, calls it, then answers.
 */
function policy(call: SeenCall): Turn {
  const [, query = '', input = '{}'] = /need: (.*?); input: (.*)$/.exec(firstUserText(call.prompt)) ?? [];
  const last = toolResultsIn(call.prompt).at(-1);
  if (last === undefined || last.toolName === 'getWeather' || last.toolName === 'send_email') {
    if (last !== undefined) return { text: `done with ${last.toolName}` };
    // A tool the model already has is called directly; otherwise search.
    const known = call.tools.find((name) => !META.includes(name));
    return known
      ? { toolCalls: [{ toolName: known, input: JSON.parse(input) }] }
      : { toolCalls: [{ toolName: 'search_tools', input: { query } }] };
  }
  if (last.toolName === 'search_tools') {
    const best = (last.value as { results: Array<{ name: string }> }).results[0]!.name;
    return { toolCalls: [{ toolName: 'load_tool', input: { toolName: best } }] };
  }
  const loaded = (last.value as { toolName: string }).toolName;
  return { toolCalls: [{ toolName: loaded, input: JSON.parse(input) }] };
}

function createAgent() {
  const { tools, ran } = createCatalog();
  const toolSearch = createToolSearch({ tools });
  const scripted = scriptedModel(policy);
  const agent = new ToolLoopAgent({
    model: scripted.model,
    tools: toolSearch.tools,
    callOptionsSchema: z.object({ threadId: z.string() }),
    prepareCall: ({ options, prepareStep, repairToolCall, ...settings }) => ({
      ...settings,
      ...toolSearch.forCall({ threadId: options.threadId, prepareStep, repairToolCall }),
    }),
    stopWhen: isStepCount(8),
  });
  const toolsSeenBy = (need: string) =>
    scripted.seen
      .filter((call) => firstUserText(call.prompt).includes(`need: ${need};`))
      .map((call) => call.tools);
  return { agent, toolSearch, ran, toolsSeenBy };
}

const weather = 'need: weather; input: {"city":"Rome"}';
const email = 'need: send email; input: {"to":["bob@example.com"],"subject":"hi","body":"hello"}';

describe('ToolLoopAgent: one agent, many threads', () => {
  it('keeps each thread’s tools apart when two threads run at the same time', async () => {
    const { agent, ran, toolsSeenBy, toolSearch } = createAgent();
    const [alice, bob] = await Promise.all([
      agent.generate({ prompt: weather, options: { threadId: 'alice' } }),
      agent.generate({ prompt: email, options: { threadId: 'bob' } }),
    ]);
    expect(alice.text).toBe('done with getWeather');
    expect(bob.text).toBe('done with send_email');
    expect(toolsSeenBy('weather')).toEqual([META, META, [...META, 'getWeather'], [...META, 'getWeather']]);
    expect(toolsSeenBy('send email')).toEqual([META, META, [...META, 'send_email'], [...META, 'send_email']]);
    expect(ran.map((entry) => entry.toolName).sort()).toEqual(['getWeather', 'send_email']);
    expect(await toolSearch.getLoadedToolNames('alice')).toEqual(['getWeather']);
    expect(await toolSearch.getLoadedToolNames('bob')).toEqual(['send_email']);
  });

  it('a thread’s next call (generate or stream) starts with what it loaded; the other thread does not get it', async () => {
    const { agent, toolsSeenBy } = createAgent();
    await agent.generate({ prompt: weather, options: { threadId: 'alice' } });

    const again = await agent.stream({ prompt: `${weather} `, options: { threadId: 'alice' } });
    expect(await again.text).toBe('done with getWeather');
    // The second call's first step already carries getWeather, so the model calls it directly.
    expect(toolsSeenBy('weather').slice(4)).toEqual([
      [...META, 'getWeather'],
      [...META, 'getWeather'],
    ]);

    await agent.generate({ prompt: email, options: { threadId: 'bob' } });
    expect(toolsSeenBy('send email').flat()).not.toContain('getWeather');
  });

  it("keeps the agent's own prepareStep and repairToolCall, given to forCall in prepareCall", async () => {
    const { tools, ran } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const hits: string[] = [];
    const scripted = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
      { toolCalls: [{ toolName: 'getWeather', input: { town: 1 } }] },
      { text: 'done' },
    ]);
    const agent = new ToolLoopAgent({
      model: scripted.model,
      tools: toolSearch.tools,
      callOptionsSchema: z.object({ threadId: z.string() }),
      prepareStep: ({ stepNumber }) => {
        hits.push(`prepareStep ${stepNumber}`);
        return { temperature: 0 };
      },
      repairToolCall: async ({ toolCall, error }) => {
        hits.push(`repair ${toolCall.toolName}`);
        return InvalidToolInputError.isInstance(error)
          ? { ...toolCall, input: JSON.stringify({ city: 'Rome' }) }
          : null;
      },
      prepareCall: ({ options, prepareStep, repairToolCall, ...settings }) => ({
        ...settings,
        ...toolSearch.forCall({ threadId: options.threadId, prepareStep, repairToolCall }),
      }),
      stopWhen: isStepCount(5),
    });
    const result = await agent.generate({ prompt: 'weather', options: { threadId: 'own' } });

    expect(result.text).toBe('done');
    expect(hits).toEqual(['prepareStep 0', 'prepareStep 1', 'repair getWeather', 'prepareStep 2']);
    expect(scripted.model.doGenerateCalls.map((options) => options.temperature)).toEqual([0, 0, 0]);
    expect(scripted.toolsPerStep()).toEqual([META, [...META, 'getWeather'], [...META, 'getWeather']]);
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Rome' } }]);
  });
});
