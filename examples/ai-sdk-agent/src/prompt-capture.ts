import type { OpenAIChatMessage } from '@tool-search/example-catalog';
import { type LanguageModel, wrapLanguageModel } from 'ai';

/** The prompt a provider model is given (`LanguageModelV4Prompt`), read off `wrapLanguageModel`'s middleware. */
type LanguageModelMiddleware = Parameters<typeof wrapLanguageModel>[0]['middleware'];
type TransformParams = NonNullable<
  Extract<LanguageModelMiddleware, { transformParams?: unknown }>['transformParams']
>;
type CallOptions = Parameters<TransformParams>[0]['params'];
export type ProviderPrompt = CallOptions['prompt'];
type ToolResultOutput = Extract<
  ProviderPrompt[number],
  { role: 'tool' }
>['content'][number] extends infer PART
  ? PART extends { type: 'tool-result'; output: infer OUTPUT }
    ? OUTPUT
    : never
  : never;

const json = (value: unknown) => JSON.stringify(value) ?? '';

/** A tool call's arguments as `@ai-sdk/openai` sends them: a JSON object. */
function toolCallArguments(input: unknown): string {
  if (typeof input === 'string') return input;
  return json(typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {});
}

/** A tool result's content as `@ai-sdk/openai` sends it. */
function toolResultContent(output: ToolResultOutput): string {
  switch (output.type) {
    case 'text':
      return output.value;
    case 'error-text':
    case 'error-json':
      return json({ error: output.value });
    case 'execution-denied':
      return output.reason ?? 'Tool call execution denied.';
    default:
      return json(output.value);
  }
}

/**
 * A provider prompt (what an AI SDK model's `doGenerate` / `doStream` is given) in OpenAI's
 * chat-completions format, as `@ai-sdk/openai`'s chat model converts it: system text, a user
 * message's text, an assistant message's text and tool calls (arguments as JSON), one tool message
 * per tool result (JSON output stringified). Files are sent by reference (`{type:'file'}`), not
 * counted by their bytes; reasoning parts are left out.
 */
export function toOpenAIChatMessages(prompt: ProviderPrompt): OpenAIChatMessage[] {
  const messages: OpenAIChatMessage[] = [];
  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        messages.push({ role: 'system', content: message.content });
        break;
      case 'user': {
        const [only, ...more] = message.content;
        if (only?.type === 'text' && more.length === 0) messages.push({ role: 'user', content: only.text });
        else
          messages.push({
            role: 'user',
            content: message.content.map((part) =>
              part.type === 'text' ? { type: 'text', text: part.text } : { type: 'file' },
            ),
          });
        break;
      }
      case 'assistant': {
        let text = '';
        const toolCalls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] =
          [];
        for (const part of message.content) {
          if (part.type === 'text') text += part.text;
          else if (part.type === 'tool-call')
            toolCalls.push({
              id: part.toolCallId,
              type: 'function',
              function: { name: part.toolName, arguments: toolCallArguments(part.input) },
            });
        }
        messages.push({
          role: 'assistant',
          content: toolCalls.length > 0 ? text || null : text,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        });
        break;
      }
      case 'tool':
        for (const part of message.content) {
          if (part.type !== 'tool-result') continue;
          messages.push({
            role: 'tool',
            tool_call_id: part.toolCallId,
            content: toolResultContent(part.output),
          });
        }
        break;
      default:
        break;
    }
  }
  return messages;
}

/**
 * The model, wrapped so that every call reports the messages it is given (in OpenAI's
 * chat-completions format) before the model runs; the model itself is unchanged. A model given by
 * id (a string, resolved by the AI SDK's gateway) is returned as it is: its messages are not captured.
 */
export function capturePrompts(
  model: Exclude<LanguageModel, string>,
  onPrompt: (messages: OpenAIChatMessage[]) => void,
): ReturnType<typeof wrapLanguageModel>;
export function capturePrompts(
  model: LanguageModel,
  onPrompt: (messages: OpenAIChatMessage[]) => void,
): LanguageModel;
export function capturePrompts(
  model: LanguageModel,
  onPrompt: (messages: OpenAIChatMessage[]) => void,
): LanguageModel {
  if (typeof model !== 'object') return model;
  return wrapLanguageModel({
    model,
    middleware: {
      transformParams: async ({ params }) => {
        onPrompt(toOpenAIChatMessages(params.prompt));
        return params;
      },
    },
  });
}
