import { type ToolCall, ToolMessage } from '@langchain/core/messages';

/**
 * True for an error that LangChain's tool node lets end the run rather than answer: LangGraph's
 * control flow (an `interrupt()`, a drained run, a command to a parent graph), whose errors carry
 * `is_bubble_up`, the mark LangGraph's own `isGraphBubbleUp` reads. (An aborted run ends on its
 * own: LangGraph, and the binder's `abortable` wait, reject with the signal's reason.)
 */
export function endsTheRun(error: unknown): boolean {
  return (error as { is_bubble_up?: unknown } | null | undefined)?.is_bubble_up === true;
}

/**
 * The error tool message LangChain's tool node (`createAgent` without tool-calling middleware)
 * answers a tool's exception with, so that the model sees the error and goes on: the error as
 * text, then "Please fix your mistakes.", with `status: 'error'`.
 */
export function toolErrorMessage(error: unknown, call: ToolCall): ToolMessage {
  return new ToolMessage({
    content: `${String(error)}\n Please fix your mistakes.`,
    tool_call_id: call.id ?? '',
    name: call.name,
    status: 'error',
  });
}
