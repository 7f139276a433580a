// Owns which tools one request has and how a name finds one of them: the request's own catalog
// (request-resolved tools, cached per tool identity), the agent's always-on tools checked once, and
// the lookups by canonical name, alias and case that every other part of the request uses.
import { buildCatalog, type Catalog, createRequestCatalogCache, isValidToolName } from '../catalog';
import { META_TOOL_NAMES } from '../meta-tools';
import type { CatalogEntry, RankerFactory, RequestOptions } from '../types';
import type { RejectedTool, ReportRejected } from './rejections';

type Lookup<TTool> = CatalogEntry<TTool> | undefined;

/** A request's catalog of resolved tools, with what was left out of it and how many static tools it shadows. */
export type RequestCatalog<TTool> = Catalog<TTool> & {
  readonly rejected: readonly RejectedTool[];
  readonly shadowed: number;
};

/** One always-on tool of a request. */
export interface AlwaysOnTool<TTool> {
  readonly name: string;
  /** Undefined for a name given without an entry and not in a catalog. */
  readonly entry: CatalogEntry<TTool> | undefined;
  /**
   * A catalog tool kept on by its name (not one of the agent's own tools): still a catalog tool,
   * so the filter's 'active' phase still governs it, as it governs a loaded one.
   */
  readonly catalog: boolean;
}

export interface RequestTools<TTool> {
  readonly staticCatalog: Catalog<TTool>;
  readonly requestCatalog: RequestCatalog<TTool> | undefined;
  /** Always-on tools: valid names, not meta-tool names, each once. */
  readonly alwaysOn: readonly AlwaysOnTool<TTool>[];
  readonly alwaysOnNames: ReadonlySet<string>;
  readonly alwaysOnByName: ReadonlyMap<string, AlwaysOnTool<TTool>>;
  /** No longer name finds a tool: load_tool answers it "not found" at once, without a search for suggestions. */
  readonly longestName: number;
  /** The catalog tools search can find: static ones, and the request's not shadowing a static one. */
  readonly totalSize: number;
  /**
   * A catalog tool named like one of the agent's own tools, and not that tool: the agent's
   * tool is the one sent and run under the name, so search never offers the other (its
   * description would describe a tool the model cannot get).
   */
  shadowedByOwn(entry: CatalogEntry<TTool>): boolean;
  /**
   * A canonical name only (request tools win over static ones): how names the engine itself
   * wrote (a store's, a result's) are resolved, never by alias or case, so a request tool's
   * name can never come back as another tool that has it as an alias or in another case.
   */
  lookupCanonical(name: string): Lookup<TTool>;
  /** Canonical name or alias; request tools win over static ones, canonical names over aliases. */
  lookupExact(name: string): Lookup<TTool>;
  /**
   * As lookupExact, then a case-insensitive match (for names a model typed) when exactly one
   * tool has the name in another case: a request tool `Gamma` and a static `gamma` leave
   * "GAMMA" unknown (with both as suggestions), as two static tools would.
   */
  lookupForLoad(name: string): Lookup<TTool>;
}

/** The cache of request catalogs, one per engine: built per set of tool identities, never per step. */
export function createRequestCatalogs<TTool>(
  staticCatalog: Catalog<TTool>,
  rankerFactory: RankerFactory,
): (entries: readonly CatalogEntry<TTool>[]) => RequestCatalog<TTool> {
  return createRequestCatalogCache<TTool>((entries) => {
    const rejected: RejectedTool[] = [];
    const catalog = buildCatalog(entries, {
      mode: 'lenient',
      rankerFactory,
      onReject: (toolName, reason, message) => rejected.push({ toolName, reason, message }),
    });
    let shadowed = 0;
    for (const name of catalog.names()) if (staticCatalog.byName(name)) shadowed++;
    return Object.assign(catalog, { rejected, shadowed });
  }) as (entries: readonly CatalogEntry<TTool>[]) => RequestCatalog<TTool>;
}

export interface RequestToolsOptions<TTool, TContext> {
  readonly threadId: string;
  readonly requestOptions: RequestOptions<TTool, TContext>;
  readonly staticCatalog: Catalog<TTool>;
  readonly requestCatalogs: (entries: readonly CatalogEntry<TTool>[]) => RequestCatalog<TTool>;
  readonly reportRejected: ReportRejected;
}

/** A request's tools; reports (once per engine) the request tools and always-on tools it leaves out. */
export function resolveRequestTools<TTool, TContext>(
  options: RequestToolsOptions<TTool, TContext>,
): RequestTools<TTool> {
  const { threadId, requestOptions, staticCatalog, reportRejected } = options;
  const requestTools = requestOptions.requestTools;
  const requestCatalog =
    Array.isArray(requestTools) && requestTools.length > 0
      ? options.requestCatalogs(requestTools)
      : undefined;

  for (const rejected of requestCatalog?.rejected ?? []) reportRejected(threadId, rejected);

  function lookupCanonical(name: string): Lookup<TTool> {
    return requestCatalog?.byName(name) ?? staticCatalog.byName(name);
  }

  function lookupExact(name: string): Lookup<TTool> {
    return (
      requestCatalog?.byName(name) ??
      staticCatalog.byName(name) ??
      requestCatalog?.byAlias(name) ??
      staticCatalog.byAlias(name)
    );
  }

  function lookupForLoad(name: string): Lookup<TTool> {
    const exact = lookupExact(name);
    if (exact !== undefined || requestCatalog === undefined) return exact ?? staticCatalog.byFoldedName(name);
    const fromRequest = requestCatalog.byFoldedName(name);
    if (!staticCatalog.hasFoldedName(name)) return fromRequest;
    if (!requestCatalog.hasFoldedName(name)) return staticCatalog.byFoldedName(name);
    // Both have it: one tool only if the static one is the request tool's namesake (shadowed by it).
    const fromStatic = staticCatalog.byFoldedName(name);
    return fromRequest !== undefined && fromStatic?.descriptor.name === fromRequest.descriptor.name
      ? fromRequest
      : undefined;
  }

  const alwaysOn: AlwaysOnTool<TTool>[] = [];
  const seen = new Set<string>();
  for (const item of requestOptions.alwaysOn ?? []) {
    const given = typeof item === 'string' ? undefined : (item as CatalogEntry<TTool> | undefined);
    const written = typeof item === 'string' ? item : given?.descriptor?.name;
    // A catalog tool kept on by one of its aliases is that tool, under its canonical name
    // (the name the filter decides on, and the one every list shows).
    const name =
      typeof item === 'string' && isValidToolName(item) && lookupCanonical(item) === undefined
        ? (lookupExact(item)?.descriptor.name ?? item)
        : written;
    if (!isValidToolName(name)) {
      reportRejected(threadId, {
        toolName: String(name),
        reason: 'invalid-name',
        message: `Always-on tool name ${JSON.stringify(String(name))} is not valid.`,
      });
      continue;
    }
    if (META_TOOL_NAMES.has(name)) {
      reportRejected(threadId, {
        toolName: name,
        reason: 'reserved-name',
        message: `The agent's tool "${name}" was left out: the name belongs to a tool-search meta-tool, which is never replaced.`,
      });
      continue;
    }
    if (seen.has(name)) continue;
    seen.add(name);
    if (given !== undefined && staticCatalog.byName(name) !== undefined) {
      reportRejected(threadId, {
        toolName: name,
        reason: 'duplicate-name',
        message: `The catalog tool "${name}" is also one of the agent's own tools, which are sent on every step: tool search saves nothing for it, and the agent's tool is the one that runs. Leave it out of the catalog or out of the agent's tools (to keep a catalog tool always visible, pass its name in alwaysOn).`,
      });
    }
    const entry = given ?? lookupExact(name);
    alwaysOn.push({ name, entry, catalog: given === undefined && entry !== undefined });
  }
  const alwaysOnNames = new Set(alwaysOn.map((item) => item.name));
  const alwaysOnByName = new Map(alwaysOn.map((item) => [item.name, item]));
  const longestName = alwaysOn.reduce(
    (longest, item) => Math.max(longest, item.name.length),
    Math.max(staticCatalog.longestName, requestCatalog?.longestName ?? 0),
  );
  const shadowedByOwn = (entry: CatalogEntry<TTool>): boolean => {
    const own = alwaysOnByName.get(entry.descriptor.name);
    return (
      own !== undefined && own.entry !== entry && (own.entry === undefined || own.entry.tool !== entry.tool)
    );
  };
  for (const item of alwaysOn) {
    const other = requestCatalog?.byName(item.name);
    if (other === undefined || !shadowedByOwn(other)) continue;
    reportRejected(threadId, {
      toolName: item.name,
      reason: 'duplicate-name',
      message: `The request tool "${item.name}" has the name of one of the agent's own tools, which is the one sent and run under that name: it was left out of search.`,
    });
  }

  return {
    staticCatalog,
    requestCatalog,
    alwaysOn,
    alwaysOnNames,
    alwaysOnByName,
    longestName,
    totalSize: staticCatalog.size + (requestCatalog ? requestCatalog.size - requestCatalog.shadowed : 0),
    shadowedByOwn,
    lookupCanonical,
    lookupExact,
    lookupForLoad,
  };
}
