/**
 * Provider-native deferred loading (issue 53), the neutral part: which mode a request runs in.
 * In native mode every catalog tool is sent with the provider's own deferral, so the tool list
 * never changes; `search_tools` refers the tools it finds (it loads them, as under autoLoad, and
 * lists them under `referred`), the adapter turns those names into the provider's references, and
 * at the start of a call the thread's earlier loads are listed (`StepPlan.native.restore`) for the
 * adapter to add mid-conversation. See docs/native-deferral.md at the repository root.
 */
import { ToolSearchError } from './errors';

/** The providers whose native deferred loading an adapter can translate to. */
export type NativeProvider = 'anthropic' | 'openai';

/** `RequestOptions.native`: ask for native mode for one request. */
export interface NativeDeferralOptions {
  /**
   * `'auto'`: native when `modelProvider` names a supported provider, the default mode otherwise;
   * `'anthropic'` or `'openai'`: native with that provider's wire shapes, whatever the model says
   * (a gateway that speaks it under another provider id).
   */
  readonly provider: 'auto' | NativeProvider;
  /**
   * The model's provider id as the framework reports it (the AI SDK's `model.provider`:
   * `'anthropic.messages'`, `'openai.responses'`, `'openai.chat'`…). Read by `'auto'` only.
   */
  readonly modelProvider?: string;
}

/** Why a request runs in the mode it runs in (the `mode` event's `reason`). */
export type NativeModeReason = 'requested' | 'supported-provider' | 'unsupported-provider';

export interface NativeModeDecision {
  readonly mode: 'native' | 'default';
  /** The provider whose wire shapes the adapter uses; undefined in the default mode. */
  readonly provider: NativeProvider | undefined;
  readonly reason: NativeModeReason;
}

const PROVIDERS: readonly NativeDeferralOptions['provider'][] = ['auto', 'anthropic', 'openai'];

/**
 * The provider a model's provider id stands for, when that provider has client-side deferred
 * loading: Anthropic's Messages API (`anthropic`, `anthropic.messages`, `anthropic.*`) and
 * OpenAI's Responses API (`openai.responses`). OpenAI's Chat Completions (`openai.chat`) and
 * every other provider have none.
 */
export function nativeProviderOf(modelProvider: unknown): NativeProvider | undefined {
  if (typeof modelProvider !== 'string') return undefined;
  const id = modelProvider.toLowerCase();
  if (id === 'anthropic' || id.startsWith('anthropic.')) return 'anthropic';
  if (id === 'openai.responses' || id.startsWith('openai.responses.')) return 'openai';
  return undefined;
}

/** Checks `RequestOptions.native` (its option names are checked with the request's). */
export function checkNativeDeferralOptions(value: unknown): NativeDeferralOptions | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `startRequest's native must be an object { provider: 'auto' | 'anthropic' | 'openai', modelProvider? }, got ${Array.isArray(value) ? 'an array' : typeof value}`,
    );
  }
  const { provider, modelProvider } = value as NativeDeferralOptions;
  if (!PROVIDERS.includes(provider)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `startRequest's native.provider must be 'auto', 'anthropic' or 'openai', got ${typeof provider === 'string' ? JSON.stringify(provider.slice(0, 40)) : typeof provider}`,
    );
  }
  if (modelProvider !== undefined && typeof modelProvider !== 'string') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `startRequest's native.modelProvider must be a string, got ${typeof modelProvider}`,
    );
  }
  return value as NativeDeferralOptions;
}

/** The mode of a request that asked for native deferral. */
export function decideNativeMode(options: NativeDeferralOptions): NativeModeDecision {
  if (options.provider !== 'auto') return { mode: 'native', provider: options.provider, reason: 'requested' };
  const provider = nativeProviderOf(options.modelProvider);
  return provider === undefined
    ? { mode: 'default', provider: undefined, reason: 'unsupported-provider' }
    : { mode: 'native', provider, reason: 'supported-provider' };
}
