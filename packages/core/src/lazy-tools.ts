/**
 * Lazily resolved tools: a catalog entry that carries only what search reads (a name, a
 * description, tags, and metadata for the filter) plus a `resolve` that returns the full tool
 * (its input schema, its executor) when the tool is loaded, once per request, for the caller of
 * that request. See docs/lazy-tools.md.
 *
 * Two levels:
 * - the engine's: a {@link CatalogEntry} with `resolve` (a {@link ToolResolver} of the adapter's
 *   own tool type); `tool` is then a stand-in, which only the filter sees;
 * - the framework-neutral one that tool sources (such as `@tool-search/mcp`) produce: a
 *   {@link LazyTool}, whose `resolve` answers a {@link ResolvedTool} (a JSON Schema and an
 *   `execute`), which each adapter translates into its framework's tool with
 *   {@link lazyToolEntry}.
 */
import { ToolSearchError } from './errors';
import type { CatalogEntry, JsonSchema, MaybePromise, ToolDescriptor } from './types';

/** What a resolver is given: whose request it is, and a signal that aborts past `resolveTimeoutMs`. */
export interface ResolveToolArgs<TContext = unknown> {
  /** The tool's canonical name. */
  readonly toolName: string;
  readonly threadId: string;
  /** The request's context (the caller's identity, credentials): resolve for this caller only. */
  readonly requestContext: TContext | undefined;
  /** Aborts when the engine stops waiting (`resolveTimeoutMs`). */
  readonly signal: AbortSignal;
}

/**
 * Returns the full tool for one request. A throw, a rejection or a timeout means the tool is not
 * available to this request: `load_tool` says why, and a tool already loaded is withheld.
 */
export type ToolResolver<TTool = unknown, TContext = unknown> = (
  args: ResolveToolArgs<TContext>,
) => MaybePromise<TTool>;

/** Options of {@link ResolvedTool.execute}. */
export interface ResolvedToolExecuteOptions {
  readonly signal?: AbortSignal;
  readonly toolCallId?: string;
}

/** A resolved tool, framework-neutral: what an adapter turns into its framework's tool. */
export interface ResolvedTool {
  /** Replaces the description the catalog entry was searched by, when given. */
  readonly description?: string;
  /** The input's JSON Schema, as sent to the model. */
  readonly inputSchema: JsonSchema;
  /** Runs the tool. A rejection is the tool's error, as the framework reports a tool's error. */
  execute(input: unknown, options: ResolvedToolExecuteOptions): Promise<unknown>;
}

const lazyMarker = Symbol.for('tool-search.lazy-tool');

/** A resolved entry (as a plan or `request.resolve` hands it) → the catalog entry it was resolved from. */
const resolvedFrom = new WeakMap<CatalogEntry<unknown>, CatalogEntry<unknown>>();

/** Records that `resolved` is `source` as one request resolved it (the engine calls this). */
export function noteResolvedEntry<TTool>(resolved: CatalogEntry<TTool>, source: CatalogEntry<TTool>): void {
  resolvedFrom.set(resolved as CatalogEntry<unknown>, source as CatalogEntry<unknown>);
}

/**
 * The catalog entry an entry of a plan comes from: for a lazily resolved tool, the entry given
 * to the engine (with its `resolve`), not the request's resolved copy; any other entry is itself.
 * For an adapter that keeps its own entries in a set.
 */
export function catalogEntryOf<TTool>(entry: CatalogEntry<TTool>): CatalogEntry<TTool> {
  return (resolvedFrom.get(entry as CatalogEntry<unknown>) as CatalogEntry<TTool> | undefined) ?? entry;
}

/** A framework-neutral lazily resolved tool: what search sees, and how to get the rest. */
export interface LazyTool<TContext = unknown> {
  readonly [lazyMarker]: true;
  readonly name: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  /** Facts the filter sees as `metadata` (for MCP: the server and the tool's annotations). Never searched. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  resolve(args: ResolveToolArgs<TContext>): MaybePromise<ResolvedTool>;
}

/** The fields of {@link lazyTool}. */
export type LazyToolFields<TContext = unknown> = Omit<LazyTool<TContext>, typeof lazyMarker>;

/**
 * A lazily resolved tool that every adapter accepts among its tools. Its name must be a valid
 * tool name and `resolve` a function (INVALID_OPTIONS otherwise).
 */
export function lazyTool<TContext = unknown>(fields: LazyToolFields<TContext>): LazyTool<TContext> {
  if (typeof fields !== 'object' || fields === null || typeof fields.resolve !== 'function') {
    throw new ToolSearchError('INVALID_OPTIONS', 'lazyTool needs { name, resolve } with resolve a function.');
  }
  if (typeof fields.name !== 'string' || fields.name.length === 0) {
    throw new ToolSearchError('INVALID_OPTIONS', 'lazyTool needs a non-empty name.');
  }
  return Object.freeze({ ...fields, [lazyMarker]: true as const });
}

/** Whether `value` is a {@link LazyTool} (of any installed copy of the core). */
export function isLazyTool(value: unknown): value is LazyTool<never> {
  return (
    typeof value === 'object' && value !== null && (value as { [lazyMarker]?: unknown })[lazyMarker] === true
  );
}

/**
 * The engine's entry for a lazy tool, in an adapter's tool type: `standIn` is what the filter is
 * handed (and what the adapter holds until the tool is resolved); `toTool` makes the framework's
 * tool from the resolved one, for the request that resolved it.
 */
export function lazyToolEntry<TTool, TContext = unknown>(
  lazy: LazyTool<TContext>,
  parts: {
    readonly standIn: TTool;
    readonly toTool: (resolved: ResolvedTool, lazy: LazyTool<TContext>) => TTool;
    /** The key the tool is given under, when not its own name. */
    readonly name?: string;
  },
): CatalogEntry<TTool> {
  const descriptor: ToolDescriptor = {
    name: parts.name ?? lazy.name,
    ...(lazy.description !== undefined ? { description: lazy.description } : {}),
    ...(lazy.tags !== undefined ? { tags: lazy.tags } : {}),
  };
  return {
    descriptor,
    tool: parts.standIn,
    ...(lazy.metadata !== undefined ? { metadata: lazy.metadata } : {}),
    resolve: async (args) => {
      const resolved = await lazy.resolve(args as ResolveToolArgs<TContext>);
      if (typeof resolved !== 'object' || resolved === null || typeof resolved.execute !== 'function') {
        throw new ToolSearchError(
          'RESOLVE_FAILED',
          `Tool "${descriptor.name}" resolved to something that is not a tool ({ inputSchema, execute }).`,
        );
      }
      return parts.toTool(resolved, lazy);
    },
  };
}
