import type { ToolSearchEvent } from '@tool-search/core';
import { createDeferred, createHeldRanker } from '@tool-search/core/testing';
import {
  generateText,
  isStepCount,
  NoSuchToolError,
  streamText,
  type ToolCallRepairFunction,
  type ToolSet,
} from 'ai';
import { describe, expect, it } from 'vitest';
import { createCatalog } from './__fixtures__/catalog';
import { scriptedModel, toolResultsIn } from './__fixtures__/scripted-model';
import { createToolSearch } from './create-tool-search';

const META = ['search_tools', 'load_tool'];

/** A user's repair that records what it was asked, and answers with `answer`. */
function recordingRepair(
  answer: (
    options: Parameters<ToolCallRepairFunction<ToolSet>>[0],
  ) => ReturnType<ToolCallRepairFunction<ToolSet>>,
) {
  const asked: string[] = [];
  const repair: ToolCallRepairFunction<ToolSet> = (options) => {
    asked.push(`${options.error.name} ${options.toolCall.toolName}`);
    return answer(options);
  };
  return { asked, repair };
}

describe("forCall({ repairToolCall }): the user's repair, combined with ours", () => {
  it('is asked to repair invalid input to a loaded tool, and the repaired call runs', async () => {
    const { tools, ran } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const { asked, repair } = recordingRepair(async ({ toolCall }) => ({
      ...toolCall,
      input: JSON.stringify({ city: 'Rome' }),
    }));
    const { model } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
      { toolCalls: [{ toolName: 'getWeather', input: { town: 42 } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'input', repairToolCall: repair }),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    expect(asked).toEqual(['AI_InvalidToolInputError getWeather']);
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Rome' } }]);
  });

  it('fixes a mistyped name to a loaded tool (streamText); a typo it leaves alone gets our tool error', async () => {
    const { tools, ran } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const { asked, repair } = recordingRepair(async ({ toolCall, error }) =>
      NoSuchToolError.isInstance(error) && toolCall.toolName === 'get_weather'
        ? { ...toolCall, toolName: 'getWeather' }
        : null,
    );
    const { model, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
      { toolCalls: [{ toolName: 'get_weather', input: { city: 'Oslo' } }] },
      { toolCalls: [{ toolName: 'launch_rocket', input: {} }] },
      { text: 'ok' },
    ]);
    const result = streamText({
      model,
      ...toolSearch.forCall({ threadId: 'typo', repairToolCall: repair }),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    await result.consumeStream();
    expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Oslo' } }]);
    expect(asked).toEqual(['AI_NoSuchToolError get_weather', 'AI_NoSuchToolError launch_rocket']);
    expect(toolResultsIn(seen[3]!.prompt).at(-1)).toMatchObject({
      toolName: 'launch_rocket',
      type: 'error-text',
      value: expect.stringMatching(/"launch_rocket" is not available.*search_tools/),
    });
  });

  it('is never asked about a catalog tool that is not loaded or is filtered: the model gets our tool error', async () => {
    const { tools, ran } = createCatalog();
    const events: ToolSearchEvent[] = [];
    const toolSearch = createToolSearch({
      tools,
      filter: ({ toolName }) => toolName !== 'send_email',
      onEvent: (event) => events.push(event),
    });
    // A repair that would send every call it is given to getWeather (loaded below).
    const { asked, repair } = recordingRepair(async ({ toolCall }) => ({
      ...toolCall,
      toolName: 'getWeather',
    }));
    const { model, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
      {
        toolCalls: [
          { toolName: 'getForecast', input: { city: 'Rome' } },
          { toolName: 'send_email', input: { to: ['x'], subject: 's', body: 'b' } },
        ],
      },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'refused', repairToolCall: repair }),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    expect(asked).toEqual([]);
    expect(ran).toEqual([]);
    const [forecast, email] = toolResultsIn(seen[2]!.prompt).slice(-2);
    expect(forecast).toMatchObject({ toolName: 'getForecast', value: expect.stringMatching(/not loaded/) });
    expect(email).toMatchObject({ toolName: 'send_email', value: expect.stringMatching(/not available/) });
    // The two calls are checked concurrently: the events come in either order.
    const denials = events.flatMap((event) =>
      event.type === 'deny' ? [`${event.toolName} ${event.reason}`] : [],
    );
    expect(denials.sort()).toEqual(['getForecast not-loaded', 'send_email filtered']);
  });

  it('cannot turn a call into one of a tool that is not loaded or is filtered', async () => {
    const { tools, ran } = createCatalog();
    const toolSearch = createToolSearch({ tools, filter: ({ toolName }) => toolName !== 'send_email' });
    const { asked, repair } = recordingRepair(async ({ toolCall }) => ({
      ...toolCall,
      toolName: toolCall.toolName === 'get_forecast' ? 'getForecast' : 'send_email',
    }));
    const { model, seen } = scriptedModel([
      {
        toolCalls: [
          { toolName: 'get_forecast', input: { city: 'Rome' } },
          { toolName: 'email', input: { to: ['x'], subject: 's', body: 'b' } },
        ],
      },
      { text: 'ok' },
    ]);
    const result = await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'redirect', repairToolCall: repair }),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    expect(asked).toEqual(['AI_NoSuchToolError get_forecast', 'AI_NoSuchToolError email']);
    expect(ran).toEqual([]);
    expect(result.steps[0]!.toolCalls.map((call) => call.invalid)).toEqual([true, true]);
    const [forecast, email] = toolResultsIn(seen[1]!.prompt).slice(-2);
    expect(forecast).toMatchObject({
      toolName: 'get_forecast',
      value: expect.stringMatching(/"getForecast" is not loaded/),
    });
    expect(email).toMatchObject({
      toolName: 'email',
      value: expect.stringMatching(/"send_email" is not available/),
    });
  });

  for (const mode of ['generateText', 'streamText'] as const) {
    it(`a tool loaded and called in one step is told to call it again now, not to load it again (${mode})`, async () => {
      const { tools, ran } = createCatalog();
      const toolSearch = createToolSearch({ tools });
      const { model, seen } = scriptedModel([
        {
          toolCalls: [
            { toolName: 'load_tool', input: { toolName: 'getWeather' } },
            { toolName: 'getWeather', input: { city: 'Rome' } },
          ],
        },
        { toolCalls: [{ toolName: 'getWeather', input: { city: 'Rome' } }] },
        { text: 'ok' },
      ]);
      const settings = {
        model,
        ...toolSearch.forCall({ threadId: `same-step-${mode}` }),
        stopWhen: isStepCount(5),
        prompt: 'x',
      };
      if (mode === 'generateText') await generateText(settings);
      else await streamText(settings).consumeStream();
      const refused = toolResultsIn(seen[1]!.prompt).find((result) => result.toolName === 'getWeather');
      expect(refused).toMatchObject({
        type: 'error-text',
        value: expect.stringMatching(
          /loaded this tool in this same step.*call it again now, without loading it again/,
        ),
      });
      // Called again in the next step, as told, it runs.
      expect(ran).toEqual([{ toolName: 'getWeather', input: { city: 'Rome' } }]);
    });
  }

  it("gives a filtered tool's call the refusal of an unknown name, the same-step note included", async () => {
    const { tools } = createCatalog();
    const toolSearch = createToolSearch({
      tools,
      filter: ({ toolName, phase }) => !(toolName === 'send_email' && phase === 'load'),
    });
    const { model, seen } = scriptedModel([
      {
        toolCalls: [
          { toolName: 'send_email', input: { to: ['x'], subject: 's', body: 'b' } },
          { toolName: 'send_fax', input: {} },
          { toolName: 'getForecast', input: { city: 'Rome' } },
        ],
      },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...toolSearch.forCall({ threadId: 'same-refusal' }),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    const [email, fax, forecast] = toolResultsIn(seen[1]!.prompt).map((result) => String(result.value));
    expect(email!.replaceAll('send_email', 'NAME')).toBe(fax!.replaceAll('send_fax', 'NAME'));
    expect(email).toMatch(/"send_email" is not available.*in this same step/);
    expect(forecast).toMatch(/"getForecast" is not loaded.*in this same step/);
  });

  it('without a filter, an unknown name gets no same-step note: it is no tool to load', async () => {
    const toolSearch = createToolSearch({ tools: createCatalog().tools });
    const { model, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'send_fax', input: {} }] },
      { text: 'ok' },
    ]);
    await generateText({ model, ...toolSearch.forCall(), stopWhen: isStepCount(5), prompt: 'x' });
    const [fax] = toolResultsIn(seen[1]!.prompt);
    expect(fax!.value).toMatch(/"send_fax" is not available.*search_tools/);
    expect(fax!.value).not.toMatch(/same step/);
  });

  it('refuses a repairToolCall or prepareStep that is not a function', () => {
    const toolSearch = createToolSearch({ tools: createCatalog().tools });
    expect(() => toolSearch.forCall({ repairToolCall: 'fix it' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    expect(() => toolSearch.forCall({ prepareStep: {} as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    expect(() => toolSearch.forCall({ prepareStep: undefined, repairToolCall: null as never })).not.toThrow();
  });
});

describe("forCall({ prepareStep }): the user's prepareStep, after ours", () => {
  it('runs on every step, sees our tools, may narrow them and set other options', async () => {
    const { tools } = createCatalog();
    const toolSearch = createToolSearch({ tools });
    const userSaw: number[] = [];
    const { model, toolsPerStep } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
      { toolCalls: [{ toolName: 'getWeather', input: { city: 'Rome' } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...toolSearch.forCall({
        threadId: 'prepare',
        // Hides search_tools once something is loaded, and lowers the temperature.
        prepareStep: ({ stepNumber }) => {
          userSaw.push(stepNumber);
          return stepNumber > 0
            ? { activeTools: ['load_tool', 'getWeather'], temperature: 0 }
            : { temperature: 0 };
        },
      }),
      stopWhen: isStepCount(5),
      prompt: 'x',
    });
    expect(userSaw).toEqual([0, 1, 2]);
    expect(toolsPerStep()).toEqual([META, ['load_tool', 'getWeather'], ['load_tool', 'getWeather']]);
    expect(model.doGenerateCalls.map((options) => options.temperature)).toEqual([0, 0, 0]);
  });
});

describe('aborting the call during a slow meta-tool', () => {
  /** Lets pending callbacks and I/O run: far less than any real search, and no timer. */
  const flush = async () => {
    for (let turn = 0; turn < 5; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
  };

  it('generateText rejects with the signal’s reason at once, while search_tools waits on the ranker', async () => {
    const held = createHeldRanker();
    const toolSearch = createToolSearch({ tools: createCatalog().tools, ranker: held.ranker });
    const { model } = scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather' } }] },
      { text: 'ok' },
    ]);
    const controller = new AbortController();
    let outcome: unknown = 'still waiting';
    const call = generateText({
      model,
      ...toolSearch.forCall(),
      abortSignal: controller.signal,
      stopWhen: isStepCount(3),
      prompt: 'x',
    }).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    void call.then((value) => {
      outcome = value;
    });
    await held.started;
    const reason = new Error('the user left');
    controller.abort(reason);
    await flush();
    expect(outcome).toBe(reason);
    held.answer([]); // the ranker answers late: nobody waits for it any more
    expect(await call).toBe(reason);
  });

  it('streamText ends at once while load_tool waits on the filter, and nothing is loaded afterwards', async () => {
    const started = createDeferred<void>();
    const decision = createDeferred<boolean>();
    const toolSearch = createToolSearch({
      tools: createCatalog().tools,
      filter: ({ phase }) => {
        if (phase !== 'load') return true;
        started.resolve();
        return decision.promise;
      },
    });
    const { model } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
      { text: 'ok' },
    ]);
    const controller = new AbortController();
    const result = streamText({
      model,
      ...toolSearch.forCall({ threadId: 'left' }),
      abortSignal: controller.signal,
      stopWhen: isStepCount(3),
      prompt: 'x',
    });
    const parts: string[] = [];
    let ended = false;
    const reading = (async () => {
      for await (const part of result.fullStream) parts.push(part.type);
      ended = true;
    })();
    await started.promise;
    controller.abort();
    await flush();
    expect(ended).toBe(true);
    expect(parts.at(-1)).toBe('abort');
    decision.resolve(true); // the filter allows it, too late
    await reading;
    await flush();
    expect(await toolSearch.getLoadedToolNames('left')).toEqual([]);
  });
});

describe('aborting the call while a step is prepared', () => {
  const flush = async () => {
    for (let turn = 0; turn < 5; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
  };

  /**
   * A tool search whose 'active' filter (asked about the loaded tools, never the always-on ones)
   * holds a step until `decision` settles, from step `from` on.
   */
  function heldAtStep(from: number) {
    const started = createDeferred<void>();
    const decision = createDeferred<boolean>();
    let steps = 0;
    const { tools, getTime } = createCatalog();
    const toolSearch = createToolSearch({
      tools,
      alwaysOn: { getTime },
      onEvent: (event) => {
        if (event.type === 'step') steps++;
      },
      filter: ({ phase }) => {
        if (phase !== 'active' || steps < from) return true;
        started.resolve();
        return decision.promise;
      },
    });
    return { toolSearch, started, decision };
  }

  /** A call's outcome as it stands now: 'still waiting', 'resolved', or the rejection. */
  function watch(call: Promise<unknown>) {
    const state = { outcome: 'still waiting' as unknown };
    void call.then(
      () => {
        state.outcome = 'resolved';
      },
      (error: unknown) => {
        state.outcome = error;
      },
    );
    return state;
  }

  it("ends at once with the signal's reason while a later step waits on a slow filter (the call's signal, as a tool saw it)", async () => {
    const { toolSearch, started, decision } = heldAtStep(1);
    const { model, seen } = scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'getWeather' } }] },
      { text: 'ok' },
    ]);
    const controller = new AbortController();
    const state = watch(
      generateText({
        model,
        ...toolSearch.forCall({ threadId: 'stop' }),
        abortSignal: controller.signal,
        stopWhen: isStepCount(3),
        prompt: 'x',
      }),
    );
    await started.promise;
    const reason = new Error('the user left');
    controller.abort(reason);
    await flush();
    expect(state.outcome).toBe(reason);
    decision.resolve(true);
    await flush();
    expect(seen).toHaveLength(1); // the second step never reached the model
  });

  it('ends the first step at once with the abortSignal given to forCall', async () => {
    const { toolSearch, started, decision } = heldAtStep(0);
    // A tool the thread has loaded, which the first step asks the filter about.
    await toolSearch.engine.startRequest({ threadId: 'stop' }).loadTool({ toolName: 'getWeather' });
    const { model, seen } = scriptedModel([{ text: 'ok' }]);
    const controller = new AbortController();
    const result = streamText({
      model,
      ...toolSearch.forCall({ threadId: 'stop', abortSignal: controller.signal }),
      abortSignal: controller.signal,
      prompt: 'x',
    });
    const parts: string[] = [];
    const state = watch(
      (async () => {
        for await (const part of result.fullStream) parts.push(part.type);
      })(),
    );
    await started.promise;
    controller.abort();
    await flush();
    expect(state.outcome).toBe('resolved');
    expect(parts.at(-1)).toBe('abort');
    decision.resolve(true);
    await flush();
    expect(seen).toEqual([]);
  });

  it('refuses an abortSignal that is not an AbortSignal', () => {
    const toolSearch = createToolSearch({ tools: createCatalog().tools });
    expect(() => toolSearch.forCall({ abortSignal: 'stop' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });
});
