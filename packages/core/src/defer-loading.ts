/**
 * Provider options keyed by provider (`{ anthropic: { deferLoading: true } }`, as the AI SDK
 * and Mastra carry them on a tool) without any provider's `deferLoading: true`, or undefined
 * when none asks for it. Tool search sends a tool once it is loaded: still marked for the
 * provider's own deferred loading, the provider would hide it again behind its own tool
 * search, or refuse a request that has no such search tool.
 */
export function withoutDeferLoading(providerOptions: unknown): Record<string, unknown> | undefined {
  if (providerOptions === null || typeof providerOptions !== 'object' || Array.isArray(providerOptions)) {
    return undefined;
  }
  let deferred = false;
  // Object.fromEntries defines each key as an own property, so a provider named `__proto__` stays data.
  const entries = Object.entries(providerOptions).map(([provider, options]): [string, unknown] => {
    if (
      options === null ||
      typeof options !== 'object' ||
      (options as { deferLoading?: unknown }).deferLoading !== true
    ) {
      return [provider, options];
    }
    deferred = true;
    return [provider, Object.fromEntries(Object.entries(options).filter(([key]) => key !== 'deferLoading'))];
  });
  return deferred ? Object.fromEntries(entries) : undefined;
}
