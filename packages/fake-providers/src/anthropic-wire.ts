// The Anthropic Messages API's answers (https://docs.claude.com/en/api/messages and its
// streaming page): a `message` object, or the SSE events message_start,
// content_block_start / content_block_delta / content_block_stop per block, message_delta and
// message_stop.
import type { NormalizedReply } from './fake-reply';

export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

function blocksOf(reply: NormalizedReply): Block[] {
  if (reply.toolSearchCalls.length > 0) {
    throw new TypeError('tool_search_call items are OpenAI Responses items; Anthropic has none');
  }
  const blocks: Block[] = [];
  if (reply.text !== undefined) blocks.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.toolName, input: call.input });
  }
  return blocks;
}

function stopReason(reply: NormalizedReply): string {
  return reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

export function anthropicMessage(reply: NormalizedReply, id: string, model: string): unknown {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: blocksOf(reply),
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: { input_tokens: reply.inputTokens, output_tokens: reply.outputTokens },
  };
}

export function anthropicEvents(reply: NormalizedReply, id: string, model: string): SseEvent[] {
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: reply.inputTokens, output_tokens: 1 },
        },
      },
    },
  ];
  blocksOf(reply).forEach((block, index) => {
    const start = block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: start },
    });
    const delta =
      block.type === 'text'
        ? { type: 'text_delta', text: block.text }
        : { type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) };
    events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: stopReason(reply), stop_sequence: null },
      usage: { output_tokens: reply.outputTokens },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

export function anthropicError(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}
