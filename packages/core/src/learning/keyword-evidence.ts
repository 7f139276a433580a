// Owns the fusion of evidence of use into the keyword ranker's scores: before the ranking picks
// its tools, each tool's relevance to the whole request becomes `own + weight × evidence ×
// (1 − own)`, so a tool found only by evidence joins the candidates, and every tool keeps its own
// score's exact value (no wider search of the ranker is needed, as `withLearning` needs).
import type { View } from '../ranking/score-views';
import { type EvidenceIndex, evidenceWords, MAX_WORDS_PER_SEARCH } from './evidence-index';
import type { LearningInternals } from './learning';
import { fuseEvidence } from './with-learning';

export interface EvidenceFusion {
  /** True when the search should collect the request's content words for the evidence. */
  wantsWords(): boolean;
  /**
   * Fuses the evidence for the request into the view of the whole request (raw scores): every
   * tool with evidence that its own text scores, and the `limit` best that only evidence finds.
   */
  fuse(whole: View, text: string, contentWords: readonly string[] | undefined, limit: number): void;
}

/** A tool number the ranker has not looked up yet, or whose tool is not in its catalog. */
const UNKNOWN = -2;
const ABSENT = -1;

export function createEvidenceFusion(
  learning: LearningInternals,
  names: readonly string[],
  stemming: boolean,
): EvidenceFusion {
  const positions = new Map<string, number>();
  names.forEach((name, position) => {
    positions.set(name, position);
  });
  learning.knowTools(names);
  /** Evidence tool number → this catalog's document (per index: a reload makes a new index). */
  let documents = new Int32Array(0);
  let documentsOf: EvidenceIndex | undefined;
  const documentOf = (index: EvidenceIndex, tool: number): number => {
    if (documentsOf !== index) {
      documentsOf = index;
      documents = new Int32Array(0);
    }
    if (tool >= documents.length) {
      const grown = new Int32Array(Math.max(tool + 1, documents.length * 2, 64)).fill(UNKNOWN);
      grown.set(documents);
      documents = grown;
    }
    if (documents[tool] === UNKNOWN) documents[tool] = positions.get(index.toolName(tool)!) ?? ABSENT;
    return documents[tool]!;
  };

  return {
    wantsWords: () => stemming && learning.weight > 0 && learning.index().useCount > 0,
    fuse(whole, text, contentWords, limit) {
      const index = learning.index();
      const { weight } = learning;
      if (index.useCount === 0 || weight === 0) return;
      const now = learning.clock.now();
      // The scorer's words are the evidence's words when stemming is on (the same stems).
      const found = contentWords
        ? index.scoreWords(contentWords, now)
        : index.scoreWords(evidenceWords(text, MAX_WORDS_PER_SEARCH), now);
      if (found === undefined) return;
      // A request of words no tool has: every own score is 0, and the evidence alone ranks.
      if (!(whole.ideal > 0)) whole.ideal = 1;
      const { ideal, scores } = whole;
      const { tools, evidence } = found;
      /** Tools only evidence finds: positions in `tools`, the best `limit` kept. */
      const onlyEvidence: number[] = [];
      for (let position = 0; position < tools.length; position++) {
        const document = documentOf(index, tools[position]!);
        if (document < 0) continue;
        const raw = scores[document]!;
        if (raw === 0) {
          onlyEvidence.push(position);
          continue;
        }
        const own = raw / ideal;
        if (own < 1) scores[document] = fuseEvidence(own, evidence[position]!, weight) * ideal;
      }
      if (onlyEvidence.length > limit) {
        onlyEvidence.sort(
          (left, right) => evidence[right]! - evidence[left]! || tools[left]! - tools[right]!,
        );
        onlyEvidence.length = limit;
      }
      for (const position of onlyEvidence) {
        const document = documentOf(index, tools[position]!);
        whole.touched[whole.count++] = document;
        scores[document] = fuseEvidence(0, evidence[position]!, weight) * ideal;
      }
    },
  };
}
