import { demoRequests, nativeProviders } from '@tool-search/example-catalog';
import { beforeAll, describe, expect, it } from 'vitest';
import { type NativeComparison, runNativeComparison } from './native-comparison';

// The goals of provider-native deferred loading, on every demo request, with the real provider
// packages against the local fake provider server: one model call fewer than the default mode
// (no load_tool round trip), and a tools array that never changes (the default mode changes it
// on every load).
describe.each(nativeProviders)('native deferred loading with %s, against the default mode', (provider) => {
  let comparison: NativeComparison;
  beforeAll(async () => {
    comparison = await runNativeComparison({
      provider,
      requests: demoRequests.map((request) => request.text),
    });
  }, 120_000);

  it('calls the tools a good run calls, in both modes', () => {
    for (const [index, row] of comparison.rows.entries()) {
      expect(row.default.trace.toolsCalled).toEqual(demoRequests[index]!.expectedTools);
      expect(row.native.trace.toolsCalled).toEqual(demoRequests[index]!.expectedTools);
      expect(row.native.actions).not.toContain('load_tool');
      expect(row.default.actions).toContain('load_tool');
    }
  });

  it('makes one model call fewer than the default mode on every request', () => {
    for (const row of comparison.rows) {
      expect(row.native.figures.modelCalls, row.request).toBe(row.default.figures.modelCalls - 1);
      expect(row.native.figures.modelCalls).toBe(row.native.trace.tokens.modelCalls);
    }
  });

  it('never changes the tools array in the native mode; the default mode changes it on the load', () => {
    for (const row of comparison.rows) {
      expect(row.native.figures.toolListChanges, row.request).toBe(0);
      expect(row.default.figures.toolListChanges, row.request).toBe(1);
    }
  });

  it('holds only the search tool before the search, and the referred tools after it', () => {
    for (const [index, row] of comparison.rows.entries()) {
      const [first, ...later] = row.native.figures.calls;
      expect(first!.inContext).toHaveLength(1);
      // Every catalog tool is sent (deferred), from the first call on.
      expect(first!.toolsSent).toBeGreaterThan(200);
      for (const call of later) {
        expect(call.inContext).toEqual(expect.arrayContaining([...demoRequests[index]!.expectedTools]));
        expect(call.toolDefinitionTokens).toBeGreaterThan(first!.toolDefinitionTokens);
      }
      // The default mode sends only what is loaded: its tools array is what its context holds.
      for (const call of row.default.figures.calls) expect(call.toolsSent).toBe(call.inContext.length);
    }
  });
});

describe.each(nativeProviders)('native deferred loading with %s, every request in one thread', (provider) => {
  const [restaurant, weather] = demoRequests;
  let comparison: NativeComparison;
  beforeAll(async () => {
    comparison = await runNativeComparison({
      provider,
      requests: [restaurant!.text, weather!.text],
      oneThread: true,
    });
  }, 120_000);

  it('brings the tools the thread loaded back at the start of the next call, without touching the tools array', () => {
    const [first, second] = comparison.rows;
    // The second request starts with the first one's tool in context (tool_addition / additional_tools).
    expect(second!.native.figures.calls[0]!.inContext).toEqual(
      expect.arrayContaining([...restaurant!.expectedTools]),
    );
    expect(first!.native.figures.calls[0]!.inContext).toHaveLength(1);
    // Its first call is compared with the first request's last: never a change.
    for (const row of comparison.rows) expect(row.native.figures.toolListChanges).toBe(0);
    expect(second!.native.trace.toolsCalled).toEqual(weather!.expectedTools);
    expect(second!.native.figures.modelCalls).toBe(second!.default.figures.modelCalls - 1);
    // The default mode: the second request's first call starts where the first ended, then loads.
    expect(second!.default.figures.calls[0]!.toolListChanged).toBe(false);
    expect(second!.default.figures.toolListChanges).toBe(1);
  });

  it('collects the AI SDK warnings once each, instead of printing them on every call', () => {
    // @ai-sdk/openai warns about a catalog schema on every call that sends it: here once.
    if (provider === 'openai')
      expect(comparison.warnings).toEqual(expect.arrayContaining([expect.stringContaining('propertyNames')]));
    expect((globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS).toBeUndefined();
  });
});
