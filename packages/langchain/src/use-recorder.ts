// Owns the adapter's side of learning from use (the engine's `learning`): telling the engine which
// catalog tool calls succeeded, by LangChain's notion of success.
import type { ToolCall } from '@langchain/core/messages';
import { ToolMessage } from '@langchain/core/messages';
import type { ToolSearchRequest } from '@tool-search/core';

/**
 * True when a tool's answer is a success for LangChain: not a `ToolMessage` with `status: 'error'`
 * (what `createAgent` writes for a tool's exception, and the guard's and the binder's refusals),
 * and not a LangGraph `Command` whose update answers this call with one. Any other `Command` is
 * the tool's own control flow: a success.
 */
export function answersWithSuccess(result: unknown, call: ToolCall): boolean {
  if (ToolMessage.isInstance(result)) return result.status !== 'error';
  if ((result as { lg_name?: unknown } | null | undefined)?.lg_name !== 'Command') return true;
  const update = (result as { update?: unknown }).update;
  // An update is a state object, or a list of [channel, value] pairs.
  const messages = Array.isArray(update)
    ? update.filter((pair) => Array.isArray(pair) && pair[0] === 'messages').flatMap((pair) => pair[1])
    : (update as { messages?: unknown } | null | undefined)?.messages;
  const list: unknown[] = Array.isArray(messages) ? messages : [messages];
  return !list.some(
    (message) =>
      ToolMessage.isInstance(message) && message.tool_call_id === call.id && message.status === 'error',
  );
}

/**
 * A catalog (or request) tool's call ran on `request` and answered `result`: when that is a
 * success for LangChain and the run was not aborted, tells the engine, which records the query of
 * the latest search of the request or of its thread that found the tool (LangChain plans each
 * model call as its own request: the core keeps each thread's latest searches). Never throws;
 * returns whether a use was recorded.
 */
export function recordSuccess<TTool>(
  request: ToolSearchRequest<TTool>,
  call: ToolCall,
  result: unknown,
  signal: AbortSignal | undefined,
): boolean {
  if (signal?.aborted || !answersWithSuccess(result, call)) return false;
  try {
    return request.toolCallSucceeded(call.name);
  } catch {
    // The core reports its own failures as events; a throw here must not fail the tool's call.
    return false;
  }
}
