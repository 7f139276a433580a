// Owns the call guard of one request: whether a tool call may run in this step (meta-tools and the
// plan's visible tools may), and for one that may not, the `deny` event and the message that tells
// the model what to do next (call again, load, load again, or search).
import { clip, LOAD_TOOL_NAME } from '../meta-tools';
import type { Clock, GuardDecision, GuardOptions, ToolSearchEvent } from '../types';
import type { ReplacedHooks } from './replaced-hooks';
import type { RequestFilter } from './request-filter';
import type { RequestLoadState } from './request-load-state';
import type { RequestTools } from './request-tools';
import type { StepPlanner } from './step-plan';

export type Guard = (toolName: string, options?: GuardOptions) => Promise<GuardDecision>;

export interface GuardOptionsOfRequest<TTool> {
  readonly threadId: string;
  readonly autoLoad: boolean;
  readonly offeredMetaNames: readonly string[];
  readonly tools: Pick<RequestTools<TTool>, 'alwaysOnNames' | 'lookupExact'>;
  readonly filter: RequestFilter<TTool>;
  readonly planner: StepPlanner<TTool>;
  readonly loadState: Pick<RequestLoadState, 'loadedAt' | 'uncertainAt' | 'noteCall' | 'unloadedFromThread'>;
  readonly hooks: Pick<ReplacedHooks, 'fromNextStep' | 'stepsReplaced'>;
  readonly clock: Clock;
  readonly emit: (event: ToolSearchEvent) => void;
}

export function createGuard<TTool>(options: GuardOptionsOfRequest<TTool>): Guard {
  const { threadId, autoLoad, offeredMetaNames, tools, filter, planner, loadState } = options;
  const { hooks, clock, emit } = options;
  const { fromNextStep } = hooks;

  return async (toolName, guardOptions) => {
    // No plan yet (a call replayed before the first step): wait for the one being made, or make
    // one outside a model step (no 'step' event: no tools were sent to a model for it).
    if (!planner.current()) await (planner.planning() ?? planner.prepareStep({ modelStep: false }));
    const current = planner.current()!;
    if (typeof toolName === 'string') {
      if (offeredMetaNames.includes(toolName)) return { allowed: true };
      if (current.byName.has(toolName)) {
        const canonical = current.byName.get(toolName)?.descriptor.name ?? toolName;
        // Shown by the plan, refused by the framework: its step did not send the tool.
        if (guardOptions?.offered === false) {
          return {
            allowed: false,
            message: `Tool "${canonical}" is loaded, but it was not offered to you in this step, so it was not run. Do not load it again; call it only when it is among your tools.`,
          };
        }
        if (current.loadedNames.has(canonical)) loadState.noteCall(canonical);
        return { allowed: true };
      }
    }
    const name = typeof toolName === 'string' ? toolName : String(toolName);
    const shown = clip(name, 100);
    const deny = (reason: 'not-loaded' | 'filtered' | 'unknown-tool', message: string): GuardDecision => {
      emit({ type: 'deny', threadId, time: clock.now(), toolName: name, reason });
      return { allowed: false, message };
    };
    const unavailable = `Tool "${shown}" is not available, so it was not run. Call search_tools with keywords for what you need to find a tool that can do it.`;
    if (name === LOAD_TOOL_NAME && autoLoad) {
      return deny(
        'unknown-tool',
        `load_tool is not needed here: search_tools loads the tools it finds automatically. Call the found tools by name ${fromNextStep()}.`,
      );
    }
    // A catalog tool kept on by name, not in the plan: the 'active' filter withholds it (the model
    // is told no more than of an unknown name).
    if (typeof toolName === 'string' && tools.alwaysOnNames.has(toolName))
      return deny('filtered', unavailable);
    const entry = typeof toolName === 'string' ? tools.lookupExact(toolName) : undefined;
    if (!entry) return deny('unknown-tool', unavailable);
    if (!(await filter.entryAllowed(entry, 'load')) || !(await filter.entryAllowed(entry, 'active')))
      return deny('filtered', unavailable);
    const canonical = entry.descriptor.name;
    const loadedAt = loadState.loadedAt(canonical);
    if (loadedAt !== undefined && loadedAt > current.readAt) {
      return deny(
        'not-loaded',
        hooks.stepsReplaced()
          ? `Tool "${canonical}" was just loaded, so it was not run: it can be called ${fromNextStep()}.`
          : `Tool "${canonical}" was just loaded; it can be called from your next step, not in the step that loaded it. Call it again now.`,
      );
    }
    const uncertainAt = loadState.uncertainAt(canonical);
    if (uncertainAt !== undefined && uncertainAt > current.readAt) {
      return deny(
        'not-loaded',
        `Tool "${canonical}" may have been loaded (tool state did not answer in time), so it was not run. If it was, it will be offered ${fromNextStep()}; if it is not offered then, load it again.`,
      );
    }
    if (loadedAt !== undefined || loadState.unloadedFromThread(canonical)) {
      // Loaded earlier in this thread (this request, or one before it), and gone since: saying
      // "call it again" would loop, and "search, then load" would send the model searching for
      // a name it already has.
      return deny(
        'not-loaded',
        autoLoad
          ? `Tool "${canonical}" is no longer loaded, so it was not run. Call search_tools with keywords for it to load it again; it can be called ${fromNextStep()}.`
          : `Tool "${canonical}" is no longer loaded, so it was not run. Call load_tool with "${canonical}" to load it again; it can be called ${fromNextStep()}.`,
      );
    }
    return deny(
      'not-loaded',
      autoLoad
        ? `Tool "${canonical}" is not loaded, so it was not run. Call search_tools with keywords for what you need; the tools it finds are loaded and can be called ${fromNextStep()}.`
        : `Tool "${canonical}" is not loaded, so it was not run. Call search_tools with keywords for what you need, then load_tool with the exact name; the tool can be called ${fromNextStep()}.`,
    );
  };
}
