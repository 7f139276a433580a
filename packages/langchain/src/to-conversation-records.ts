import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { type ConversationRecord, isMetaToolName } from '@tool-search/core';

/** A tool message's content as the value the tool returned: JSON is parsed back, text stays text. */
export function toolMessageOutput(content: ToolMessage['content']): unknown {
  const text =
    typeof content === 'string'
      ? content
      : content
          .map((block) =>
            typeof block === 'string'
              ? block
              : block.type === 'text' && typeof block.text === 'string'
                ? block.text
                : '',
          )
          .join('');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Where a meta-tool's tool message keeps what 'context' storage reads of it (see `loadProof`). */
export const LOAD_PROOF_KEY = 'tool_search_load';

/**
 * A tool message's output for the records: its content, or, when the content is no longer an
 * object (replaced by a placeholder such as `contextEditingMiddleware`'s "[cleared]"), the load
 * proof kept in its metadata. The proof is checked like any result (receipt, asked names).
 */
function recordOutput(message: ToolMessage): unknown {
  const output = toolMessageOutput(message.content);
  if (output !== null && typeof output === 'object') return output;
  const proof: unknown = message.response_metadata?.[LOAD_PROOF_KEY];
  return proof !== null && typeof proof === 'object' && !Array.isArray(proof) ? proof : output;
}

/**
 * The neutral records of a LangChain conversation, for 'context' storage: each tool call an AI
 * message made, and each tool message that answers one. User, system and AI text never become
 * records. The output of a tool other than the meta-tools is left out (`undefined`): 'context'
 * storage reads only theirs. A meta-tool's message marked `status: 'error'` is read too: a
 * `load_tool` that loaded some names and not others (an unknown or filtered one) is a success
 * message now, but conversations stored by earlier versions hold it as an error, and what it
 * loaded still counts. An error written by anyone else (a refusal, a rejection, a call limit) is
 * text, which loads nothing.
 */
export function toConversationRecords(messages: readonly BaseMessage[]): ConversationRecord[] {
  const records: ConversationRecord[] = [];
  const callNames = new Map<string, string>();
  for (const message of messages) {
    if (AIMessage.isInstance(message)) {
      for (const call of message.tool_calls ?? []) {
        if (typeof call.id !== 'string' || call.id === '') continue;
        callNames.set(call.id, call.name);
        records.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.args });
      }
    } else if (ToolMessage.isInstance(message)) {
      const toolName = callNames.get(message.tool_call_id) ?? message.name;
      if (toolName === undefined) continue;
      records.push({
        type: 'tool-result',
        toolCallId: message.tool_call_id,
        toolName,
        // Only a meta-tool's result is ever read: another tool's content (a web page, a file)
        // is not parsed, at every step, nor held by every step's records.
        output: isMetaToolName(toolName) ? recordOutput(message) : undefined,
      });
    }
  }
  return records;
}
