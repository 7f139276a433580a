// Mastra's own answer for a call to a tool a step did not have, found in the stored messages, so
// that tool search can replace it with the guard's message.
import type { ProcessInputStepArgs } from '@mastra/core/processors';

type StoredMessage = ProcessInputStepArgs['messages'][number];
type StoredPart = NonNullable<StoredMessage['content']['parts']>[number];
export type ToolInvocationPart = Extract<StoredPart, { type: 'tool-invocation' }>;

/** Mastra's answer for a call to a tool the step did not have (its `ToolNotFoundError`), and the name it quotes. */
const TOOL_NOT_FOUND_ANSWER = /^Tool "([\s\S]*)" not found\./;
/** The names Mastra keeps in its messages; it stores any other tool name as a placeholder (`unknown_tool`). */
const KEPT_TOOL_NAME = /^[\w-]+$/;

/**
 * The tool name, as the model wrote it, when an errored invocation holds Mastra's answer for a
 * call to a tool the step did not have (`Tool "x" not found. …`); undefined when it holds the
 * error of a tool that ran. Mastra 1.71 keeps no other mark of it: the error reaches the message
 * list and the step's results only as this text (the invocation itself holds Mastra's placeholder
 * for a name it could not keep). Should the text change, the answer is left as Mastra's.
 */
export function notFoundToolName(part: ToolInvocationPart): string | undefined {
  const { toolName } = part.toolInvocation;
  const errorText = (part.toolInvocation as { errorText?: unknown }).errorText;
  if (typeof errorText !== 'string') return undefined;
  const named = TOOL_NOT_FOUND_ANSWER.exec(errorText)?.[1];
  return named !== undefined && (named === toolName || !KEPT_TOOL_NAME.test(named)) ? named : undefined;
}

/** The tool invocations with these call ids that ended in an error, newest messages first. */
export function findErroredInvocations(
  messages: readonly StoredMessage[] | undefined,
  toolCallIds: ReadonlySet<string>,
): ToolInvocationPart[] {
  const found: ToolInvocationPart[] = [];
  if (!Array.isArray(messages)) return found;
  const wanted = new Set(toolCallIds);
  for (let index = messages.length - 1; index >= 0 && wanted.size > 0; index--) {
    const message = messages[index];
    if (message?.role !== 'assistant' || !Array.isArray(message.content?.parts)) continue;
    for (const part of message.content.parts) {
      if (part?.type !== 'tool-invocation' || !wanted.has(part.toolInvocation.toolCallId)) continue;
      wanted.delete(part.toolInvocation.toolCallId);
      if (part.toolInvocation.state === 'output-error') found.push(part);
    }
  }
  return found;
}
