/**
 * Provider-native deferred loading against the default mode: the AI SDK example agent over the
 * 224-tool example catalog, each request run in both modes with the real provider package
 * (`@ai-sdk/anthropic`, `@ai-sdk/openai`) against a local fake provider server that answers with
 * the offline planner's decisions (what `pnpm demo -- --native` prints). Per provider and mode:
 * model calls per request, the tool-definition tokens the model's context holds per call, and the
 * calls whose `tools` array changed from the previous call, all read from the recorded bodies.
 */
import { type AgentMode, runNativeComparison } from '@tool-search/example-ai-sdk-agent';
import { type NativeProvider, nativeProviders } from '@tool-search/example-catalog';
import type { Progress } from '../progress';

export interface NativePlan {
  /** The requests each provider runs in each mode (the demo's). */
  readonly requests: readonly string[];
}

export interface NativeRow {
  readonly provider: NativeProvider;
  readonly mode: AgentMode;
  /**
   * `'per-request'`: each request in a new thread; `'one'`: every request in one thread, in order
   * (earlier loads restored at the start of each call; a request's first call compared with the
   * previous request's last).
   */
  readonly threads: 'per-request' | 'one';
  /** The provider package and model id it was asked for. */
  readonly model: string;
  readonly requests: number;
  /** Model calls over every request. */
  readonly modelCalls: number;
  /** Per request, in the plan's order. */
  readonly modelCallsPerRequest: readonly number[];
  /** Tool-definition tokens in the model's context, summed over every call. */
  readonly toolDefinitionTokens: number;
  /** Calls whose `tools` array differs from the previous call of the same request. */
  readonly toolListChanges: number;
  /** Calls that had a previous call in their thread (what a change is counted against). */
  readonly laterCalls: number;
  /** Requests whose answering called the tools the default mode called (native rows: the same tools as default). */
  readonly sameToolsAsDefault: number;
}

/** Runs every request of the plan through both modes, for each provider. */
export async function runNativeSuite(options: {
  plan: NativePlan;
  progress?: Progress;
}): Promise<NativeRow[]> {
  const { plan, progress } = options;
  const rows: NativeRow[] = [];
  progress?.phase('native deferred loading', nativeProviders.length * plan.requests.length * 4);
  for (const provider of nativeProviders) {
    for (const threads of ['per-request', 'one'] as const) {
      rows.push(...(await measure(provider, threads)));
    }
  }
  return rows;

  async function measure(provider: NativeProvider, threads: NativeRow['threads']): Promise<NativeRow[]> {
    const comparison = await runNativeComparison({
      provider,
      requests: plan.requests,
      oneThread: threads === 'one',
      onProgress: (_, mode) =>
        progress?.advance(
          1,
          `${provider}, ${mode}, ${threads === 'one' ? 'one thread' : 'a thread per request'}`,
        ),
    });
    return (['default', 'native'] as const).map((mode): NativeRow => {
      const runs = comparison.rows.map((row) => row[mode]);
      const sameTools = comparison.rows.filter(
        (row) => row[mode].trace.toolsCalled.join() === row.default.trace.toolsCalled.join(),
      ).length;
      return {
        provider,
        mode,
        threads,
        model: comparison.model,
        requests: runs.length,
        modelCalls: runs.reduce((total, run) => total + run.figures.modelCalls, 0),
        modelCallsPerRequest: runs.map((run) => run.figures.modelCalls),
        toolDefinitionTokens: runs.reduce((total, run) => total + run.figures.toolDefinitionTokens, 0),
        toolListChanges: runs.reduce((total, run) => total + run.figures.toolListChanges, 0),
        laterCalls:
          runs.reduce((total, run) => total + run.figures.modelCalls, 0) -
          (threads === 'one' ? 1 : runs.length),
        sameToolsAsDefault: sameTools,
      };
    });
  }
}
