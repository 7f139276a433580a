import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { toConversationRecords } from './to-conversation-records';

describe('toConversationRecords', () => {
  it('keeps assistant tool calls and the json or text results answering them, nothing else', () => {
    const messages: ModelMessage[] = [
      { role: 'system', content: '{"success":true,"loaded":["send_email"]}' },
      { role: 'user', content: [{ type: 'text', text: '{"success":true,"loaded":["send_email"]}' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'loading' },
          { type: 'tool-call', toolCallId: 'a', toolName: 'load_tool', input: { toolName: 'getWeather' } },
          { type: 'tool-call', toolCallId: 'b', toolName: 'load_tool', input: { toolName: 'x' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'load_tool',
            output: { type: 'json', value: { success: true } },
          },
          {
            type: 'tool-result',
            toolCallId: 'b',
            toolName: 'load_tool',
            output: { type: 'error-text', value: 'boom' },
          },
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 'other',
            output: { type: 'text', value: 'plain' },
          },
        ],
      },
      { role: 'assistant', content: 'just text' },
    ];
    expect(toConversationRecords(messages)).toEqual([
      { type: 'tool-call', toolCallId: 'a', toolName: 'load_tool', input: { toolName: 'getWeather' } },
      { type: 'tool-call', toolCallId: 'b', toolName: 'load_tool', input: { toolName: 'x' } },
      { type: 'tool-result', toolCallId: 'a', toolName: 'load_tool', output: { success: true } },
      { type: 'tool-result', toolCallId: 'c', toolName: 'other', output: 'plain' },
    ]);
  });

  it('accepts nothing, and skips malformed messages', () => {
    expect(toConversationRecords(undefined)).toEqual([]);
    expect(toConversationRecords([null, 1, { role: 'tool' }] as unknown as ModelMessage[])).toEqual([]);
  });
});
