import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { OfflinePlannerChatModel, offlineModelLabel } from './offline-model';

export interface ModelChoice {
  readonly model: BaseChatModel;
  /** What the trace prints as the model. */
  readonly label: string;
  readonly offline: boolean;
}

/** `'auto'`: a real model when a provider key is set, else the offline planner. */
export type ModelOption = 'auto' | 'offline' | BaseChatModel;

/**
 * The chat model the agent runs: with `OPENAI_API_KEY` `ChatOpenAI` (`gpt-5-mini`), else with
 * `ANTHROPIC_API_KEY` `ChatAnthropic` (`claude-haiku-4-5`), else the offline planner (a stand-in
 * for an LLM). `TOOL_SEARCH_MODEL` picks another model id of that provider.
 */
export async function resolveModel(
  option: ModelOption = 'auto',
  env: NodeJS.ProcessEnv = process.env,
): Promise<ModelChoice> {
  if (typeof option === 'object') return { model: option, label: option._llmType(), offline: false };
  if (option === 'auto' && env.OPENAI_API_KEY) {
    const { ChatOpenAI } = await import('@langchain/openai');
    const model = env.TOOL_SEARCH_MODEL || 'gpt-5-mini';
    return {
      model: new ChatOpenAI({ model, apiKey: env.OPENAI_API_KEY }),
      label: `OpenAI ${model}`,
      offline: false,
    };
  }
  if (option === 'auto' && env.ANTHROPIC_API_KEY) {
    const { ChatAnthropic } = await import('@langchain/anthropic');
    const model = env.TOOL_SEARCH_MODEL || 'claude-haiku-4-5';
    return {
      model: new ChatAnthropic({ model, apiKey: env.ANTHROPIC_API_KEY }),
      label: `Anthropic ${model}`,
      offline: false,
    };
  }
  return { model: new OfflinePlannerChatModel(), label: offlineModelLabel, offline: true };
}
