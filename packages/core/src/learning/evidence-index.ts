// Owns the evidence of one catalog id in this process: each recorded use (its request's words,
// its tool, its time), postings from each word to the uses that had it (so a search reads only
// the postings of its own words), and the caps that bound one thread's and one tool's influence.
// Incremental: a use adds its own words' postings; dropping uses marks them, and the postings are
// rebuilt (in time linear in what is kept) only once as many are dropped as kept.
import { cutText } from '../ranking/cut-text';
import { rememberingStem } from '../ranking/stemmer';
import { isStopword } from '../ranking/stopwords';
import { tokenize } from '../ranking/tokenizer';
import type { StoredToolUse } from './evidence';

/** The bounds on evidence (see docs/learning.md). */
export interface EvidenceLimits {
  /** Uses kept in all; past it the oldest go first. */
  readonly maxUses: number;
  /** Uses kept per tool; past it the tool's oldest go first. */
  readonly maxUsesPerTool: number;
  /** Uses one thread may record for one tool. */
  readonly maxThreadUsesPerTool: number;
  /** Uses one thread may record in all. */
  readonly maxUsesPerThread: number;
  /** Tools with evidence, at most (a use of a further tool is refused). */
  readonly maxTools: number;
  /** A use weighs half as much after this many milliseconds (Infinity: never decays). */
  readonly halfLifeMs: number;
}

/** Why a use was not recorded. */
export type EvidenceRejection =
  | 'invalid-use'
  | 'no-words'
  | 'duplicate'
  | 'thread-cap'
  | 'tool-limit'
  | 'unknown-tool';

/** Tools (by number) and their evidence scores, position for position. */
export interface ToolEvidence {
  readonly tools: readonly number[];
  readonly evidence: Float64Array;
}

export interface EvidenceIndex {
  /** Records a use; undefined when recorded, else why not. */
  add(use: StoredToolUse): EvidenceRejection | undefined;
  /**
   * Each tool's evidence score for a request, 0..1 (see docs/learning.md); undefined when no
   * recorded use has a word of the request.
   */
  score(query: string, now: number): ReadonlyMap<string, number> | undefined;
  /**
   * As `score`, for a request's distinct content words, stemmed (as `evidenceWords` gives them),
   * by tool number (`toolName` names it; a number stays the same tool's for the index's life).
   */
  scoreWords(words: readonly string[], now: number): ToolEvidence | undefined;
  toolName(tool: number): string | undefined;
  /** Tools with evidence. */
  readonly toolCount: number;
  /** Uses kept. */
  readonly useCount: number;
}

/** A text is read up to this many characters (the keyword ranker's query cap). */
const MAX_TEXT_LENGTH = 10_000;
/** Words of one use that count, at most (the first distinct content words). */
const MAX_WORDS_PER_USE = 32;
/** Words of a request looked up, at most. */
export const MAX_WORDS_PER_SEARCH = 64;
/** One use that answers the whole request counts this much; each further one, this share of what is left. */
const USE_WEIGHT = 0.5;
/**
 * A use's similarity to a request is the share of the request's weight it has, to this power:
 * a use with all of the request counts fully, one with half of it for 0.35 (chosen on the
 * traffic halves of the eval sets only; see docs/learning.md).
 */
export const SHARE_EXPONENT = 1.5;
/**
 * A use with less than this share of the request's weight counts for nothing (at most
 * 0.1^1.5 × ½ = 0.016 of evidence): the words that only such uses have are not looked up.
 */
const MIN_SHARE = 0.05;
/** Boosts are kept below 2^this (the anchor moves past it). */
const MAX_HALVINGS = 256;
/** Ids, threads and thread-tool pairs remembered, at most (the oldest are forgotten first). */
const MAX_REMEMBERED = 100_000;
/** Request words whose stems are remembered (the memory restarts when full). */
const STEM_MEMO_SIZE = 4_096;

const stemOf = rememberingStem(STEM_MEMO_SIZE);

/**
 * The distinct content words of a request, stemmed, in order, at most `max` (linear in the
 * text: it is cut at the keyword ranker's query cap first).
 */
export function evidenceWords(text: string, max: number): string[] {
  const words: string[] = [];
  if (typeof text !== 'string' || text.length === 0) return words;
  const seen = new Set<string>();
  for (const token of tokenize(cutText(text, MAX_TEXT_LENGTH))) {
    if (isStopword(token)) continue;
    const word = stemOf(token);
    if (seen.has(word)) continue;
    seen.add(word);
    words.push(word);
    if (words.length >= max) break;
  }
  return words;
}

/** Counts by key, bounded: past the bound the key counted least recently is forgotten. */
function bump(counts: Map<string, number>, key: string): void {
  const count = counts.get(key) ?? 0;
  counts.delete(key);
  counts.set(key, count + 1);
  if (counts.size > MAX_REMEMBERED) counts.delete(counts.keys().next().value!);
}

interface KeptUse {
  readonly words: readonly string[];
  readonly tool: number;
  readonly time: number;
}

export function createEvidenceIndex(limits: EvidenceLimits): EvidenceIndex {
  const seenIds = new Set<string>();
  const threadUses = new Map<string, number>();
  const threadToolUses = new Map<string, number>();

  /** Tool name → its number; per tool number, its name and its kept uses (slots, oldest first). */
  const toolNumbers = new Map<string, number>();
  const toolNames: string[] = [];
  const toolSlots: number[][] = [];
  let toolsWithUses = 0;

  // Uses by slot; a dropped use is undefined until the next rebuild.
  let uses: (KeptUse | undefined)[] = [];
  /** Per slot: 2^((time − anchor) / half-life), so a search decays every use with one factor. */
  let boosts: number[] = [];
  /** Per slot: its use's tool, −1 once dropped (what a search reads of a use). */
  let slotTools: number[] = [];
  let postings = new Map<string, number[]>();
  /** Per word, the kept uses that have it (postings hold dropped ones too, until a rebuild). */
  const documentFrequency = new Map<string, number>();
  let kept = 0;
  let dropped = 0;
  /** The first slot that may still be kept (uses are added in slot order). */
  let oldest = 0;
  let anchor: number | undefined;

  // Per search: each use's summed weight, the slots met.
  let matched = new Float64Array(64);
  const touched: number[] = [];
  /** Per tool met in a search: the product of (1 − each of its uses' weight); 1 when not met. */
  let missing = new Float64Array(64).fill(1);

  const boostOf = (time: number): number => {
    if (limits.halfLifeMs === Number.POSITIVE_INFINITY) return 1;
    anchor ??= time;
    const halvings = (time - anchor) / limits.halfLifeMs;
    if (halvings > MAX_HALVINGS) {
      // Far past the anchor: move it, so that boosts stay finite (a use that old weighs 0).
      const factor = 2 ** -halvings;
      for (let slot = 0; slot < boosts.length; slot++) boosts[slot]! *= factor;
      anchor = time;
      return 1;
    }
    return 2 ** halvings;
  };

  const place = (use: KeptUse, boost: number): void => {
    const slot = uses.length;
    uses.push(use);
    slotTools.push(use.tool);
    boosts.push(boost);
    for (const word of use.words) {
      let list = postings.get(word);
      if (list === undefined) {
        list = [];
        postings.set(word, list);
      }
      list.push(slot);
      documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
    }
    const slots = toolSlots[use.tool]!;
    if (slots.length === 0) toolsWithUses++;
    slots.push(slot);
    kept++;
  };

  /** Rebuilds the slots and postings from the kept uses, once as many were dropped as kept. */
  const rebuild = (): void => {
    const keptUses: { use: KeptUse; boost: number }[] = [];
    uses.forEach((use, slot) => {
      if (use !== undefined) keptUses.push({ use, boost: boosts[slot]! });
    });
    uses = [];
    slotTools = [];
    boosts = [];
    postings = new Map();
    documentFrequency.clear();
    for (const slots of toolSlots) slots.length = 0;
    kept = 0;
    dropped = 0;
    oldest = 0;
    toolsWithUses = 0;
    for (const { use, boost } of keptUses) place(use, boost);
  };

  const drop = (slot: number): void => {
    const use = uses[slot];
    if (use === undefined) return;
    uses[slot] = undefined;
    slotTools[slot] = -1;
    for (const word of use.words) {
      const left = documentFrequency.get(word)! - 1;
      if (left === 0) documentFrequency.delete(word);
      else documentFrequency.set(word, left);
    }
    const slots = toolSlots[use.tool]!;
    const position = slots.indexOf(slot);
    if (position >= 0) slots.splice(position, 1);
    if (slots.length === 0) toolsWithUses--;
    kept--;
    dropped++;
  };

  function scoreWords(words: readonly string[], now: number): ToolEvidence | undefined {
    if (kept === 0 || words.length === 0) return undefined;
    const idf = (frequency: number) => Math.log(1 + (kept - frequency + 0.5) / (frequency + 0.5));
    if (matched.length < uses.length) matched = new Float64Array(Math.max(uses.length, matched.length * 2));
    // The request's words, heaviest first. A word no use has weighs as a word of one use: part
    // of the request no use answers.
    const weighted: { slots: readonly number[]; weight: number }[] = [];
    let total = 0;
    for (let position = 0; position < words.length && position < MAX_WORDS_PER_SEARCH; position++) {
      const word = words[position]!;
      const frequency = documentFrequency.get(word);
      const weight = idf(frequency ?? 1) ** 2;
      total += weight;
      if (frequency !== undefined) weighted.push({ slots: postings.get(word)!, weight });
    }
    if (weighted.length === 0) return undefined;
    weighted.sort((left, right) => right.weight - left.weight);
    // MaxScore: once the words left weigh less than MIN_SHARE of the request, a use none of
    // the words so far had cannot reach it; their postings only add to the uses met.
    let left = 0;
    for (const { weight } of weighted) left += weight;
    for (const { slots, weight } of weighted) {
      const opening = left >= MIN_SHARE * total;
      // The lightest words, together under MIN_SHARE / 2 of the request, are not looked up.
      if (left < (MIN_SHARE / 2) * total) break;
      left -= weight;
      for (let position = 0; position < slots.length; position++) {
        const slot = slots[position]!;
        if (slotTools[slot]! < 0) continue;
        if (matched[slot] === 0) {
          if (!opening) continue;
          touched.push(slot);
        }
        matched[slot]! += weight;
      }
    }
    if (touched.length === 0) return undefined;
    const decayNow = anchor === undefined ? 1 : 2 ** (-(now - anchor) / limits.halfLifeMs);
    if (missing.length < toolNames.length)
      missing = new Float64Array(Math.max(toolNames.length, missing.length * 2)).fill(1);
    const tools: number[] = [];
    for (const slot of touched) {
      const share = matched[slot]! / total;
      matched[slot] = 0;
      if (share < MIN_SHARE) continue;
      // share ** 1.5 (SHARE_EXPONENT), written out: it is the hot loop.
      const similarity = share * Math.sqrt(share) * Math.min(1, boosts[slot]! * decayNow);
      const tool = slotTools[slot]!;
      if (missing[tool] === 1) tools.push(tool);
      missing[tool]! *= 1 - USE_WEIGHT * similarity;
    }
    touched.length = 0;
    if (tools.length === 0) return undefined;
    const evidence = new Float64Array(tools.length);
    tools.forEach((tool, position) => {
      evidence[position] = 1 - missing[tool]!;
      missing[tool] = 1;
    });
    return { tools, evidence };
  }

  function score(query: string, now: number): ReadonlyMap<string, number> | undefined {
    const found = kept === 0 ? undefined : scoreWords(evidenceWords(query, MAX_WORDS_PER_SEARCH), now);
    if (found === undefined) return undefined;
    const scores = new Map<string, number>();
    found.tools.forEach((tool, position) => {
      scores.set(toolNames[tool]!, found.evidence[position]!);
    });
    return scores;
  }

  return {
    get toolCount() {
      return toolsWithUses;
    },
    get useCount() {
      return kept;
    },

    add(use) {
      if (seenIds.has(use.id)) return 'duplicate';
      const words = evidenceWords(use.query, MAX_WORDS_PER_USE);
      if (words.length === 0) return 'no-words';
      const { thread, toolName } = use;
      const pairKey = thread === undefined ? undefined : `${thread}\u0000${toolName}`;
      if (thread !== undefined) {
        if ((threadUses.get(thread) ?? 0) >= limits.maxUsesPerThread) return 'thread-cap';
        if ((threadToolUses.get(pairKey!) ?? 0) >= limits.maxThreadUsesPerTool) return 'thread-cap';
      }
      let tool = toolNumbers.get(toolName);
      if (tool === undefined) {
        if (toolNames.length >= limits.maxTools) return 'tool-limit';
        tool = toolNames.length;
        toolNumbers.set(toolName, tool);
        toolNames.push(toolName);
        toolSlots.push([]);
      }
      seenIds.add(use.id);
      if (seenIds.size > MAX_REMEMBERED) seenIds.delete(seenIds.values().next().value!);
      if (thread !== undefined) {
        bump(threadUses, thread);
        bump(threadToolUses, pairKey!);
      }
      place({ words, tool, time: use.time }, boostOf(use.time));
      const slots = toolSlots[tool]!;
      while (slots.length > limits.maxUsesPerTool) drop(slots[0]!);
      while (kept > limits.maxUses) {
        while (uses[oldest] === undefined) oldest++;
        drop(oldest);
      }
      if (dropped > kept && dropped > 64) rebuild();
      return undefined;
    },

    score,
    toolName: (tool) => toolNames[tool],

    scoreWords,
  };
}
