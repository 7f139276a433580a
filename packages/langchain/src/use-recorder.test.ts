import { ToolMessage } from '@langchain/core/messages';
import { Command } from '@langchain/langgraph';
import { createLearning, createToolSearchEngine, type ToolSearchEvent } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { answersWithSuccess, recordSuccess } from './use-recorder';

const call = { name: 'get_weather', args: {}, id: 'call-1' };

/** An engine with learning, and a request of thread `t` whose search found get_weather. */
async function searchedRequest() {
  const events: ToolSearchEvent[] = [];
  const engine = createToolSearchEngine({
    catalog: [{ descriptor: { name: 'get_weather', description: 'Current weather for a city' }, tool: 'w' }],
    learning: createLearning(),
    onEvent: (event) => events.push(event),
  });
  const request = engine.startRequest({ threadId: 't' });
  await request.searchTools({ query: 'weather: do I need an umbrella' });
  const recorded = () => events.filter((event) => event.type === 'evidence' && event.recorded).length;
  return { engine, request, recorded };
}

describe('recording a successful call', () => {
  it('records nothing when the run was aborted, though the tool answered', async () => {
    const { engine, request, recorded } = await searchedRequest();
    expect(recordSuccess(request, call, 'sunny', AbortSignal.abort())).toBe(false);
    expect(recorded()).toBe(0);
    expect(recordSuccess(request, call, 'sunny', new AbortController().signal)).toBe(true);
    expect(recorded()).toBe(1);
    engine.dispose();
  });

  it('records a later request of the thread (the next model call), until the thread is cleared', async () => {
    const { engine, recorded } = await searchedRequest();
    const next = engine.startRequest({ threadId: 't' });
    expect(recordSuccess(next, call, 'sunny', undefined)).toBe(true);
    expect(recordSuccess(engine.startRequest({ threadId: 't' }), call, 'sunny', undefined)).toBe(false);
    const again = engine.startRequest({ threadId: 't' });
    await again.searchTools({ query: 'weather in Oslo' });
    await engine.clearState('t');
    expect(recordSuccess(engine.startRequest({ threadId: 't' }), call, 'sunny', undefined)).toBe(false);
    expect(recorded()).toBe(1);
    engine.dispose();
  });

  it('never throws into LangChain', () => {
    const throwing = {
      toolCallSucceeded: () => {
        throw new Error('boom');
      },
    } as never;
    expect(recordSuccess(throwing, call, 'sunny', undefined)).toBe(false);
  });

  it('takes an error ToolMessage, and a Command answering this call with one, for a failure', () => {
    const answer = (status: 'success' | 'error', id = 'call-1') =>
      new ToolMessage({ content: 'x', tool_call_id: id, status });
    expect(answersWithSuccess('sunny', call)).toBe(true);
    expect(answersWithSuccess(answer('success'), call)).toBe(true);
    expect(answersWithSuccess(answer('error'), call)).toBe(false);
    expect(answersWithSuccess(new Command({ update: { messages: [answer('success')] } }), call)).toBe(true);
    expect(answersWithSuccess(new Command({ update: { messages: [answer('error')] } }), call)).toBe(false);
    expect(answersWithSuccess(new Command({ update: [['messages', [answer('error')]]] }), call)).toBe(false);
    // Another call's error message, or a Command without messages, is this call's success.
    expect(answersWithSuccess(new Command({ update: { messages: [answer('error', 'other')] } }), call)).toBe(
      true,
    );
    expect(answersWithSuccess(new Command({ goto: 'end' }), call)).toBe(true);
  });
});
