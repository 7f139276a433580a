import type { LanguageModel } from 'ai';
import { createOfflineModel, offlineModelLabel } from './offline-model';

export interface ModelChoice {
  readonly model: LanguageModel;
  /** What the trace prints as the model. */
  readonly label: string;
  readonly offline: boolean;
}

/** `'auto'`: a real model when a provider key is set, else the offline planner. */
export type ModelOption = 'auto' | 'offline' | LanguageModel;

/**
 * The model the agent runs: with `OPENAI_API_KEY` OpenAI (`gpt-5-mini`), else with
 * `ANTHROPIC_API_KEY` Anthropic (`claude-haiku-4-5`), else the offline planner (a stand-in for an
 * LLM). `TOOL_SEARCH_MODEL` picks another model id of that provider.
 */
export async function resolveModel(
  option: ModelOption = 'auto',
  env: NodeJS.ProcessEnv = process.env,
): Promise<ModelChoice> {
  if (
    typeof option === 'object' ||
    (typeof option === 'string' && option !== 'auto' && option !== 'offline')
  ) {
    const label = typeof option === 'string' ? option : `${option.provider} ${option.modelId}`;
    return { model: option, label, offline: false };
  }
  if (option === 'auto' && env.OPENAI_API_KEY) {
    const { createOpenAI } = await import('@ai-sdk/openai');
    const modelId = env.TOOL_SEARCH_MODEL || 'gpt-5-mini';
    const openai = createOpenAI({ apiKey: env.OPENAI_API_KEY });
    return { model: openai(modelId), label: `OpenAI ${modelId}`, offline: false };
  }
  if (option === 'auto' && env.ANTHROPIC_API_KEY) {
    const { createAnthropic } = await import('@ai-sdk/anthropic');
    const modelId = env.TOOL_SEARCH_MODEL || 'claude-haiku-4-5';
    const anthropic = createAnthropic({ apiKey: env.ANTHROPIC_API_KEY });
    return { model: anthropic(modelId), label: `Anthropic ${modelId}`, offline: false };
  }
  return { model: createOfflineModel(), label: offlineModelLabel, offline: true };
}
