// Owns the resolution of lazily resolved tools for one request: each entry with a `resolve` is
// resolved at most once per request (never shared with another request, so a tool resolved for one
// caller never runs under another's identity), bounded by resolveTimeoutMs (its signal aborted
// then), and a failure reported as a `resolve-error` event and kept for the request.
import { failAfter } from '../clock';
import { ToolSearchError } from '../errors';
import { noteResolvedEntry } from '../lazy-tools';
import type { CatalogEntry, Clock, ToolSearchEvent } from '../types';

/** Where a resolution was asked for: by `load_tool`, or by a step showing a loaded tool. */
export type ResolvePhase = 'load' | 'active';

export type ResolveOutcome<TTool> =
  | { readonly ok: true; readonly entry: CatalogEntry<TTool> }
  | { readonly ok: false; readonly error: ToolSearchError; readonly reason: string };

export interface ToolResolution<TTool> {
  /**
   * The entry ready to run: the entry itself when it has no `resolve` (synchronously), else the
   * entry with the tool its `resolve` answered for this request.
   */
  resolved(
    entry: CatalogEntry<TTool>,
    phase: ResolvePhase,
  ): ResolveOutcome<TTool> | Promise<ResolveOutcome<TTool>>;
}

export interface ToolResolutionOptions<TContext> {
  readonly threadId: string;
  readonly requestContext: TContext | undefined;
  readonly resolveTimeoutMs: number;
  readonly clock: Clock;
  readonly emit: (event: ToolSearchEvent) => void;
}

/** The longest part of a resolver's error message the model is shown. */
const MAX_REASON_LENGTH = 300;

export function createToolResolution<TTool, TContext>(
  options: ToolResolutionOptions<TContext>,
): ToolResolution<TTool> {
  const { threadId, requestContext, resolveTimeoutMs, clock, emit } = options;
  // Keyed by the entry object: two catalogs' tools of one name are two resolutions.
  const memo = new Map<CatalogEntry<TTool>, Promise<ResolveOutcome<TTool>>>();

  async function resolveNow(entry: CatalogEntry<TTool>, phase: ResolvePhase): Promise<ResolveOutcome<TTool>> {
    const toolName = entry.descriptor.name;
    const controller = new AbortController();
    try {
      const answer = (async () =>
        entry.resolve!({ toolName, threadId, requestContext, signal: controller.signal }))();
      const tool = await failAfter(
        answer,
        resolveTimeoutMs,
        clock,
        'RESOLVE_TIMEOUT',
        `Tool "${toolName}" was not resolved within ${resolveTimeoutMs} ms.`,
      );
      if (tool === undefined || tool === null) {
        throw new ToolSearchError('RESOLVE_FAILED', `Tool "${toolName}" resolved to nothing.`);
      }
      const { resolve: _resolve, ...rest } = entry;
      const resolved: CatalogEntry<TTool> = { ...rest, tool: tool as TTool };
      noteResolvedEntry(resolved, entry);
      return { ok: true, entry: resolved };
    } catch (caught) {
      if (!controller.signal.aborted) controller.abort(caught);
      const error =
        ToolSearchError.isInstance(caught) &&
        (caught.code === 'RESOLVE_TIMEOUT' || caught.code === 'RESOLVE_FAILED')
          ? caught
          : new ToolSearchError(
              'RESOLVE_FAILED',
              `Tool "${toolName}" could not be resolved: ${messageOf(caught)}`,
              {
                cause: caught,
              },
            );
      emit({ type: 'resolve-error', threadId, time: clock.now(), toolName, phase, error });
      return { ok: false, error, reason: clip(error.message) };
    }
  }

  return {
    resolved(entry, phase) {
      if (typeof entry.resolve !== 'function') return { ok: true, entry };
      let outcome = memo.get(entry);
      if (!outcome) {
        outcome = resolveNow(entry, phase);
        memo.set(entry, outcome);
      }
      return outcome;
    },
  };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : String(error);
}

function clip(text: string): string {
  return text.length > MAX_REASON_LENGTH ? `${text.slice(0, MAX_REASON_LENGTH)}…` : text;
}
