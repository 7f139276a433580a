// Owns the fusion of a ranker's answer with a learning's evidence: a ranker factory whose rankers
// ask the wrapped ranker, score the request against the evidence of use (in this process, no
// store call), and fuse the two, the tool's own text keeping the most weight.
import { isPromiseLike } from '../engine/promise-like';
import { checkRanker, checkRankerFactory } from '../ranking/ranker-answers';
import { validateSearchOptions } from '../ranking/search-options';
import type { Ranker, RankerFactory, SearchResult, ToolDescriptor } from '../types';
import { type Learning, learningInternals } from './learning';

/**
 * A tool's score with evidence: `own + weight × evidence × (1 − own)`. In 0..1, never below the
 * tool's own score, 1 for a tool its own text answers fully; a tool known only by evidence
 * scores at most `weight`.
 */
export function fuseEvidence(own: number, evidence: number, weight: number): number {
  return own + weight * evidence * (1 - own);
}

/**
 * Wraps a ranker factory (the keyword ranker's, the hybrid ranker's, yours) so that its rankers
 * also rank by evidence of use from `learning`. The wrapped ranker answers as before when no
 * tool's evidence has a word of the request.
 */
export function withLearning(factory: RankerFactory, learning: Learning): RankerFactory {
  const base = checkRankerFactory(factory, 'withLearning');
  const parts = learningInternals(learning, 'withLearning');
  return (tools: readonly ToolDescriptor[]): Ranker => {
    const ranker = checkRanker(base(tools), 'withLearning');
    const descriptions = new Map<string, string>();
    for (const tool of tools) {
      if (typeof tool?.name !== 'string') continue;
      descriptions.set(tool.name, typeof tool.description === 'string' ? tool.description : '');
    }
    parts.knowTools(descriptions.keys());
    const size = descriptions.size;

    return {
      search(query, options) {
        const evidence =
          typeof query === 'string' ? parts.index().score(query, parts.clock.now()) : undefined;
        if (evidence === undefined) return ranker.search(query, options);
        const { topK, minScore } = validateSearchOptions(options);
        let candidates = 0;
        for (const name of evidence.keys()) if (descriptions.has(name)) candidates++;
        if (candidates === 0 || topK === 0) return ranker.search(query, options);
        // The wrapped ranker's own scores of the tools evidence could lift into the list.
        const widened = { topK: Math.min(size, topK + Math.min(candidates, topK)), minScore: 0 };
        const fuse = (answer: readonly SearchResult[]): readonly SearchResult[] => {
          if (!Array.isArray(answer)) return answer; // the engine reports a bad answer
          const fused = new Map<string, SearchResult>();
          for (const result of answer) {
            if (typeof result?.name !== 'string' || fused.has(result.name)) continue;
            const own = typeof result.score === 'number' ? Math.min(1, Math.max(0, result.score)) || 0 : 0;
            const score = fuseEvidence(own, evidence.get(result.name) ?? 0, parts.weight);
            fused.set(result.name, { ...result, score });
          }
          for (const [name, found] of evidence) {
            const description = descriptions.get(name);
            if (description === undefined || fused.has(name)) continue;
            fused.set(name, { name, description, score: fuseEvidence(0, found, parts.weight) });
          }
          return [...fused.values()]
            .filter((result) => result.score > 0 && result.score >= minScore)
            .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
            .slice(0, topK);
        };
        const answer = ranker.search(query, widened);
        return isPromiseLike(answer) ? answer.then(fuse) : fuse(answer);
      },
    };
  };
}
