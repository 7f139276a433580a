import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, type AIMessageChunk, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { Runnable } from '@langchain/core/runnables';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import {
  offlinePlannerLabel,
  type PlannerEvent,
  type PlannerTool,
  planNextStep,
} from '@tool-search/example-catalog';

export const offlineModelLabel = offlinePlannerLabel;

/** The conversation as the planner reads it (LangChain messages → neutral events). */
function toPlannerEvents(messages: readonly BaseMessage[]): PlannerEvent[] {
  const events: PlannerEvent[] = [];
  for (const message of messages) {
    const type = message.getType();
    if (type === 'human') events.push({ type: 'user', text: message.text });
    else if (AIMessage.isInstance(message)) {
      if (message.text) events.push({ type: 'assistant', text: message.text });
      for (const call of message.tool_calls ?? []) {
        events.push({ type: 'tool-call', toolCallId: call.id ?? '', toolName: call.name, input: call.args });
      }
    } else if (ToolMessage.isInstance(message)) {
      events.push({
        type: 'tool-result',
        toolCallId: message.tool_call_id,
        toolName: message.name ?? '',
        output: message.content,
        isError: message.status === 'error',
      });
    }
  }
  return events;
}

/** A bound tool as the planner reads it: name, description and JSON Schema, as a provider is sent them. */
function toPlannerTool(tool: BindToolsInput): PlannerTool[] {
  const converted = convertToOpenAITool(tool as Parameters<typeof convertToOpenAITool>[0]);
  if (converted.type !== 'function') return [];
  return [
    {
      name: converted.function.name,
      description: converted.function.description,
      parameters: converted.function.parameters as Record<string, unknown>,
    },
  ];
}

/**
 * A STAND-IN FOR AN LLM: the example catalog's offline planner as a LangChain chat model, so the
 * agent runs with no API key and no network. `createAgent` binds each step's tools with
 * `bindTools`; the planner reads them and the messages and does what a model does with tool
 * search: search with the request, load the best result, call it with arguments built from its
 * schema, then answer. `ChatOpenAI` or `ChatAnthropic` replaces it with no other change.
 */
export class OfflinePlannerChatModel extends BaseChatModel {
  readonly #tools: readonly PlannerTool[];

  constructor(tools: readonly PlannerTool[] = []) {
    super({});
    this.#tools = tools;
  }

  _llmType(): string {
    return 'offline-planner';
  }

  /** A model bound to exactly these tools (the agent calls this before every model call). */
  override bindTools(tools: BindToolsInput[]): Runnable<BaseLanguageModelInput, AIMessageChunk> {
    return new OfflinePlannerChatModel(tools.flatMap(toPlannerTool)) as unknown as Runnable<
      BaseLanguageModelInput,
      AIMessageChunk
    >;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const action = planNextStep({ events: toPlannerEvents(messages), tools: this.#tools });
    const message =
      action.type === 'text'
        ? new AIMessage(action.text)
        : new AIMessage({
            content: '',
            tool_calls: action.calls.map((call) => ({
              id: call.toolCallId,
              name: call.toolName,
              args: call.input,
              type: 'tool_call' as const,
            })),
          });
    return { generations: [{ text: action.type === 'text' ? action.text : '', message }] };
  }
}
