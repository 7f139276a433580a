/**
 * Run as a child process by the dispose test: builds a processor whose clock
 * keeps its sweep timer referenced (so only dispose() can release it), runs an
 * agent to the end, disposes the processor and then simply returns. The process
 * must exit by itself.
 */
import type { Clock } from '@tool-search/core';
import { ToolSearchProcessor } from '../tool-search-processor';
import { call, createAgent, run, say } from './harness';
import { sampleTools } from './tools';

const referencedClock: Clock = {
  now: () => Date.now(),
  setInterval(callback, ms) {
    const timer = setInterval(callback, ms);
    return () => clearInterval(timer);
  },
};
const processor = new ToolSearchProcessor({ tools: sampleTools(), ttl: 60_000, clock: referencedClock });
const { agent } = createAgent({
  processors: [processor],
  script: [
    call('search_tools', { query: 'weather' }),
    call('load_tool', { toolName: 'getWeather' }),
    call('getWeather', { city: 'Rome' }),
    say(),
  ],
});
const result = await run(agent, 'generate', 'weather in Rome?');
process.stdout.write(`ran: ${result.toolRuns.map((item) => item.toolName).join(',')}\n`);
processor.dispose();
