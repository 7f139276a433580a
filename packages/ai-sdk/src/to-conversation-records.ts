import type { ConversationRecord } from '@tool-search/core';
import type { ModelMessage } from 'ai';

/**
 * Translates AI SDK model messages into the engine's neutral records for
 * `'context'` storage: the assistant's tool calls and the tool results that
 * answer them (json, text, or content parts, whose text the core reads). User and system text
 * never becomes a record. Error and denied results are left out: they answer a call without a
 * result.
 */
export function toConversationRecords(messages: readonly ModelMessage[] | undefined): ConversationRecord[] {
  const records: ConversationRecord[] = [];
  if (!Array.isArray(messages)) return records;
  for (const message of messages) {
    if (message === null || typeof message !== 'object' || !Array.isArray(message.content)) continue;
    if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type !== 'tool-call') continue;
        records.push({
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
        });
      }
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        const output = part.output;
        // A 'content' output is native mode's search result (its JSON, then tool references):
        // the core reads the JSON out of its text parts.
        if (output?.type !== 'json' && output?.type !== 'text' && output?.type !== 'content') continue;
        records.push({
          type: 'tool-result',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          output: output.value,
        });
      }
    }
  }
  return records;
}
