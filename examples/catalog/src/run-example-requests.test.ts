import { describe, expect, it } from 'vitest';
import { runExampleRequests } from './run-example-requests';
import type { ExampleAgent, RequestTrace } from './trace';

/** An agent whose model fails on the requests named (as a provider does on a wrong API key). */
function agentFailingOn(failing: ReadonlySet<string>) {
  const asked: string[] = [];
  let disposed = 0;
  const agent: ExampleAgent = {
    framework: 'Test',
    model: 'test model',
    offline: false,
    async ask(request) {
      asked.push(request);
      if (failing.has(request)) {
        throw Object.assign(new Error('401 Incorrect API key provided: sk-...\n\nTroubleshooting URL: …'), {
          requestBodyValues: { input: 'the whole prompt' },
        });
      }
      const trace: RequestTrace = {
        request,
        framework: 'Test',
        model: 'test model',
        threadId: 't',
        steps: [],
        answer: `answered ${request}`,
        toolsCalled: [],
        tokens: {
          withToolSearch: 0,
          instructionsPerCall: 0,
          wholeCatalogPerCall: 0,
          modelCalls: 0,
          modelCallsWithoutSearch: 0,
          wholeCatalog: 0,
        },
      };
      return trace;
    },
    async dispose() {
      disposed++;
    },
  };
  return { agent, asked, disposed: () => disposed };
}

describe('runExampleRequests', () => {
  it('says a failed request on one line, runs the next one, disposes the agent and returns exit code 1', async () => {
    const { agent, asked, disposed } = agentFailingOn(new Set(['weather in Oslo']));
    const out: string[] = [];
    const errors: string[] = [];
    const code = await runExampleRequests(agent, ['weather in Oslo', 'book a table'], {
      write: (text) => out.push(text),
      writeError: (text) => errors.push(text),
    });
    expect(code).toBe(1);
    expect(asked).toEqual(['weather in Oslo', 'book a table']);
    expect(disposed()).toBe(1);
    expect(errors).toEqual([
      '"weather in Oslo" failed: 401 Incorrect API key provided: sk-... Troubleshooting URL: …\n',
      '1 of 2 requests failed.',
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^"book a table"/);
  });

  it('returns 0 when every request is answered', async () => {
    const { agent, disposed } = agentFailingOn(new Set());
    const errors: string[] = [];
    const code = await runExampleRequests(agent, ['book a table'], {
      write: () => {},
      writeError: (text) => errors.push(text),
    });
    expect(code).toBe(0);
    expect(errors).toEqual([]);
    expect(disposed()).toBe(1);
  });
});
