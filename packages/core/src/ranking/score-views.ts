import {
  compareWords,
  createFuzzyMatcher,
  type FuzzyMatcher,
  MAX_FUZZY_LENGTH,
  maxEditsFor,
} from './fuzzy-matcher';
import type { InvertedIndex } from './inverted-index';
import { rememberingStem } from './stemmer';
import { isStopword } from './stopwords';
import { tokenize } from './tokenizer';
import type { WordNeighbours } from './word-neighbours';

/** A stopword in a request counts this much of a content word (it only matches tool names). */
const STOPWORD_WEIGHT = 0.1;
/** A word matched through a typo counts this much per edit (one edit: 0.5, two: 0.25). */
const FUZZY_PENALTY = 0.5;
/** At most this many catalog words (the closest) stand in for one unknown query word. */
const MAX_FUZZY_VARIANTS = 3;
/** A word matched through its meaning counts this much × the cosine of the two words' vectors. */
const NEIGHBOUR_WEIGHT = 0.75;
/**
 * Request words looked up by meaning per search, at most (the first ones): a request has a
 * handful, and a 10 kB request of rare words took 170–300 ms to look up in full at 10,000
 * tools, against 30–70 ms without meaning.
 */
const MAX_MEANING_LOOKUPS = 32;
/** Request words whose stems are remembered (the memory restarts when full). */
const STEM_MEMO_SIZE = 4_096;

/** The raw scores of one view of a request (the whole request, or one of its parts). */
export interface View {
  /** Raw score per tool; only the tools `touched[0 .. count − 1]` are non-zero. */
  readonly scores: Float64Array;
  readonly touched: Int32Array;
  count: number;
  /** The raw score of a tool matching every word of the view once in its name. */
  ideal: number;
}

interface Variant {
  readonly term: number;
  /**
   * idf × typo penalty (or × the meaning discount): the most this term adds to a tool's score,
   * before the view's stopword factor.
   */
  readonly weight: number;
  /**
   * What the word counts for in the view's ideal score: its weight for the word itself or a
   * typo of it (the stand-in is the word), the undiscounted idf for a word of like meaning
   * (a tool matched only that way is a partial answer, never a full one).
   */
  readonly ideal: number;
}

export interface ViewScorer {
  /**
   * Scores several views of one request at once: each distinct word is looked up once for all
   * the views it appears in. Call `release` when done. `contentWords`, when given, receives the
   * first view's distinct content words (stemmed when stemming is on), in order.
   */
  score(texts: readonly string[], contentWords?: string[]): View[];
  /** Clears the views' buffers for the next request. */
  release(views: readonly View[]): void;
}

/**
 * Request scoring over a built index: words stemmed and deduplicated per view, stopwords
 * down-weighted (at full weight when a view has nothing else), unknown words replaced by their
 * closest catalog words, each word's saturated BM25F weights summed per tool.
 */
export function createViewScorer(
  index: InvertedIndex,
  options: {
    stemming: boolean;
    fuzzy: boolean;
    referenceWeight: number;
    /** Catalog words of like meaning, for request words neither the catalog nor a typo of it explains. */
    neighbours?: WordNeighbours;
    /** Called when `neighbours` fails; the word is then left unmatched. */
    onError?: (error: unknown) => void;
  },
): ViewScorer {
  const pool: View[] = [];
  const best = new Float64Array(index.size);
  const bestTouched = new Int32Array(index.size);
  let bestCount = 0;
  let fuzzyMatcher: FuzzyMatcher | undefined;
  const frequency = (term: number): number => index.offsets[term + 1]! - index.offsets[term]!;

  /**
   * Request words → their stems. Requests repeat their words (a word is in the whole request
   * and in its part), and across requests; stemming a word took longer than remembering it.
   */
  const stemOf = rememberingStem(STEM_MEMO_SIZE);

  /** Lookups by meaning left to the search being scored. */
  let meaningLookups = 0;

  /** The catalog words closest in meaning to `token` (the request word before stemming). */
  const neighboursOf = (token: string): Variant[] => {
    const { neighbours } = options;
    if (neighbours === undefined || meaningLookups === 0) return [];
    meaningLookups--;
    try {
      return neighbours.of(token).map(({ term, similarity }) => ({
        term,
        weight: index.idf[term]! * NEIGHBOUR_WEIGHT * similarity,
        ideal: index.idf[term]!,
      }));
    } catch (error) {
      options.onError?.(error);
      return [];
    }
  };

  /**
   * What stands in for a request word: itself when the catalog knows it; else its closest
   * spellings in the catalog (a typo); else the catalog words closest to it in meaning.
   */
  const variantsOf = (word: string, token: string, stop: boolean): Variant[] => {
    const known = index.termIds.get(word);
    if (known !== undefined && frequency(known) > 0) {
      const weight = index.idf[known]!;
      return [{ term: known, weight, ideal: weight }];
    }
    if (stop) return [];
    if (!options.fuzzy || word.length > MAX_FUZZY_LENGTH) return neighboursOf(token);
    fuzzyMatcher ??= createFuzzyMatcher(index.terms);
    const matches = fuzzyMatcher.lookup(word, maxEditsFor(word.length));
    if (matches.length === 0) return neighboursOf(token);
    // Only the closest spellings stand in (as a spelling checker's suggestion would); among
    // them, the more common words are the likelier intent.
    const closest = matches[0]?.distance;
    return matches
      .filter((match) => match.distance === closest)
      .sort(
        (left, right) =>
          frequency(right.index) - frequency(left.index) ||
          compareWords(index.terms[left.index]!, index.terms[right.index]!),
      )
      .slice(0, MAX_FUZZY_VARIANTS)
      .map((match) => {
        const weight = index.idf[match.index]! * FUZZY_PENALTY ** match.distance;
        return { term: match.index, weight, ideal: weight };
      });
  };

  /** Adds `scale × weight` of each posting of `term` to a view. */
  const addPostings = (view: View, term: number, scale: number): void => {
    const { scores, touched } = view;
    const end = index.offsets[term + 1]!;
    for (let position = index.offsets[term]!; position < end; position++) {
      const document = index.documents[position]!;
      if (scores[document] === 0) touched[view.count++] = document;
      scores[document]! += scale * index.weights[position]!;
    }
  };

  return {
    score(texts: readonly string[], contentWords?: string[]): View[] {
      meaningLookups = MAX_MEANING_LOOKUPS;
      const views = texts.map((_, slot): View => {
        pool[slot] ??= {
          scores: new Float64Array(index.size),
          touched: new Int32Array(index.size),
          count: 0,
          ideal: 0,
        };
        const view = pool[slot]!;
        view.ideal = 0;
        return view;
      });
      // Each distinct (stemmed) word, with its weight factor in each view (0: absent).
      const words = new Map<string, { token: string; stop: boolean; factors: number[] }>();
      texts.forEach((text, view) => {
        const tokens = tokenize(text);
        const hasContent = tokens.some((token) => !isStopword(token));
        for (const token of tokens) {
          const stop = isStopword(token);
          const word = options.stemming ? stemOf(token) : token;
          let entry = words.get(word);
          if (entry === undefined) {
            entry = { token, stop, factors: texts.map(() => 0) };
            words.set(word, entry);
            if (view === 0 && !stop) contentWords?.push(word);
          }
          entry.factors[view] = stop && hasContent ? STOPWORD_WEIGHT : 1;
        }
      });
      for (const [word, { token, stop, factors }] of words) {
        const variants = variantsOf(word, token, stop);
        if (variants.length === 0) continue;
        const strongest = Math.max(...variants.map((variant) => variant.ideal));
        factors.forEach((factor, slot) => {
          if (factor === 0) return;
          const view = views[slot]!;
          view.ideal += factor * strongest * options.referenceWeight;
          if (variants.length === 1) {
            addPostings(view, variants[0]!.term, factor * variants[0]!.weight);
            return;
          }
          // Several stand-ins for one word: a tool gets the best of them, never their sum.
          for (const { term, weight } of variants) {
            for (let position = index.offsets[term]!; position < index.offsets[term + 1]!; position++) {
              const document = index.documents[position]!;
              const value = weight * index.weights[position]!;
              if (best[document] === 0) bestTouched[bestCount++] = document;
              if (value > best[document]!) best[document] = value;
            }
          }
          for (let position = 0; position < bestCount; position++) {
            const document = bestTouched[position]!;
            if (view.scores[document] === 0) view.touched[view.count++] = document;
            view.scores[document]! += factor * best[document]!;
            best[document] = 0;
          }
          bestCount = 0;
        });
      }
      return views;
    },

    release(views: readonly View[]): void {
      for (const view of views) {
        // Many touched tools: one pass in order is faster than as many random writes.
        if (view.count > view.scores.length >> 3) view.scores.fill(0);
        else
          for (let position = 0; position < view.count; position++) view.scores[view.touched[position]!] = 0;
        view.count = 0;
      }
    },
  };
}
