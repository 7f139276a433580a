// Owns the reading of the engine's and a request's options: each checked once, at
// createToolSearchEngine or startRequest, into the settings every other part of the engine reads;
// and how a thread id is keyed.
import { clockOption, timeoutOption } from '../clock';
import { optionsObject, ToolSearchError } from '../errors';
import { checkOptionNames, ENGINE_OPTION_NAMES, REQUEST_OPTION_NAMES } from '../option-names';
import { keywordRankerOver } from '../ranking/keyword-ranker';
import { checkRankerFactory } from '../ranking/ranker-answers';
import { DEFAULT_TOP_K } from '../ranking/search-options';
import type { Clock, RankerFactory, RequestOptions, ToolFilter, ToolSearchEngineOptions } from '../types';

export const DEFAULT_THREAD_ID = 'default';
export const DEFAULT_STORE_TIMEOUT_MS = 2_000;
/** Bound on one search of an asynchronous ranker (a vector database, an embedding API). */
export const DEFAULT_SEARCH_TIMEOUT_MS = 10_000;
/** Bound on one decision of an asynchronous filter (a policy service); past it the tool is refused. */
export const DEFAULT_FILTER_TIMEOUT_MS = 10_000;
/** Bound on one `resolve` of a lazily resolved tool (an MCP server's listing, a connection). */
export const DEFAULT_RESOLVE_TIMEOUT_MS = 10_000;

/** The engine's options, checked: what the parts of the engine are built from. */
export interface EngineSettings<TTool, TContext> {
  readonly clock: Clock;
  readonly topK: number;
  readonly minScore: number;
  readonly autoLoad: boolean;
  readonly maxLoadedTools: number | undefined;
  readonly storeTimeoutMs: number;
  readonly searchTimeoutMs: number;
  readonly filterTimeoutMs: number;
  readonly resolveTimeoutMs: number;
  readonly signingSecret: string | undefined;
  readonly rankerFactory: RankerFactory;
  readonly filter: ToolFilter<TTool, TContext> | undefined;
}

/** Checks the engine's options (all but the catalog, the storage and the listener). */
export function readEngineSettings<TTool, TContext>(
  options: ToolSearchEngineOptions<TTool, TContext>,
): EngineSettings<TTool, TContext> {
  if (typeof options !== 'object' || options === null) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'createToolSearchEngine needs an options object with a catalog.',
    );
  }
  checkOptionNames(options, ENGINE_OPTION_NAMES, 'createToolSearchEngine');
  const clock = clockOption(options.clock, 'createToolSearchEngine');
  const topK = positiveInteger(options.search?.topK, 'search.topK', DEFAULT_TOP_K)!;
  const minScore = options.search?.minScore ?? 0;
  if (typeof minScore !== 'number' || !(minScore >= 0 && minScore <= 1)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `search.minScore must be a number in 0..1, got ${String(minScore)}`,
    );
  }
  const autoLoad = options.search?.autoLoad === true;
  const maxLoadedTools = positiveInteger(options.maxLoadedTools, 'maxLoadedTools', undefined);
  const storeTimeoutMs = timeoutOption(options.storeTimeoutMs, 'storeTimeoutMs', DEFAULT_STORE_TIMEOUT_MS);
  const searchTimeoutMs = timeoutOption(
    options.searchTimeoutMs,
    'searchTimeoutMs',
    DEFAULT_SEARCH_TIMEOUT_MS,
  );
  const filterTimeoutMs = timeoutOption(
    options.filterTimeoutMs,
    'filterTimeoutMs',
    DEFAULT_FILTER_TIMEOUT_MS,
  );
  const resolveTimeoutMs = timeoutOption(
    options.resolveTimeoutMs,
    'resolveTimeoutMs',
    DEFAULT_RESOLVE_TIMEOUT_MS,
  );
  if (
    options.signingSecret !== undefined &&
    (typeof options.signingSecret !== 'string' || options.signingSecret.length === 0)
  ) {
    throw new ToolSearchError('INVALID_OPTIONS', 'signingSecret must be a non-empty string.');
  }
  // The catalog checks the names, so the default ranker need not check them again.
  const rankerFactory = checkRankerFactory(options.ranker ?? keywordRankerOver, 'createToolSearchEngine');
  const filter = options.filter ?? undefined;
  if (filter !== undefined && typeof filter !== 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `filter must be a function ({ toolName, tool, requestContext, phase }) => boolean, got ${typeof filter}`,
    );
  }
  return {
    clock,
    topK,
    minScore,
    autoLoad,
    maxLoadedTools,
    storeTimeoutMs,
    searchTimeoutMs,
    filterTimeoutMs,
    resolveTimeoutMs,
    signingSecret: options.signingSecret || undefined,
    rankerFactory,
    filter,
  };
}

/**
 * A request's options: none (`undefined` or `null`) is `{}`; `alwaysOn` and `requestTools`, when
 * given, must be arrays (a string would otherwise be read letter by letter as tool names).
 */
export function checkRequestOptions<TTool, TContext>(
  options: RequestOptions<TTool, TContext> | null | undefined,
): RequestOptions<TTool, TContext> {
  const given = optionsObject(options, 'startRequest');
  checkOptionNames(given, REQUEST_OPTION_NAMES, 'startRequest');
  for (const key of ['alwaysOn', 'requestTools'] as const) {
    const value: unknown = given[key];
    if (value !== undefined && value !== null && !Array.isArray(value)) {
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        `startRequest's ${key} must be an array of ${key === 'alwaysOn' ? 'tool names or catalog entries' : 'catalog entries'}, got ${typeof value}`,
      );
    }
  }
  return given;
}

/**
 * A thread id as the engine keys it: a non-empty string is itself; a finite number or a bigint
 * (a numeric user id, Prisma's `BigInt`) is the thread of its string (`42`, `42n` and `'42'`
 * are one thread); anything else (missing, empty, `NaN`, an object…) is the shared 'default'
 * thread.
 */
export function normalizeThreadId(threadId: unknown): string {
  if (typeof threadId === 'number' && Number.isFinite(threadId)) return String(threadId);
  if (typeof threadId === 'bigint') return String(threadId);
  return typeof threadId === 'string' && threadId.length > 0 ? threadId : DEFAULT_THREAD_ID;
}

function positiveInteger(value: unknown, name: string, fallback: number | undefined): number | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ToolSearchError('INVALID_OPTIONS', `${name} must be an integer >= 1, got ${String(value)}`);
  }
  return value;
}
