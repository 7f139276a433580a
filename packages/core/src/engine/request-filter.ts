// Owns the filter's decisions for one request: each (phase, tool) asked once and memoised for the
// life of the request, bounded by filterTimeoutMs, failing closed (a throw, a timeout or an answer
// that is not a boolean refuses the tool and is reported as a `filter-error` event).
import { failAfter } from '../clock';
import { ToolSearchError } from '../errors';
import type { CatalogEntry, Clock, FilterPhase, ToolFilter, ToolSearchEvent } from '../types';
import { isPromiseLike } from './promise-like';

export interface RequestFilter<TTool> {
  /** Whether the filter allows the tool in the phase; `true` at once without a filter. */
  allowed(
    name: string,
    tool: TTool | undefined,
    phase: FilterPhase,
    metadata?: Readonly<Record<string, unknown>>,
  ): Promise<boolean> | boolean;
  /** {@link RequestFilter.allowed} for a catalog entry, under its canonical name. */
  entryAllowed(entry: CatalogEntry<TTool>, phase: FilterPhase): Promise<boolean> | boolean;
}

export interface RequestFilterOptions<TTool, TContext> {
  readonly filter: ToolFilter<TTool, TContext> | undefined;
  readonly filterTimeoutMs: number;
  readonly requestContext: TContext | undefined;
  readonly threadId: string;
  readonly clock: Clock;
  readonly emit: (event: ToolSearchEvent) => void;
}

export function createRequestFilter<TTool, TContext>(
  options: RequestFilterOptions<TTool, TContext>,
): RequestFilter<TTool> {
  const { filter, filterTimeoutMs, requestContext, threadId, clock, emit } = options;
  const filterMemo = new Map<string, Promise<boolean>>();
  function allowed(
    name: string,
    tool: TTool | undefined,
    phase: FilterPhase,
    metadata?: Readonly<Record<string, unknown>>,
  ): Promise<boolean> | boolean {
    if (!filter) return true;
    const key = `${phase}\u0000${name}`;
    let decision = filterMemo.get(key);
    if (!decision) {
      decision = (async () => {
        try {
          const answer = filter({
            toolName: name,
            tool: tool as TTool,
            requestContext,
            phase,
            ...(metadata !== undefined ? { metadata } : {}),
          });
          // Fail closed: a policy that does not answer refuses the tool, as one that throws does.
          const verdict: unknown = isPromiseLike(answer)
            ? await failAfter(
                answer,
                filterTimeoutMs,
                clock,
                'FILTER_TIMEOUT',
                `The filter did not decide on ${JSON.stringify(name)} (${phase}) within ${filterTimeoutMs} ms.`,
              )
            : answer;
          // Only `true` allows: 'false', { allowed: false } or 1 are a broken policy, not a yes.
          if (typeof verdict !== 'boolean') throw nonBooleanVerdict(verdict, name, phase);
          return verdict;
        } catch (error) {
          emit({ type: 'filter-error', threadId, time: clock.now(), toolName: name, phase, error });
          return false;
        }
      })();
      filterMemo.set(key, decision);
    }
    return decision;
  }
  return {
    allowed,
    entryAllowed: (entry, phase) => allowed(entry.descriptor.name, entry.tool, phase, entry.metadata),
  };
}

/** The error a filter's answer that is not a boolean is reported with (the tool is refused). */
function nonBooleanVerdict(verdict: unknown, toolName: string, phase: FilterPhase): ToolSearchError {
  const kind = verdict === null ? 'null' : Array.isArray(verdict) ? 'an array' : typeof verdict;
  return new ToolSearchError(
    'INVALID_OPTIONS',
    `The filter answered ${kind} for ${JSON.stringify(toolName)} (${phase}), not a boolean: only true allows a tool, so it was refused.`,
  );
}
