import type { ConversationRecord } from '@tool-search/core';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Mastra's stored messages (`MastraDBMessage`, format 2) as neutral records for
 * 'context' storage. Only assistant messages count: each `tool-invocation` part
 * is a tool call, and when its state is `result` (and not an error) it also
 * carries the result that answers it. User, system and signal messages never
 * produce a record, whatever their parts look like.
 */
export function toConversationRecords(messages: unknown): ConversationRecord[] {
  const records: ConversationRecord[] = [];
  if (!Array.isArray(messages)) return records;
  for (const message of messages) {
    if (!isRecord(message) || message.role !== 'assistant') continue;
    const content = message.content;
    const parts = isRecord(content) ? content.parts : undefined;
    if (!Array.isArray(parts)) continue;
    for (const part of parts) {
      if (!isRecord(part) || part.type !== 'tool-invocation') continue;
      const invocation = part.toolInvocation;
      if (!isRecord(invocation)) continue;
      const { toolCallId, toolName } = invocation;
      if (typeof toolCallId !== 'string' || typeof toolName !== 'string') continue;
      records.push({ type: 'tool-call', toolCallId, toolName, input: invocation.args });
      if (invocation.state === 'result' && invocation.isError !== true) {
        records.push({ type: 'tool-result', toolCallId, toolName, output: invocation.result });
      }
    }
  }
  return records;
}
