import { MockMemory } from '@mastra/core/memory';
import { ToolSearchProcessor as MastraToolSearchProcessor } from '@mastra/core/processors';
import { describe, expect, it } from 'vitest';
import { call, createAgent, type Mode, run, say } from './__fixtures__/harness';
import { type ExecutionLog, sampleTools } from './__fixtures__/tools';
import { ToolSearchProcessor } from './tool-search-processor';

const S = 'search_tools';
const L = 'load_tool';

/**
 * Migration from Mastra 1.71's own processor with `storage: 'context'`: the conversation it
 * stored in memory (its search results carry `results: [{ name }]` and no `loaded`; its load
 * results `{ success, toolName }` or `{ loaded }`) restores its loaded tools under ours, which
 * then runs them. Mastra's processor produces the stored messages; the agent then switches to ours
 * on the same memory and thread.
 */
async function migrate(options: {
  readonly mode: Mode;
  readonly autoLoad: boolean;
  readonly firstScript: Parameters<typeof createAgent>[0]['script'];
  readonly signingSecret?: string;
}) {
  const log: ExecutionLog = [];
  const memory = new MockMemory();
  const memoryOptions = { memory: { thread: `migrated-${options.autoLoad}`, resource: 'user-1' } };
  const search = { autoLoad: options.autoLoad };
  const before = createAgent({
    processors: [new MastraToolSearchProcessor({ tools: sampleTools(log), storage: 'context', search })],
    memory,
    script: options.firstScript,
  });
  await run(before.agent, options.mode, 'find the tools', memoryOptions);
  const stored = await memory.recall({ threadId: memoryOptions.memory.thread, resourceId: 'user-1' });

  const after = createAgent({
    processors: [
      new ToolSearchProcessor({
        tools: sampleTools(log),
        storage: 'context',
        search,
        ...(options.signingSecret ? { signingSecret: options.signingSecret } : {}),
      }),
    ],
    memory,
    script: [call('getWeather', { city: 'Lima' }), say()],
  });
  await run(after.agent, options.mode, 'weather in Lima?', memoryOptions);
  return { log, stored: JSON.stringify(stored), beforeSteps: before.steps, afterSteps: after.steps };
}

describe.each(['generate', 'stream'] as const)('migrating from Mastra 1.71 (%s)', (mode) => {
  it("restores the tools an autoLoad search of Mastra's processor loaded, and runs them", async () => {
    const { log, stored, beforeSteps, afterSteps } = await migrate({
      mode,
      autoLoad: true,
      firstScript: [call(S, { query: 'weather' }), say()],
    });
    // Mastra's processor stored its own shape: results, no `loaded`.
    expect(stored).toContain('"results":[{"name":"get-weather"');
    expect(stored).not.toContain('"loaded"');
    expect(beforeSteps.at(-1)).toContain('get-weather'); // Mastra's processor names it by its id
    expect(afterSteps[0]).toContain('getWeather');
    expect(log).toEqual([{ tool: 'getWeather', input: { city: 'Lima' } }]);
  });

  it("restores the tools Mastra's load_tool loaded, in its single and list forms", async () => {
    const { log, stored, afterSteps } = await migrate({
      mode,
      autoLoad: false,
      firstScript: [
        // Mastra shows the model a tool by its id: getWeather is `get-weather` there.
        call(L, { toolName: 'get-weather' }),
        call(L, { toolNames: ['sendEmail', 'no_such_tool'] }),
        say(),
      ],
    });
    expect(stored).toContain('Tool \\"get-weather\\" loaded successfully');
    expect(stored).toContain('"loaded":["sendEmail"]');
    expect(afterSteps[0]).toEqual([S, L, 'getWeather', 'sendEmail']);
    expect(log).toEqual([{ tool: 'getWeather', input: { city: 'Lima' } }]);
  });

  it('with a signingSecret, the unsigned history grants nothing (the model loads again)', async () => {
    const { log, afterSteps } = await migrate({
      mode,
      autoLoad: true,
      firstScript: [call(S, { query: 'weather' }), say()],
      signingSecret: 'server-secret',
    });
    expect(afterSteps[0]).toEqual([S]);
    expect(log).toEqual([]);
  });
});
