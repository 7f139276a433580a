import { ToolSearchError } from '../errors';
import type { Ranker, RankerFactory, SearchResult } from '../types';

/** `factory` checked as a ranker factory (`INVALID_OPTIONS` naming `where` if it is none). */
export function checkRankerFactory(factory: unknown, where: string): RankerFactory {
  if (typeof factory !== 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `${where}: ranker must be a function (descriptors) => Ranker, such as createHybridRanker({ embedder }), got ${typeof factory}`,
    );
  }
  return factory as RankerFactory;
}

/**
 * What a ranker factory built, checked to be a ranker (an object with a `search` method): a
 * factory that answers anything else fails where it is built, not at every search after.
 */
export function checkRanker(value: unknown, where: string): Ranker {
  if (typeof value !== 'object' || value === null || typeof (value as Ranker).search !== 'function') {
    const kind = value === null ? 'null' : typeof value;
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `${where}: the ranker factory built ${kind === 'object' ? 'an object without a search method' : kind}, not a ranker ({ search(query, options) }).`,
    );
  }
  return value as Ranker;
}

/**
 * A ranker's answer, checked: an answer that is not an array fails (`INVALID_OPTIONS`); an item
 * without a string name is left out, a description that is not a string is read as '', and a
 * score that is not a number in 0..1 is read as 0 or clamped.
 */
export function rankedResults(answer: unknown): SearchResult[] {
  if (!Array.isArray(answer)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `The ranker answered with ${answer === null ? 'null' : typeof answer}, not an array of results.`,
    );
  }
  const results: SearchResult[] = [];
  for (const item of answer as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { name, description, score } = item as Partial<SearchResult>;
    if (typeof name !== 'string') continue;
    results.push({
      name,
      description: typeof description === 'string' ? description : '',
      score: Math.min(1, Math.max(0, Number(score) || 0)),
    });
  }
  return results;
}
