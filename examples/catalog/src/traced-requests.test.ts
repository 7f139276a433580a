import { describe, expect, it } from 'vitest';
import { createTracedRequests } from './traced-requests';

describe('createTracedRequests', () => {
  it('runs requests one at a time, each on a new thread unless given, with its own recorder', async () => {
    const seen: { request: string; threadId: string; active: boolean }[] = [];
    let running = 0;
    const requests = createTracedRequests({
      framework: 'Test',
      model: 'scripted',
      threadPrefix: 'test',
      answer: async (request, threadId) => {
        running++;
        expect(running).toBe(1);
        seen.push({ request, threadId, active: requests.active() !== undefined });
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return `answer to ${request}`;
      },
    });
    const traces = await Promise.all([
      requests.ask('first'),
      requests.ask('second'),
      requests.ask('third', { threadId: 'mine' }),
    ]);
    expect(seen).toEqual([
      { request: 'first', threadId: 'test-1', active: true },
      { request: 'second', threadId: 'test-2', active: true },
      { request: 'third', threadId: 'mine', active: true },
    ]);
    expect(traces.map((trace) => [trace.request, trace.answer, trace.framework])).toEqual([
      ['first', 'answer to first', 'Test'],
      ['second', 'answer to second', 'Test'],
      ['third', 'answer to third', 'Test'],
    ]);
    expect(requests.active()).toBeUndefined();
  });

  it('a failed request rejects its own ask only; the next one runs', async () => {
    const requests = createTracedRequests({
      framework: 'Test',
      model: 'scripted',
      threadPrefix: 'test',
      answer: async (request) => {
        if (request === 'fail') throw new Error('model down');
        return 'ok';
      },
    });
    const failed = requests.ask('fail');
    const next = requests.ask('works');
    await expect(failed).rejects.toThrow('model down');
    expect((await next).answer).toBe('ok');
    expect(requests.active()).toBeUndefined();
  });
});
