// The OpenAI Responses API's answers (https://platform.openai.com/docs/api-reference/responses
// and its streaming events): a `response` object whose `output` holds `message`,
// `function_call` and (client-executed tool search) `tool_search_call` items, or the SSE events
// response.created, response.output_item.added / .done per item with the text and argument deltas
// between, and response.completed.
import type { SseEvent } from './anthropic-wire';
import type { NormalizedReply } from './fake-reply';

export type OutputItem = Record<string, unknown> & { type: string; id: string };

function itemsOf(reply: NormalizedReply): OutputItem[] {
  const items: OutputItem[] = [];
  if (reply.text !== undefined) {
    items.push({
      type: 'message',
      id: `msg_${items.length}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    });
  }
  for (const call of reply.toolSearchCalls) {
    items.push({
      type: 'tool_search_call',
      id: `ts_${call.id}`,
      execution: 'client',
      call_id: call.id,
      status: 'completed',
      arguments: call.arguments,
    });
  }
  for (const call of reply.toolCalls) {
    items.push({
      type: 'function_call',
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.toolName,
      arguments: JSON.stringify(call.input ?? {}),
      status: 'completed',
    });
  }
  return items;
}

function usageOf(reply: NormalizedReply) {
  return {
    input_tokens: reply.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: reply.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: reply.inputTokens + reply.outputTokens,
  };
}

function responseObject(
  reply: NormalizedReply,
  id: string,
  model: string,
  output: OutputItem[],
  done: boolean,
) {
  return {
    id,
    object: 'response',
    created_at: 0,
    status: done ? 'completed' : 'in_progress',
    error: null,
    incomplete_details: null,
    model,
    output,
    usage: done ? usageOf(reply) : null,
  };
}

export function openaiResponse(reply: NormalizedReply, id: string, model: string) {
  return responseObject(reply, id, model, itemsOf(reply), true);
}

export function openaiEvents(reply: NormalizedReply, id: string, model: string): SseEvent[] {
  const events: SseEvent[] = [];
  const push = (type: string, fields: Record<string, unknown>) =>
    events.push({ event: type, data: { type, sequence_number: events.length, ...fields } });
  const items = itemsOf(reply);
  push('response.created', { response: responseObject(reply, id, model, [], false) });
  items.forEach((item, outputIndex) => {
    if (item.type === 'message') {
      const text = reply.text ?? '';
      push('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', content: [] },
      });
      push('response.output_text.delta', {
        item_id: item.id,
        output_index: outputIndex,
        content_index: 0,
        delta: text,
      });
      push('response.output_text.done', {
        item_id: item.id,
        output_index: outputIndex,
        content_index: 0,
        text,
      });
    } else if (item.type === 'function_call') {
      push('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      push('response.function_call_arguments.delta', {
        item_id: item.id,
        output_index: outputIndex,
        delta: item.arguments,
      });
      push('response.function_call_arguments.done', {
        item_id: item.id,
        output_index: outputIndex,
        arguments: item.arguments,
      });
    } else {
      push('response.output_item.added', { output_index: outputIndex, item });
    }
    push('response.output_item.done', { output_index: outputIndex, item });
  });
  push('response.completed', { response: responseObject(reply, id, model, items, true) });
  return events;
}

export function openaiError(type: string, message: string): unknown {
  return { error: { message, type, param: null, code: type } };
}
