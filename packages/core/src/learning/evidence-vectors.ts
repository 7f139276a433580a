// Owns the hybrid ranker's vectors of evidence (Tool2Vec's idea, written for this engine): per
// tool, the decayed sum of the unit vectors of the requests it served, so that a request is
// compared with the mean of a tool's past requests as with the tool's own vector. The vectors
// follow the evidence index: the same uses (a new index on `reload` or `clear` starts them
// again; a use the index's caps drop goes as it goes) and the same half-life on the learning's
// clock.
import { isPromiseLike } from '../engine/promise-like';
import type { MaybePromise } from '../types';
import type { EvidenceIndex } from './evidence-index';
import type { LearningInternals } from './learning';

/** A request's likeness to the mean of a tool's past requests. */
export interface EvidenceSimilarity {
  /** The cosine of the request's unit vector with the (decay-weighted) mean. */
  readonly cosine: number;
  /**
   * How much of the similarity counts, 0..1: the uses' decays now, summed, at most 1. A fresh
   * use counts fully, one a half-life old for ½ (as a use's decay scales its keyword evidence),
   * and old uses never dilute a new one.
   */
  readonly decay: number;
}

export interface EvidenceVectors {
  /** The request's likeness to the mean of a tool's past requests (undefined: none). */
  similarity(toolName: string, query: Float32Array): EvidenceSimilarity | undefined;
  /** Stops taking uses in. */
  dispose(): void;
}

/**
 * Uses whose decays sum to less than this (ten half-lives: a year at the default 30 days) count
 * for nothing: a trace of evidence would still make a tool the leader that the pseudo-relevance
 * feedback moves a request towards, when no other tool has any likeness to it.
 */
const MIN_DECAY = 2 ** -10;
/** A tool's sum is anchored again before a boost passes 2^this (as the index's boosts). */
const MAX_HALVINGS = 256;

interface VectorUse {
  readonly id: string;
  readonly toolName: string;
  readonly time: number;
  vector: Float32Array | undefined;
  /** Its vector is being embedded. */
  pending: boolean;
}

/** A tool's kept uses (oldest taken first) and the sum of their vectors, each × its boost. */
interface ToolSum {
  readonly uses: VectorUse[];
  sum: Float64Array | undefined;
  norm: number;
  /** Σ boost of the uses in `sum`; boost = 2^((time − anchor) / half-life). */
  boosts: number;
  anchor: number;
  /** Uses subtracted since the sum was last computed afresh. */
  subtracted: number;
}

/** The vectors of the uses one evidence index keeps. */
interface Generation {
  readonly index: EvidenceIndex | undefined;
  readonly tools: Map<string, ToolSum>;
  readonly byId: Map<string, VectorUse>;
}

const newGeneration = (index: EvidenceIndex | undefined): Generation => ({
  index,
  tools: new Map(),
  byId: new Map(),
});

export function createEvidenceVectors(
  learning: LearningInternals,
  embedQueries: (texts: readonly string[]) => MaybePromise<Float32Array[]>,
  report: (error: unknown) => void,
): EvidenceVectors {
  const { halfLifeMs } = learning.limits;
  let generation = newGeneration(undefined);
  /** The uses of the generation before, by id: their vectors are not embedded again. */
  let previous = new Map<string, VectorUse>();

  const boostOf = (tool: ToolSum, time: number): number =>
    halfLifeMs === Number.POSITIVE_INFINITY ? 1 : 2 ** ((time - tool.anchor) / halfLifeMs);

  const measure = (tool: ToolSum): void => {
    let squares = 0;
    for (const value of tool.sum!) squares += value * value;
    tool.norm = Math.sqrt(squares);
  };

  /** Adds `factor` × the use's vector to the tool's sum. */
  const accumulate = (tool: ToolSum, use: VectorUse, factor: number): void => {
    const vector = use.vector!;
    tool.sum ??= new Float64Array(vector.length);
    if (tool.sum.length !== vector.length) return;
    for (let dimension = 0; dimension < vector.length; dimension++)
      tool.sum[dimension]! += factor * vector[dimension]!;
    tool.boosts += factor;
  };

  /** The tool's sum computed afresh, anchored at its latest use (so every boost is ≤ 1). */
  const recompute = (tool: ToolSum): void => {
    tool.sum = undefined;
    tool.boosts = 0;
    tool.subtracted = 0;
    tool.anchor = -Number.MAX_VALUE;
    for (const use of tool.uses) if (use.vector !== undefined) tool.anchor = Math.max(tool.anchor, use.time);
    for (const use of tool.uses) if (use.vector !== undefined) accumulate(tool, use, boostOf(tool, use.time));
    if (tool.sum !== undefined) measure(tool);
  };

  const addVector = (tool: ToolSum, use: VectorUse): void => {
    if (tool.sum === undefined) tool.anchor = use.time;
    const boost = boostOf(tool, use.time);
    if (boost > 2 ** MAX_HALVINGS) recompute(tool);
    else {
      accumulate(tool, use, boost);
      measure(tool);
    }
  };

  const drop = (use: VectorUse): void => {
    generation.byId.delete(use.id);
    const tool = generation.tools.get(use.toolName)!;
    tool.uses.splice(tool.uses.indexOf(use), 1);
    if (tool.uses.length === 0) {
      generation.tools.delete(use.toolName);
      return;
    }
    if (use.vector === undefined) return;
    const boost = boostOf(tool, use.time);
    // Subtracting a use that weighs most of the sum, or many, would leave rounding: compute afresh.
    if (boost >= tool.boosts / 2 || ++tool.subtracted >= tool.uses.length) recompute(tool);
    else {
      accumulate(tool, use, -boost);
      measure(tool);
    }
  };

  /** A use's vector arrived: it counts if its use is kept (in the generation of now). */
  const arrived = (id: string, vector: Float32Array | undefined): void => {
    const use = generation.byId.get(id);
    if (use === undefined || use.vector !== undefined || vector === undefined) return;
    use.vector = vector;
    use.pending = false;
    addVector(generation.tools.get(use.toolName)!, use);
  };

  const embed = (use: VectorUse, query: string): void => {
    try {
      const vectors = embedQueries([query]);
      if (isPromiseLike(vectors)) {
        use.pending = true;
        vectors.then(
          (ready) => arrived(use.id, ready[0]),
          (error: unknown) => {
            use.pending = false;
            report(error);
          },
        );
      } else arrived(use.id, vectors[0]);
    } catch (error) {
      report(error);
    }
  };

  const unsubscribe = learning.onUse((stored, index, dropped) => {
    if (generation.index !== index) {
      previous = generation.byId;
      generation = newGeneration(index);
    }
    if (generation.byId.has(stored.id)) return;
    const known = previous.get(stored.id);
    const use: VectorUse = {
      id: stored.id,
      toolName: stored.toolName,
      time: stored.time,
      vector: undefined,
      pending: known?.pending ?? false,
    };
    generation.byId.set(use.id, use);
    let tool = generation.tools.get(use.toolName);
    if (tool === undefined) {
      tool = { uses: [], sum: undefined, norm: 0, boosts: 0, anchor: use.time, subtracted: 0 };
      generation.tools.set(use.toolName, tool);
    }
    tool.uses.push(use);
    if (known?.vector !== undefined) arrived(use.id, known.vector);
    else if (!use.pending) embed(use, stored.query);
    // The uses the index's caps dropped to take this one: their vectors go too.
    for (const id of dropped) {
      const gone = generation.byId.get(id);
      if (gone !== undefined) drop(gone);
    }
  });

  return {
    similarity(toolName, query) {
      // Another index (after `clear`, or before this factory saw a use of it): no vectors yet.
      if (learning.index() !== generation.index) return undefined;
      const tool = generation.tools.get(toolName);
      if (tool?.sum === undefined || tool.norm === 0 || tool.sum.length !== query.length) return undefined;
      let dot = 0;
      for (let dimension = 0; dimension < query.length; dimension++)
        dot += tool.sum[dimension]! * query[dimension]!;
      const decayNow =
        halfLifeMs === Number.POSITIVE_INFINITY
          ? 1
          : 2 ** (-(learning.clock.now() - tool.anchor) / halfLifeMs);
      const decay = tool.boosts * decayNow;
      if (!(decay >= MIN_DECAY)) return undefined;
      return { cosine: dot / tool.norm, decay: Math.min(decay, 1) };
    },
    dispose: unsubscribe,
  };
}
