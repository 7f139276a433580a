import { ToolMessage } from '@langchain/core/messages';
import { Command } from '@langchain/langgraph';
import { createLearning, createToolSearchEngine, type ToolSearchEvent } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { answersWithSuccess, createUseRecorder } from './use-recorder';

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

describe('the use recorder', () => {
  it('records nothing when the run was aborted, though the tool answered', async () => {
    const { engine, request, recorded } = await searchedRequest();
    const uses = createUseRecorder<string>();
    uses.searched(request);
    expect(uses.called(request, call, 'sunny', AbortSignal.abort())).toBe(false);
    expect(recorded()).toBe(0);
    expect(uses.called(request, call, 'sunny', new AbortController().signal)).toBe(true);
    expect(recorded()).toBe(1);
    engine.dispose();
  });

  it('forgets a thread: a later call records nothing', async () => {
    const { engine, request, recorded } = await searchedRequest();
    const uses = createUseRecorder<string>();
    uses.searched(request);
    uses.forget('t');
    expect(uses.called(request, call, 'sunny', undefined)).toBe(false);
    expect(recorded()).toBe(0);
    engine.dispose();
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
