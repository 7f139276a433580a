import { MockLanguageModelV4 } from 'ai/test';

// The provider types, read off the SDK's own mock model.
type CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type Content = GenerateResult['content'][number];
type Prompt = CallOptions['prompt'];

const metaTools = new Set(['search_tools', 'load_tool']);
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

function lastUserText(prompt: Prompt): string {
  for (const message of [...prompt].reverse()) {
    if (message.role !== 'user') continue;
    return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  }
  return '';
}

const unwrap = (output: unknown): unknown =>
  typeof output === 'object' && output !== null && 'value' in output
    ? (output as { value: unknown }).value
    : output;

/**
 * A STAND-IN FOR AN LLM (the AI SDK's `MockLanguageModelV4`), so the example runs with no API key
 * and no network. It does what a model does with tool search: call a loaded tool that is offered,
 * else search, load the best result, call it, then answer from the result. Swap in any provider's
 * model (`openai('gpt-5-mini')`, ...) and nothing else changes.
 */
export function createOfflineModel() {
  let nextId = 0;
  const toolCall = (toolName: string, input: unknown): Content[] => [
    { type: 'tool-call', toolCallId: `call-${++nextId}`, toolName, input: JSON.stringify(input) },
  ];
  const answer = (text: string): Content[] => [{ type: 'text', text: `[offline model] ${text}` }];

  function decide(prompt: Prompt, offered: readonly string[]): Content[] {
    const request = lastUserText(prompt);
    const city = /\bin ([A-Z]\p{L}+)/u.exec(request)?.[1] ?? 'Rome';
    const loaded = offered.filter((name) => !metaTools.has(name));
    const last = prompt.at(-1);
    if (last?.role === 'tool') {
      const result = last.content.find((part) => part.type === 'tool-result');
      if (result?.type === 'tool-result') {
        const value = unwrap(result.output) as { results?: Array<{ name: string }> } | undefined;
        if (result.toolName === 'search_tools') {
          const best = value?.results?.[0]?.name;
          return best ? toolCall('load_tool', { toolName: best }) : answer('I found no tool for that.');
        }
        if (result.toolName === 'load_tool' && loaded[0]) return toolCall(loaded[0], { city });
        return answer(`${result.toolName} says ${JSON.stringify(value)}`);
      }
    }
    // A tool this thread loaded earlier (in any call, on any server) is offered from the first step.
    if (loaded[0]) return toolCall(loaded[0], { city });
    return toolCall('search_tools', { query: request });
  }

  const toolsPerStep: string[][] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async (options): Promise<GenerateResult> => {
      const offered = (options.tools ?? []).map((tool) => tool.name);
      toolsPerStep.push(offered);
      const content = decide(options.prompt, offered);
      const finishReason = content.some((part) => part.type === 'tool-call')
        ? ({ unified: 'tool-calls', raw: undefined } as const)
        : ({ unified: 'stop', raw: undefined } as const);
      return { content, finishReason, usage, warnings: [] };
    },
  });
  return { model, toolsPerStep };
}
