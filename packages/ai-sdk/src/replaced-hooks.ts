import type { ReplacedHook } from '@tool-search/core';
import { type ModelMessage, NoSuchToolError, type StepResult, type ToolSet } from 'ai';

/** Which of the hooks of one `createToolSearch` have been warned about (once each). */
export type WarnedHooks = Set<ReplacedHook>;

const WARNINGS: Record<ReplacedHook, string> = {
  'step-preparation':
    "@tool-search/ai-sdk: a prepareStep given next to ...toolSearch.forCall() replaced tool search's, so the tools the model loads are never made active (the model is told so). Give yours to forCall({ prepareStep }), or pass prepareStep: composePrepareStep(call.prepareStep, yours), composePrepareStep being exported by @tool-search/ai-sdk.",
  'call-repair':
    '@tool-search/ai-sdk: a repairToolCall given next to ...toolSearch.forCall() replaced tool search\'s, so a call of a tool that is not loaded gets the SDK\'s "unavailable tool" error instead of what to do (search, then load), and no deny event. Give yours to forCall({ repairToolCall }), which combines it with ours.',
};

/** One console warning per tool search and hook: the developer's fix, not the model's. */
export function warnReplaced(warned: WarnedHooks, hook: ReplacedHook): void {
  if (warned.has(hook)) return;
  warned.add(hook);
  console.warn(WARNINGS[hook]);
}

/**
 * Whether a tool call is an approved one that the SDK runs from the history before the call's
 * first step: the history ends with a tool message holding an approval response for it (the
 * SDK reads approvals from the last message only). A call the model makes in a step is never
 * in the messages its tools get, which end before the model's answer.
 */
export function isApprovedReplay(toolCallId: unknown, messages: readonly ModelMessage[]): boolean {
  const last = messages.at(-1);
  if (typeof toolCallId !== 'string' || last?.role !== 'tool' || !Array.isArray(last.content)) return false;
  const approvals = new Set<string>();
  for (const part of last.content) if (part.type === 'tool-approval-response') approvals.add(part.approvalId);
  if (approvals.size === 0) return false;
  return messages.some(
    (message) =>
      message.role === 'assistant' &&
      Array.isArray(message.content) &&
      message.content.some(
        (part) =>
          part.type === 'tool-approval-request' &&
          part.toolCallId === toolCallId &&
          approvals.has(part.approvalId),
      ),
  );
}

/**
 * Whether a step's calls were refused as naming no tool of the step without asking our
 * repair: every such call goes to the call's `repairToolCall` (unless the step's tool choice
 * is `'none'`), so another function answered them.
 */
export function refusedWithoutOurRepair(
  step: StepResult<ToolSet> | undefined,
  repaired: ReadonlySet<string>,
): boolean {
  return (
    step?.toolCalls.some(
      (call) =>
        call.invalid === true && NoSuchToolError.isInstance(call.error) && !repaired.has(call.toolCallId),
    ) ?? false
  );
}
