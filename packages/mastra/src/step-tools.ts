// The tools of a Mastra step as Mastra itself matches them: whether a step hands over the same
// tools as the last, and every name under which Mastra's tool-call step finds a tool; and a loaded
// tool as tool search sends it.
import { withFields, withoutDeferLoading } from '@tool-search/core';

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** The same names in the same order, each the same tool object (a copy of the record is the same tools). */
export function sameTools(
  kept: Record<string, unknown> | undefined,
  given: Record<string, unknown> | undefined,
): boolean {
  if (kept === given) return true;
  if (!isObject(kept) || !isObject(given)) return false;
  const keptNames = Object.keys(kept);
  const givenNames = Object.keys(given);
  if (keptNames.length !== givenNames.length) return false;
  for (let index = 0; index < keptNames.length; index++) {
    const name = keptNames[index]!;
    if (givenNames[index] !== name || kept[name] !== given[name]) return false;
  }
  return true;
}

/** A provider tool's names the model calls it by (`openai.web_search` → `web_search`), as Mastra matches them. */
function providerToolNames(tool: unknown): string[] {
  if (!isObject(tool)) return [];
  const { type, id, name } = tool as { type?: unknown; id?: unknown; name?: unknown };
  if ((type !== 'provider' && type !== 'provider-defined') || typeof id !== 'string') return [];
  const names = [id.split('.').slice(1).join('.')];
  if (typeof name === 'string') names.push(name);
  return names.filter((candidate) => candidate.length > 0);
}

/**
 * Every name under which Mastra's tool-call step finds one of these tools, to the tool's key: its
 * key first, then a provider tool's name, then any tool's `id`; the first tool in order wins, as
 * in Mastra's lookup.
 */
export function namesMastraFinds(tools: Record<string, unknown>): Map<string, string> {
  const names = new Map<string, string>();
  const entries = Object.entries(tools);
  for (const [key] of entries) names.set(key, key);
  for (const [key, tool] of entries)
    for (const name of providerToolNames(tool)) if (!names.has(name)) names.set(name, key);
  for (const [key, tool] of entries) {
    const id = isObject(tool) ? (tool as { id?: unknown }).id : undefined;
    if (typeof id === 'string' && !names.has(id)) names.set(id, key);
  }
  return names;
}

/** Loaded tools as sent, per tool: the same copy every step. */
const sentCopies = new WeakMap<object, unknown>();

/**
 * A loaded tool as tool search sends it: without a provider's `deferLoading` in its
 * `providerOptions`, which would hide it again behind the provider's own tool search. A copy
 * (same prototype and fields) when it had one; the tool itself otherwise.
 */
export function sentAsLoaded(tool: unknown): unknown {
  if (!isObject(tool)) return tool;
  const cached = sentCopies.get(tool);
  if (cached !== undefined) return cached;
  const providerOptions = withoutDeferLoading((tool as { providerOptions?: unknown }).providerOptions);
  const sent = providerOptions
    ? withFields(tool as { providerOptions?: unknown }, { providerOptions })
    : tool;
  sentCopies.set(tool, sent);
  return sent;
}
