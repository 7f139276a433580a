/**
 * Token counts of a model call's messages, as a provider receives them: each message serialised in
 * OpenAI's chat-completions format (`{"role":"tool","tool_call_id":…,"content":…}`, the same
 * convention as the tool definitions' function-tool format) and encoded with `gpt-tokenizer`
 * (o200k_base). The example agents capture the messages each model call was given (the AI SDK's and
 * Mastra's through a model middleware, LangChain's through a callback) and convert them to this
 * format; the trace counts what tool search added to them.
 */
import { countTokens } from 'gpt-tokenizer';

/** A tool call of an assistant message, in OpenAI's chat-completions format. */
export interface OpenAIChatToolCall {
  readonly id: string;
  readonly type?: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/**
 * One message of a model call in OpenAI's chat-completions format (`role` `system`, `developer`,
 * `user`, `assistant` or `tool`). Loose on purpose: a provider's own converter's output (LangChain's
 * `convertMessagesToCompletionsMessageParams`) fits as it is.
 */
export interface OpenAIChatMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly name?: string;
  readonly tool_calls?: readonly OpenAIChatToolCall[];
  readonly tool_call_id?: string;
  readonly [field: string]: unknown;
}

export interface PromptTokens {
  /** Tokens of every message of the call (system, user, assistant, tool), each serialised as JSON. */
  readonly messages: number;
  /**
   * Of those, the tokens of the meta-tools' calls and results: what the messages would lose if the
   * `search_tools` and `load_tool` calls and their results were taken out.
   */
  readonly searchMessages: number;
  /**
   * Of those, the tokens of tool search's system-prompt paragraph (`instructions`): what the
   * system messages would lose without it (a message that holds only the paragraph counts whole).
   * 0 when the paragraph is not in them.
   */
  readonly instructions: number;
}

export interface CountPromptTokensOptions {
  /** The tools whose calls and results are counted in `searchMessages` (default `search_tools`, `load_tool`). */
  readonly metaToolNames?: readonly string[];
  /** Tool search's system-prompt paragraph, counted in `instructions` where a system message holds it. */
  readonly instructions?: string;
}

/** The meta-tools of tool search, whose calls and results only tool search adds to a conversation. */
export const searchToolNames: readonly string[] = ['search_tools', 'load_tool'];

/** Tokens of one message serialised as JSON (o200k_base). */
export function countMessageTokens(message: OpenAIChatMessage): number {
  return countTokens(JSON.stringify(message));
}

const isEmptyContent = (content: unknown) =>
  content === undefined ||
  content === null ||
  content === '' ||
  (Array.isArray(content) && content.length === 0);

/** A text without the paragraph, and the blank line that joined it to the rest. */
function withoutParagraph(text: string, paragraph: string): string {
  if (text === paragraph) return '';
  for (const joined of [`\n\n${paragraph}`, `${paragraph}\n\n`, paragraph]) {
    if (text.includes(joined)) return text.replace(joined, '');
  }
  return text;
}

/** A system message without the paragraph (undefined when nothing else is left of it); the same message when it does not hold it. */
function systemMessageWithout(message: OpenAIChatMessage, paragraph: string): OpenAIChatMessage | undefined {
  const { content } = message;
  if (typeof content === 'string') {
    const rest = withoutParagraph(content, paragraph);
    if (rest === content) return message;
    return rest === '' ? undefined : { ...message, content: rest };
  }
  if (!Array.isArray(content)) return message;
  let changed = false;
  const parts = content.flatMap((part: unknown) => {
    const text = (part as { type?: unknown; text?: unknown } | null)?.text;
    if ((part as { type?: unknown } | null)?.type !== 'text' || typeof text !== 'string') return [part];
    const rest = withoutParagraph(text, paragraph);
    if (rest === text) return [part];
    changed = true;
    return rest === '' ? [] : [{ ...(part as object), text: rest }];
  });
  if (!changed) return message;
  return parts.length === 0 ? undefined : { ...message, content: parts };
}

/**
 * Tokens of a model call's messages, of the meta-tools' calls and results among them, and of tool
 * search's paragraph in its system messages: a tool message answering a meta-tool call counts
 * whole; an assistant message counts whole when it holds only meta-tool calls, else by what
 * removing those calls takes off it; a system message by what removing the paragraph takes off it.
 */
export function countPromptTokens(
  messages: readonly OpenAIChatMessage[],
  options: CountPromptTokensOptions = {},
): PromptTokens {
  const meta = new Set(options.metaToolNames ?? searchToolNames);
  const callNames = new Map<string, string>();
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) callNames.set(call.id, call.function.name);
  }
  let total = 0;
  let searchMessages = 0;
  let instructions = 0;
  for (const message of messages) {
    const tokens = countMessageTokens(message);
    total += tokens;
    if ((message.role === 'system' || message.role === 'developer') && options.instructions) {
      const without = systemMessageWithout(message, options.instructions);
      if (without !== message) instructions += tokens - (without ? countMessageTokens(without) : 0);
      continue;
    }
    if (message.role === 'tool') {
      const name = callNames.get(String(message.tool_call_id)) ?? message.name;
      if (name !== undefined && meta.has(name)) searchMessages += tokens;
      continue;
    }
    const calls = message.tool_calls ?? [];
    const kept = calls.filter((call) => !meta.has(call.function.name));
    if (kept.length === calls.length) continue;
    if (kept.length === 0 && isEmptyContent(message.content)) {
      searchMessages += tokens;
      continue;
    }
    const { tool_calls: _removed, ...rest } = message;
    const without: OpenAIChatMessage = kept.length > 0 ? { ...rest, tool_calls: kept } : rest;
    searchMessages += tokens - countMessageTokens(without);
  }
  return { messages: total, searchMessages, instructions };
}
