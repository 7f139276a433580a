/**
 * `maxLoadedTools`: which loaded names go when a thread holds too many.
 *
 * The least recently used name goes first. A name is used when it is loaded, asked for again
 * (load_tool, or an autoLoad search, names a tool already loaded) or called. Eviction only ever
 * removes names: the names that stay keep their load order, so the list sent to the model stays
 * a prefix-stable append apart from the evicted names.
 */

/**
 * The positions in `names` (load order) of the `count` names to evict, the least recently used
 * first. `lastUse` gives a name's last use as a number that grows with time; a name without one
 * (no use known) counts as older than every name with one, and such names go in load order.
 */
function evictionPositions(
  names: readonly string[],
  lastUse: (name: string) => number | undefined,
  count: number,
): number[] {
  if (count <= 0) return [];
  const ranked = names.map((name, position) => ({ position, use: lastUse(name) }));
  ranked.sort((a, b) => {
    if (a.use === undefined || b.use === undefined) {
      if (a.use !== b.use) return a.use === undefined ? -1 : 1;
      return a.position - b.position;
    }
    return a.use - b.use || a.position - b.position;
  });
  return ranked.slice(0, count).map((item) => item.position);
}

/**
 * The `count` names of `names` (load order) to evict: the least recently used first. `lastUse`
 * gives a name's last use as a number that grows with time; a name without one (no use known)
 * counts as older than every name with one, and such names go in load order.
 * Returns the evicted names in load order.
 */
export function leastRecentlyUsed(
  names: readonly string[],
  lastUse: (name: string) => number | undefined,
  count: number,
): string[] {
  return capLoadedNames(names, lastUse, Math.max(0, names.length - Math.max(0, count))).evicted;
}

/**
 * The names that stay under the cap (load order kept), and those that do not: `evicted` in load
 * order, and the same names in `evictionOrder` the least recently used first (the order to remove
 * them in, so that a store told to stop at the cap keeps the most recently used of them).
 */
export function capLoadedNames(
  names: readonly string[],
  lastUse: (name: string) => number | undefined,
  maxLoadedTools: number | undefined,
): { kept: string[]; evicted: string[]; evictionOrder: string[] } {
  if (maxLoadedTools === undefined || names.length <= maxLoadedTools) {
    return { kept: [...names], evicted: [], evictionOrder: [] };
  }
  const order = evictionPositions(names, lastUse, names.length - maxLoadedTools);
  const gone = new Set(order);
  return {
    kept: names.filter((_, position) => !gone.has(position)),
    evicted: names.filter((_, position) => gone.has(position)),
    evictionOrder: order.map((position) => names[position]!),
  };
}

/**
 * The loaded names of one thread, replayed from its history: each load appends the names
 * not yet loaded and marks every named tool as used; each call marks a loaded tool as used;
 * past `maxLoadedTools`, the least recently used names go. Deterministic: the same
 * sequence of loads and calls always gives the same names.
 */
export interface LoadedToolsReplay {
  /** The loaded names, in load order. */
  names(): readonly string[];
  has(name: string): boolean;
  /** Loads names (in this order of use); returns the names this load evicted, in load order. */
  load(names: readonly string[]): string[];
  /** Marks a loaded name as used; false (and nothing changes) when the name is not loaded. */
  use(name: string): boolean;
  /** Whether the name was loaded and then evicted, and has not been loaded again since. */
  wasEvicted(name: string): boolean;
  /** An independent copy, to replay more on. */
  copy(): LoadedToolsReplay;
}

export function createLoadedToolsReplay(options: { maxLoadedTools?: number } = {}): LoadedToolsReplay {
  return replayFrom(options.maxLoadedTools, [], new Map(), new Set(), 0);
}

function replayFrom(
  maxLoadedTools: number | undefined,
  order: string[],
  lastUse: Map<string, number>,
  evictedNames: Set<string>,
  initialTick: number,
): LoadedToolsReplay {
  let tick = initialTick;
  const replay: LoadedToolsReplay = {
    names: () => order,
    has: (name) => lastUse.has(name),
    load(names) {
      for (const name of names) {
        if (typeof name !== 'string') continue;
        if (!lastUse.has(name)) order.push(name);
        lastUse.set(name, ++tick);
        evictedNames.delete(name);
      }
      if (maxLoadedTools === undefined || order.length <= maxLoadedTools) return [];
      const { kept, evicted } = capLoadedNames(order, (name) => lastUse.get(name), maxLoadedTools);
      order = kept;
      for (const name of evicted) {
        lastUse.delete(name);
        evictedNames.add(name);
      }
      return evicted;
    },
    use(name) {
      if (!lastUse.has(name)) return false;
      lastUse.set(name, ++tick);
      return true;
    },
    wasEvicted: (name) => evictedNames.has(name),
    copy: () => replayFrom(maxLoadedTools, [...order], new Map(lastUse), new Set(evictedNames), tick),
  };
  return replay;
}
