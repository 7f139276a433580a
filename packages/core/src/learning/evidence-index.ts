// Owns the evidence of one catalog id in this process: per tool, the request words of its uses
// (decayed counts, as postings by word, so a search reads only the postings of its own words),
// and the caps that bound one thread's and one tool's influence. Incremental: a use updates the
// postings of its own words and tool, never the whole index.
import { cutText } from '../ranking/cut-text';
import { MAX_QUERY_LENGTH } from '../ranking/keyword-ranker';
import { stem } from '../ranking/stemmer';
import { isStopword } from '../ranking/stopwords';
import { tokenize } from '../ranking/tokenizer';
import type { StoredToolUse } from './evidence';

/** The bounds on evidence (see docs/learning.md). */
export interface EvidenceLimits {
  /** A tool's evidence weighs at most this many uses; past it, older uses are scaled down. */
  readonly maxUsesPerTool: number;
  /** Uses one thread may record for one tool. */
  readonly maxThreadUsesPerTool: number;
  /** Uses one thread may record in all. */
  readonly maxUsesPerThread: number;
  /** Distinct request words kept per tool (the weakest go first). */
  readonly maxWordsPerTool: number;
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

export interface EvidenceIndex {
  /** Records a use; undefined when recorded, else why not. */
  add(use: StoredToolUse): EvidenceRejection | undefined;
  /**
   * Each tool's evidence score for a request, 0..1 (the IDF-weighted share of the request's
   * words found in the tool's uses, each word by the share of the tool's uses that had it,
   * shrunk towards 0 for a tool with few uses); undefined when no tool's evidence has any of
   * the request's words.
   */
  score(query: string, now: number): ReadonlyMap<string, number> | undefined;
  /** Tools with evidence. */
  readonly toolCount: number;
  /** Uses recorded (duplicates and refused uses not counted). */
  readonly useCount: number;
}

/** Words of one use that count, at most (the first distinct content words). */
const MAX_WORDS_PER_USE = 32;
/** Words of a request looked up, at most. */
const MAX_WORDS_PER_SEARCH = 64;
/**
 * The uses a tool's evidence is shrunk by: a word in all of a tool's n uses weighs n / (n + 1),
 * so one use counts half, ten uses 0.91.
 */
const PRIOR_USES = 1;
/** Ids, threads and thread-tool pairs remembered, at most (the oldest are forgotten first). */
const MAX_REMEMBERED = 100_000;
/** Request words whose stems are remembered (the memory restarts when full). */
const STEM_MEMO_SIZE = 4_096;

interface ToolEvidence {
  /** Decayed number of uses, as of `time`. */
  uses: number;
  /** When the counts were last brought up to date. */
  time: number;
  readonly words: Set<string>;
}

const stems = new Map<string, string>();
function stemOf(token: string): string {
  let found = stems.get(token);
  if (found === undefined) {
    if (stems.size >= STEM_MEMO_SIZE) stems.clear();
    found = stem(token);
    stems.set(token, found);
  }
  return found;
}

/**
 * The distinct content words of a request, stemmed, in order, at most `max` (linear in the
 * text: it is cut at the keyword ranker's query cap first).
 */
export function evidenceWords(text: string, max: number): string[] {
  const words: string[] = [];
  if (typeof text !== 'string' || text.length === 0) return words;
  const seen = new Set<string>();
  for (const token of tokenize(cutText(text, MAX_QUERY_LENGTH))) {
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

export function createEvidenceIndex(limits: EvidenceLimits): EvidenceIndex {
  const tools = new Map<string, ToolEvidence>();
  /** Word → tool name → decayed count of the tool's uses with the word (as of the tool's `time`). */
  const postings = new Map<string, Map<string, number>>();
  const seenIds = new Set<string>();
  const threadUses = new Map<string, number>();
  const threadToolUses = new Map<string, number>();
  let useCount = 0;

  const decay = (elapsed: number): number =>
    elapsed <= 0 || limits.halfLifeMs === Number.POSITIVE_INFINITY ? 1 : 2 ** (-elapsed / limits.halfLifeMs);

  /** Multiplies a tool's counts by `factor`. */
  const scaleTool = (name: string, tool: ToolEvidence, factor: number): void => {
    if (factor === 1) return;
    tool.uses *= factor;
    for (const word of tool.words) {
      const posting = postings.get(word)!;
      posting.set(name, posting.get(name)! * factor);
    }
  };

  const dropWord = (name: string, tool: ToolEvidence, word: string): void => {
    tool.words.delete(word);
    const posting = postings.get(word)!;
    posting.delete(name);
    if (posting.size === 0) postings.delete(word);
  };

  /** Drops a tool's weakest words until it keeps at most the limit (the word just added last). */
  const trimWords = (name: string, tool: ToolEvidence): void => {
    while (tool.words.size > limits.maxWordsPerTool) {
      let weakest: string | undefined;
      let least = Number.POSITIVE_INFINITY;
      for (const word of tool.words) {
        const count = postings.get(word)!.get(name)!;
        if (count < least) {
          least = count;
          weakest = word;
        }
      }
      dropWord(name, tool, weakest!);
    }
  };

  return {
    get toolCount() {
      return tools.size;
    },
    get useCount() {
      return useCount;
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
      let tool = tools.get(toolName);
      if (tool === undefined) {
        if (tools.size >= limits.maxTools) return 'tool-limit';
        tool = { uses: 0, time: use.time, words: new Set() };
        tools.set(toolName, tool);
      }
      // Counts are kept as of the latest use: a newer use first decays the older ones, an older
      // use (replayed, imported) counts as much as it has decayed.
      let weight = 1;
      if (use.time >= tool.time) {
        scaleTool(toolName, tool, decay(use.time - tool.time));
        tool.time = use.time;
      } else {
        weight = decay(tool.time - use.time);
      }
      tool.uses += weight;
      for (const word of words) {
        let posting = postings.get(word);
        if (posting === undefined) {
          posting = new Map();
          postings.set(word, posting);
        }
        posting.set(toolName, (posting.get(toolName) ?? 0) + weight);
        tool.words.add(word);
      }
      if (tool.uses > limits.maxUsesPerTool) scaleTool(toolName, tool, limits.maxUsesPerTool / tool.uses);
      trimWords(toolName, tool);
      seenIds.add(use.id);
      if (seenIds.size > MAX_REMEMBERED) seenIds.delete(seenIds.values().next().value!);
      if (thread !== undefined) {
        bump(threadUses, thread);
        bump(threadToolUses, pairKey!);
      }
      useCount++;
      return undefined;
    },

    score(query, now) {
      if (tools.size === 0) return undefined;
      const words = evidenceWords(query, MAX_WORDS_PER_SEARCH);
      if (words.length === 0) return undefined;
      const toolTotal = tools.size;
      const idf = (documents: number) => Math.log(1 + (toolTotal - documents + 0.5) / (documents + 0.5));
      let total = 0;
      let matched: Map<string, number> | undefined;
      /** Per tool met in this search: its decay factor and its decayed uses plus the prior. */
      const shrink = new Map<string, number>();
      for (const word of words) {
        const posting = postings.get(word);
        // A word no tool's evidence has weighs as a word of one tool: it is part of the request
        // the evidence does not answer.
        const weight = idf(posting?.size ?? 1);
        total += weight;
        if (posting === undefined) continue;
        matched ??= new Map();
        for (const [name, count] of posting) {
          let factor = shrink.get(name);
          if (factor === undefined) {
            const tool = tools.get(name)!;
            const decayed = decay(now - tool.time);
            factor = decayed / (tool.uses * decayed + PRIOR_USES);
            shrink.set(name, factor);
          }
          matched.set(name, (matched.get(name) ?? 0) + weight * count * factor);
        }
      }
      if (matched === undefined || total <= 0) return undefined;
      for (const [name, sum] of matched) matched.set(name, Math.min(1, sum / total));
      return matched;
    },
  };
}
