// Owns one request's step plans: what each step shows the model (meta-tools, the agent's own tools,
// then the loaded tools the filter allows, in load order), the latest plan, which the guard and
// `resolve` read, and the plan under way, which a guard without a plan waits for.
import type { CatalogEntry, Clock, MetaToolDefinition, StepInput, StepPlan, ToolSearchEvent } from '../types';
import type { RequestFilter } from './request-filter';
import type { RequestLoadState } from './request-load-state';
import type { RequestTools } from './request-tools';
import type { ToolResolution } from './tool-resolution';

/** The latest plan, as the guard reads it. */
export interface InternalPlan<TTool> {
  readonly visible: readonly string[];
  /** Visible names and the aliases of visible tools → entries (undefined for always-on names given without an entry). */
  readonly byName: ReadonlyMap<string, CatalogEntry<TTool> | undefined>;
  /** Canonical names of the loaded tools visible this step (always-on tools are not among them). */
  readonly loadedNames: ReadonlySet<string>;
  /** When (on the request's counter) this plan read the load state. */
  readonly readAt: number;
}

export interface StepPlanner<TTool> {
  prepareStep(input?: StepInput): Promise<StepPlan<TTool>>;
  /** The latest plan made, if any. */
  current(): InternalPlan<TTool> | undefined;
  /** The plan being made (the latest prepareStep still under way), for a guard that has none. */
  planning(): Promise<StepPlan<TTool>> | undefined;
}

export interface StepPlannerOptions<TTool> {
  readonly threadId: string;
  readonly tools: RequestTools<TTool>;
  readonly filter: RequestFilter<TTool>;
  /** Lazily resolved tools, resolved once per request; one that fails is withheld. */
  readonly resolution: ToolResolution<TTool>;
  readonly loadState: Pick<RequestLoadState, 'setRecords' | 'nextStep' | 'nextMoment' | 'currentLoadedNames'>;
  readonly metaTools: readonly MetaToolDefinition[];
  readonly offeredMetaNames: readonly string[];
  readonly clock: Clock;
  readonly emit: (event: ToolSearchEvent) => void;
}

export function createStepPlanner<TTool>(options: StepPlannerOptions<TTool>): StepPlanner<TTool> {
  const { threadId, tools, filter, resolution, loadState, metaTools, offeredMetaNames, clock, emit } =
    options;
  const { alwaysOn, alwaysOnNames, staticCatalog, requestCatalog } = tools;
  let plan: InternalPlan<TTool> | undefined;
  let planning: Promise<StepPlan<TTool>> | undefined;

  function prepareStep(input?: StepInput): Promise<StepPlan<TTool>> {
    const made = makePlan(input);
    planning = made;
    const settled = () => {
      if (planning === made) planning = undefined;
    };
    made.then(settled, settled);
    return made;
  }

  async function makePlan(input?: StepInput): Promise<StepPlan<TTool>> {
    if (input && Array.isArray(input.records)) loadState.setRecords(input.records);
    loadState.nextStep();
    const readAt = loadState.nextMoment();
    let names: string[] = [];
    let degraded = false;
    try {
      names = await loadState.currentLoadedNames();
    } catch {
      degraded = true; // The store calls already reported it.
    }

    // The agent's own tools are the app's to choose per request, not tool search's: never
    // filtered. A catalog tool kept on by name is shown while the 'active' filter allows it.
    const alwaysOnChecks = await Promise.all(
      alwaysOn.map((item) => !item.catalog || filter.allowed(item.name, item.entry?.tool, 'active')),
    );
    const visibleAlwaysOn = alwaysOn.filter((_, index) => alwaysOnChecks[index]);

    const candidates: CatalogEntry<TTool>[] = [];
    const seen = new Set<string>(alwaysOnNames);
    for (const name of names) {
      const entry = tools.lookupCanonical(name);
      if (!entry || seen.has(entry.descriptor.name)) continue;
      seen.add(entry.descriptor.name);
      candidates.push(entry);
    }
    // Whatever loaded it (another request of the thread, under another request context; a
    // policy since revoked), a loaded tool is shown only while this request may load it and
    // use it: withheld, not forgotten, while either is refused.
    const checks = await Promise.all(
      candidates.map(
        async (entry) => (await filter.entryAllowed(entry, 'load')) && filter.entryAllowed(entry, 'active'),
      ),
    );
    const allowedEntries = candidates.filter((_, index) => checks[index]);
    // A lazily resolved tool is shown as this request resolved it, or not at all (its access
    // revoked, its server down): withheld, not forgotten, like a tool the filter refuses.
    const outcomes = await Promise.all(allowedEntries.map((entry) => resolution.resolved(entry, 'active')));
    const loaded: CatalogEntry<TTool>[] = [];
    const loadedSources: CatalogEntry<TTool>[] = [];
    outcomes.forEach((outcome, index) => {
      if (!outcome.ok) return;
      loaded.push(outcome.entry);
      loadedSources.push(allowedEntries[index]!);
    });

    const visible = [
      ...offeredMetaNames,
      ...visibleAlwaysOn.map((item) => item.name),
      ...loaded.map((entry) => entry.descriptor.name),
    ];
    const byName = new Map<string, CatalogEntry<TTool> | undefined>();
    for (const item of visibleAlwaysOn) byName.set(item.name, item.entry);
    for (const entry of loaded) byName.set(entry.descriptor.name, entry);
    // A visible catalog tool (loaded, or kept on by name) also answers to its aliases, except
    // one that names an always-on tool: withheld, that tool must not become callable through
    // the alias (an adapter would run its own tool of that name).
    const shown: [CatalogEntry<TTool> | undefined, CatalogEntry<TTool> | undefined][] = [
      ...visibleAlwaysOn.map((item): [CatalogEntry<TTool> | undefined, CatalogEntry<TTool> | undefined] => [
        item.entry,
        item.entry,
      ]),
      ...loaded.map((entry, index): [CatalogEntry<TTool>, CatalogEntry<TTool>] => [
        entry,
        loadedSources[index]!,
      ]),
    ];
    for (const [entry, source] of shown) {
      for (const alias of entry?.aliases ?? [])
        if (!byName.has(alias) && !alwaysOnNames.has(alias) && tools.lookupExact(alias) === source)
          byName.set(alias, entry);
    }
    plan = {
      visible,
      byName,
      loadedNames: new Set(loaded.map((entry) => entry.descriptor.name)),
      readAt,
    };

    const catalogCount =
      visibleAlwaysOn.length +
      staticCatalog.size +
      (requestCatalog ? requestCatalog.size - requestCatalog.shadowed : 0);
    if (input?.modelStep !== false) {
      emit({
        type: 'step',
        threadId,
        time: clock.now(),
        visibleCount: visible.length,
        catalogCount,
        visible,
      });
    }
    return { visible, metaTools, loaded, degraded };
  }

  return { prepareStep, current: () => plan, planning: () => planning };
}
