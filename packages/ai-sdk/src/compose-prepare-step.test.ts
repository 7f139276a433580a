import { generateText, isStepCount, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { createCatalog } from './__fixtures__/catalog';
import { scriptedModel } from './__fixtures__/scripted-model';
import { composePrepareStep } from './compose-prepare-step';
import { createToolSearch } from './create-tool-search';

const META = ['search_tools', 'load_tool'];

describe('composePrepareStep with tool search', () => {
  it("runs the user's prepareStep after ours: it may narrow the tools and set other options", async () => {
    const { tools } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const call = toolSearch.forCall({ threadId: 'compose' });
    const userSaw: Array<{ stepNumber: number; plan?: unknown }> = [];
    const { model, seen, toolsPerStep } = scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather' } }] },
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
      { toolCalls: [{ toolName: 'getWeather', input: { city: 'Rome' } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...call,
      prepareStep: composePrepareStep(call.prepareStep, ({ stepNumber, runtimeContext }) => {
        userSaw.push({ stepNumber, plan: runtimeContext.plan });
        // The user hides load_tool on the first step and lowers the temperature on every step.
        return stepNumber === 0 ? { activeTools: ['search_tools'], temperature: 0 } : { temperature: 0 };
      }),
      runtimeContext: { plan: 'pro' },
      stopWhen: isStepCount(10),
      prompt: 'x',
    });
    expect(toolsPerStep()).toEqual([
      ['search_tools'],
      META,
      [...META, 'getWeather'],
      [...META, 'getWeather'],
    ]);
    expect(seen).toHaveLength(4);
    expect(model.doGenerateCalls.map((options) => options.temperature)).toEqual([0, 0, 0, 0]);
    expect(userSaw).toEqual([0, 1, 2, 3].map((stepNumber) => ({ stepNumber, plan: 'pro' })));
  });

  it('cannot widen what tool search made visible', async () => {
    const { tools, ran } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const call = toolSearch.forCall({ threadId: 'widen' });
    const { model, toolsPerStep } = scriptedModel([{ text: 'ok' }]);
    const result = streamText({
      model,
      ...call,
      prepareStep: composePrepareStep(call.prepareStep, () => ({
        activeTools: ['search_tools', 'load_tool', 'send_email'],
      })),
      prompt: 'x',
    });
    await result.consumeStream();
    expect(toolsPerStep()).toEqual([META]);
    expect(ran).toEqual([]);
  });

  it('drops a toolChoice that forces a tool not active in the step, which a provider would refuse', async () => {
    const { tools, ran } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const call = toolSearch.forCall({ threadId: 'choice' });
    const { model, seen } = scriptedModel(
      [
        { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
        { toolCalls: [{ toolName: 'getWeather', input: { city: 'Rome' } }] },
        { text: 'ok' },
      ],
      { refuseUnsentToolChoice: true },
    );
    await generateText({
      model,
      ...call,
      // Forces getWeather on the first two steps: it is only loaded (and sent) from the second.
      prepareStep: composePrepareStep(call.prepareStep, ({ stepNumber }) =>
        stepNumber < 2 ? { toolChoice: { type: 'tool', toolName: 'getWeather' } } : undefined,
      ),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    expect(seen.map((step) => step.toolChoice)).toEqual([
      { type: 'auto' },
      { type: 'tool', toolName: 'getWeather' },
      { type: 'auto' },
    ]);
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Rome' } }]);
  });

  it("keeps our order after a user's partial toolOrder, so each step's tools are a prefix of the next", async () => {
    const { tools, getTime } = createCatalog();
    const toolSearch = createToolSearch({ tools, alwaysOn: { getTime } });
    const { model, toolsPerStep } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'send_email' } }] },
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'convert_currency' } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      // The user puts their own tool first and says nothing of the rest: the SDK would send
      // the rest alphabetically, a later load landing between earlier tools.
      ...toolSearch.forCall({ threadId: 'order', prepareStep: () => ({ toolOrder: ['getTime'] }) }),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    expect(toolsPerStep()).toEqual([
      ['getTime', ...META],
      ['getTime', ...META, 'send_email'],
      ['getTime', ...META, 'send_email', 'convert_currency'],
    ]);
  });

  it("a later system (the SDK's older name for instructions) replaces an earlier instructions", async () => {
    const { tools } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const call = toolSearch.forCall({ threadId: 'system' });
    const seenByLast: unknown[] = [];
    const { model, seen } = scriptedModel([{ text: 'ok' }]);
    await generateText({
      model,
      ...call,
      prepareStep: composePrepareStep(
        call.prepareStep,
        () => ({ instructions: 'first' }),
        () => ({ system: 'second' }),
        ({ instructions }) => {
          seenByLast.push(instructions);
          return undefined;
        },
      ),
      prompt: 'x',
    });
    expect(seenByLast).toEqual(['second']);
    expect(seen[0]!.prompt[0]).toEqual({ role: 'system', content: 'second' });
  });

  it('passes what an earlier function changed to the later ones and merges the results', async () => {
    const composed = composePrepareStep<Record<string, never>>(
      () => ({ runtimeContext: { step: 'first' }, activeTools: [], toolChoice: 'auto' }),
      undefined,
      ({ runtimeContext }) => ({ instructions: `seen ${String(runtimeContext.step)}`, toolChoice: 'none' }),
    );
    const result = await composed({
      runtimeContext: {},
      toolsContext: {},
      messages: [],
      initialMessages: [],
      responseMessages: [],
      steps: [],
      stepNumber: 0,
      model: scriptedModel([]).model,
      instructions: undefined,
      initialInstructions: undefined,
    });
    expect(result).toEqual({
      runtimeContext: { step: 'first' },
      activeTools: [],
      toolChoice: 'none',
      instructions: 'seen first',
    });
  });
});
