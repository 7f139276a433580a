// Owns the evidence of one catalog id in this process: each recorded use (its request's words,
// its tool, its time), and each tool's evidence field: per word, the tools whose uses had it,
// with their decayed count of such uses (so a search reads only its own words' fields), and the
// caps that bound one thread's and one tool's influence. Incremental: a use adds to its words'
// fields and a dropped use takes its part out; the fields are rebuilt (in time linear in what is
// kept) only once as many uses are dropped as kept, to shed the tools left at zero.
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

/**
 * Tools (by number) and their evidence scores, position for position. The arrays are the
 * index's own buffers: read them before the index's next search.
 */
export interface ToolEvidence {
  readonly tools: Int32Array;
  readonly evidence: Float64Array;
}

export interface EvidenceIndex {
  /**
   * Records a use; undefined when recorded, else why not. `dropped`, when given, receives the
   * ids of the kept uses the caps dropped to make room for it.
   */
  add(use: StoredToolUse, dropped?: string[]): EvidenceRejection | undefined;
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
/**
 * Tools are opened (met for the first time) only by the request's heaviest words, until the
 * words left weigh less than this share of the request (MaxScore): a tool met by lighter words
 * only could not reach much evidence. Chosen on a split of the eval sets' traffic halves only.
 */
const OPEN_SHARE = 0.2;
/** A tool with less evidence than this for a request gets none (chosen as OPEN_SHARE was). */
const MIN_EVIDENCE = 0.05;
/** A map lookup costs about this many steps of reading a field (when to look tools up instead). */
const LOOKUP_COST = 16;
/** A field's first capacity (it doubles as it fills). */
const FIELD_START = 4;

/**
 * A word's weight in a tool's evidence field: n / (n + 1) for n uses of the tool with the
 * word, each decayed (and at most 1): one use gives ½, two ⅔, three ¾; it never reaches 1.
 */
function wordWeight(count: number, boosts: number, decayNow: number): number {
  const uses = Math.min(count, boosts * decayNow);
  return uses / (uses + 1);
}
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

/** One word's part of the evidence: the tools whose uses had it. */
interface WordField {
  /**
   * Per position, three numbers in a row (one array, read in order by a search): the tool's
   * number, the sum of the boosts of its kept uses with the word, and how many kept uses of the
   * tool have the word (0: none left).
   */
  entries: Float64Array;
  /** Positions used. */
  size: number;
  /** Tool number → position. */
  readonly at: Map<number, number>;
  /** Tools with a kept use of the word. */
  live: number;
}

/** Numbers per position of a field: tool, boosts, count. */
const STRIDE = 3;
const TOOL = 0;
const BOOSTS = 1;
const COUNT = 2;

function newField(): WordField {
  return { entries: new Float64Array(FIELD_START * STRIDE), size: 0, at: new Map(), live: 0 };
}

/** The offset of a tool's entry in a field, added (with nothing yet) when it has none. */
function entryOf(field: WordField, tool: number): number {
  const known = field.at.get(tool);
  if (known !== undefined) return known * STRIDE;
  if ((field.size + 1) * STRIDE > field.entries.length) {
    const grown = new Float64Array(field.entries.length * 2);
    grown.set(field.entries);
    field.entries = grown;
  }
  const position = field.size++;
  field.entries[position * STRIDE + TOOL] = tool;
  field.at.set(tool, position);
  return position * STRIDE;
}

/** Adds a use (at its boost) to its words' fields. */
function addToFields(fields: Map<string, WordField>, use: KeptUse, boost: number): void {
  for (const word of use.words) {
    let field = fields.get(word);
    if (field === undefined) {
      field = newField();
      fields.set(word, field);
    }
    const entry = entryOf(field, use.tool);
    if (field.entries[entry + COUNT] === 0) field.live++;
    field.entries[entry + BOOSTS]! += boost;
    field.entries[entry + COUNT]!++;
  }
}

/** Takes a dropped use (at its boost) out of its words' fields. */
function takeFromFields(fields: Map<string, WordField>, use: KeptUse, boost: number): void {
  for (const word of use.words) {
    const field = fields.get(word)!;
    const entry = field.at.get(use.tool)! * STRIDE;
    field.entries[entry + COUNT]!--;
    if (field.entries[entry + COUNT] === 0) {
      field.entries[entry + BOOSTS] = 0;
      field.live--;
    } else field.entries[entry + BOOSTS]! -= boost;
  }
}

interface KeptUse {
  readonly id: string;
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
  /**
   * Per word, the tools whose uses have it: the tool numbers, the sum of those uses' boosts
   * (the word's weight in the tool's evidence field, before decay) and their count, position
   * for position; `at` finds a tool's position. A tool whose uses of the word were all dropped
   * stays with count 0 until the next rebuild.
   */
  let fields = new Map<string, WordField>();
  let kept = 0;
  let dropped = 0;
  /** The first slot that may still be kept (uses are added in slot order). */
  let oldest = 0;
  let anchor: number | undefined;

  // Per search: each tool's summed weight, the tools met.
  let matched = new Float64Array(64);
  const touched: number[] = [];

  const boostOf = (time: number): number => {
    if (limits.halfLifeMs === Number.POSITIVE_INFINITY) return 1;
    anchor ??= time;
    const halvings = (time - anchor) / limits.halfLifeMs;
    if (halvings > MAX_HALVINGS) {
      // Far past the anchor: move it, so that boosts stay finite (a use that old weighs 0).
      const factor = 2 ** -halvings;
      for (let slot = 0; slot < boosts.length; slot++) boosts[slot]! *= factor;
      for (const field of fields.values()) {
        for (let entry = 0; entry < field.size * STRIDE; entry += STRIDE) {
          field.entries[entry + BOOSTS]! *= factor;
        }
      }
      anchor = time;
      return 1;
    }
    return 2 ** halvings;
  };

  const place = (use: KeptUse, boost: number): void => {
    const slot = uses.length;
    uses.push(use);
    boosts.push(boost);
    addToFields(fields, use, boost);
    const slots = toolSlots[use.tool]!;
    if (slots.length === 0) toolsWithUses++;
    slots.push(slot);
    kept++;
  };

  /** Rebuilds the slots and fields from the kept uses, once as many were dropped as kept. */
  const rebuild = (): void => {
    const keptUses: { use: KeptUse; boost: number }[] = [];
    uses.forEach((use, slot) => {
      if (use !== undefined) keptUses.push({ use, boost: boosts[slot]! });
    });
    uses = [];
    boosts = [];
    fields = new Map();
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
    takeFromFields(fields, use, boosts[slot]!);
    const slots = toolSlots[use.tool]!;
    const position = slots.indexOf(slot);
    if (position >= 0) slots.splice(position, 1);
    if (slots.length === 0) toolsWithUses--;
    kept--;
    dropped++;
  };

  // Per search: the request's words that some tool's evidence has, heaviest first.
  const fieldsMet: WordField[] = [];
  const fieldWeights: number[] = [];
  const order: number[] = [];
  // The answer's buffers, reused by the next search (see ToolEvidence).
  let foundTools = new Int32Array(64);
  let foundEvidence = new Float64Array(64);

  function scoreWords(words: readonly string[], now: number): ToolEvidence | undefined {
    if (kept === 0 || words.length === 0) return undefined;
    const tools = toolsWithUses;
    const idf = (frequency: number) => Math.log(1 + (tools - frequency + 0.5) / (frequency + 0.5));
    if (matched.length < toolNames.length)
      matched = new Float64Array(Math.max(toolNames.length, matched.length * 2));
    // A word no tool's evidence has weighs as a word of one tool: part of the request no use
    // answers. Each word counts IDF² (over the tools with evidence).
    let total = 0;
    fieldsMet.length = 0;
    fieldWeights.length = 0;
    for (let position = 0; position < words.length && position < MAX_WORDS_PER_SEARCH; position++) {
      const field = fields.get(words[position]!);
      const live = field === undefined ? 0 : field.live;
      const weight = idf(live > 0 ? live : 1) ** 2;
      total += weight;
      if (live > 0) {
        fieldsMet.push(field!);
        fieldWeights.push(weight);
      }
    }
    if (fieldsMet.length === 0) return undefined;
    // Heaviest first (insertion sort: a request has few words).
    order.length = 0;
    for (let position = 0; position < fieldsMet.length; position++) {
      const weight = fieldWeights[position]!;
      let at = order.length;
      while (at > 0 && fieldWeights[order[at - 1]!]! < weight) {
        order[at] = order[at - 1]!;
        at--;
      }
      order[at] = position;
    }
    const decayNow = anchor === undefined ? 1 : 2 ** (-(now - anchor) / limits.halfLifeMs);
    let left = 0;
    for (const weight of fieldWeights) left += weight;
    for (const met of order) {
      const field = fieldsMet[met]!;
      const weight = fieldWeights[met]!;
      const opening = left >= OPEN_SHARE * total;
      left -= weight;
      const { entries, size, at } = field;
      if (!opening && touched.length * LOOKUP_COST < size) {
        // Only the tools met so far can gain, and they are fewer than the word's: look each
        // of them up rather than read the whole field.
        for (const tool of touched) {
          const position = at.get(tool);
          if (position === undefined) continue;
          const entry = position * STRIDE;
          const count = entries[entry + COUNT]!;
          if (count === 0) continue;
          matched[tool]! += weight * wordWeight(count, entries[entry + BOOSTS]!, decayNow);
        }
        continue;
      }
      const end = size * STRIDE;
      for (let entry = 0; entry < end; entry += STRIDE) {
        const count = entries[entry + COUNT]!;
        if (count === 0) continue;
        const tool = entries[entry + TOOL]!;
        if (matched[tool] === 0) {
          if (!opening) continue;
          touched.push(tool);
        }
        matched[tool]! += weight * wordWeight(count, entries[entry + BOOSTS]!, decayNow);
      }
    }
    fieldsMet.length = 0;
    if (touched.length === 0) return undefined;
    if (foundTools.length < touched.length) {
      foundTools = new Int32Array(Math.max(touched.length, foundTools.length * 2));
      foundEvidence = new Float64Array(foundTools.length);
    }
    let scored = 0;
    for (const tool of touched) {
      const share = matched[tool]! / total;
      matched[tool] = 0;
      if (share < MIN_EVIDENCE) continue;
      foundTools[scored] = tool;
      foundEvidence[scored++] = share;
    }
    touched.length = 0;
    if (scored === 0) return undefined;
    return { tools: foundTools.subarray(0, scored), evidence: foundEvidence.subarray(0, scored) };
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

    add(use, droppedIds) {
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
      place({ id: use.id, words, tool, time: use.time }, boostOf(use.time));
      const slots = toolSlots[tool]!;
      const dropSlot = (slot: number) => {
        droppedIds?.push(uses[slot]!.id);
        drop(slot);
      };
      while (slots.length > limits.maxUsesPerTool) dropSlot(slots[0]!);
      while (kept > limits.maxUses) {
        while (uses[oldest] === undefined) oldest++;
        dropSlot(oldest);
      }
      if (dropped > kept && dropped > 64) rebuild();
      return undefined;
    },

    score,
    toolName: (tool) => toolNames[tool],

    scoreWords,
  };
}
