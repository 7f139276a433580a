import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { BaseMessage } from '@langchain/core/messages';
import { convertMessagesToCompletionsMessageParams } from '@langchain/openai';
import type { OpenAIChatMessage } from '@tool-search/example-catalog';

/**
 * LangChain messages in OpenAI's chat-completions format, converted by `@langchain/openai`'s own
 * converter (what `ChatOpenAI` sends on its chat-completions path): a tool message keeps its tool's
 * name and call id, an AI message's tool calls their arguments as JSON.
 */
export function toOpenAIChatMessages(messages: readonly BaseMessage[]): OpenAIChatMessage[] {
  return convertMessagesToCompletionsMessageParams({ messages: [...messages] }) as OpenAIChatMessage[];
}

/**
 * A callback handler that reports the messages every chat model call is given (the system message
 * the agent and its middleware built, then the conversation), in OpenAI's chat-completions format,
 * before the model runs: pass it in the run's `callbacks`. It is awaited, so each report lands
 * before the model answers.
 */
export class PromptCaptureHandler extends BaseCallbackHandler {
  readonly name = 'prompt-capture';
  readonly #onPrompt: (messages: OpenAIChatMessage[]) => void;

  constructor(onPrompt: (messages: OpenAIChatMessage[]) => void) {
    super({ _awaitHandler: true });
    this.#onPrompt = onPrompt;
  }

  override handleChatModelStart(_model: unknown, prompts: BaseMessage[][]): void {
    for (const messages of prompts) this.#onPrompt(toOpenAIChatMessages(messages));
  }
}
