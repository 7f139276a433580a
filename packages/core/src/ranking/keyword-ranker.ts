import { optionsObject, ToolSearchError } from '../errors';
import { createEvidenceFusion } from '../learning/keyword-evidence';
import { type Learning, learningInternals } from '../learning/learning';
import { rebuildsWithLearning } from '../learning/with-learning';
import { safeListener } from '../listener';
import { checkOptionNames, type OptionNamesOf } from '../option-names';
import type { Ranker, SearchOptions, SearchResult, ToolDescriptor } from '../types';
import {
  buildCatalogIndex,
  FIELD_DESCRIPTION,
  FIELD_NAME,
  FIELD_PARAMETERS,
  FIELD_TAGS,
} from './catalog-index';
import { coverParts } from './cover-parts';
import { cutText } from './cut-text';
import type { FieldSpec } from './inverted-index';
import { createViewScorer, type View } from './score-views';
import { validateSearchOptions } from './search-options';
import { requestParts } from './split-clauses';
import { stem } from './stemmer';
import { positionsByName } from './tool-names';
import { selectTop } from './top-k';
import { createWordNeighbours, type WordVectors } from './word-neighbours';

/** How much one occurrence of a word counts, by where it appears in a tool. */
export interface FieldWeights {
  readonly name: number;
  readonly tags: number;
  readonly description: number;
  readonly parameters: number;
}

export interface KeywordRankerOptions {
  /** Field weights (default name 3, tags 2, description 1, parameters 0.5). */
  readonly fieldWeights?: Partial<FieldWeights>;
  /** BM25 term-frequency saturation (default 1.2). */
  readonly k1?: number;
  /** BM25 length normalisation of the description and parameters, 0..1 (default 0.75). */
  readonly b?: number;
  /** Match word forms with the Porter stemmer (default true). */
  readonly stemming?: boolean;
  /** Let query words the catalog does not know match catalog words within a small edit distance (default true). */
  readonly fuzzy?: boolean;
  /** Split a request into its parts and give each part its share of the results (default true). */
  readonly multiPart?: boolean;
  /**
   * Vectors of single words (an offline word model: `createWordVectorEmbedder().embedWords`
   * from `@tool-search/word-vectors`). A request word that no tool contains, and that is no
   * typo of a catalog word, then matches the two catalog words closest to it in meaning
   * ("sunny" → "weather"), at 0.75 × their cosine. Off by default; the hybrid ranker turns it
   * on when its embedder has `embedWords`. See docs/ranking.md.
   */
  readonly wordVectors?: WordVectors;
  /** Called when `wordVectors` fails (throws, or gives vectors that do not fit); the search goes on without it. */
  readonly onError?: (error: unknown) => void;
  /** Also rank by evidence of use (`createLearning()`; see docs/learning.md). */
  readonly learning?: Learning;
}

/** The keyword ranker answers synchronously. */
export interface KeywordRanker extends Ranker {
  search(query: string, options?: SearchOptions): SearchResult[];
}

export const DEFAULT_FIELD_WEIGHTS: FieldWeights = { name: 3, tags: 2, description: 1, parameters: 0.5 };

const KEYWORD_RANKER_OPTION_NAMES = {
  fieldWeights: { name: true, tags: true, description: true, parameters: true },
  k1: true,
  b: true,
  stemming: true,
  fuzzy: true,
  multiPart: true,
  wordVectors: true,
  onError: true,
  learning: true,
} as const satisfies OptionNamesOf<KeywordRankerOptions>;

/** A query is read up to this many characters: no tool request is longer, and the cost stays bounded. */
export const MAX_QUERY_LENGTH = 10_000;
/** Share of the diversified ranking that rewards covering parts not yet covered (xQuAD's λ). */
const DIVERSITY = 0.5;

function validateRankerOptions(options: KeywordRankerOptions): {
  weights: FieldWeights;
  k1: number;
  b: number;
} {
  const given = options.fieldWeights;
  if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given))) {
    throw new ToolSearchError('INVALID_OPTIONS', 'fieldWeights must be an object of field weights');
  }
  const weights = { ...DEFAULT_FIELD_WEIGHTS, ...given };
  for (const flag of ['stemming', 'fuzzy', 'multiPart'] as const) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') {
      throw new ToolSearchError(
        'INVALID_OPTIONS',
        `${flag} must be true or false, got ${String(options[flag])}`,
      );
    }
  }
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const valid = (value: number) => typeof value === 'number' && Number.isFinite(value);
  const weightList = Object.values(weights);
  if (
    !weightList.every((weight) => valid(weight) && weight >= 0) ||
    !weightList.some((weight) => weight > 0)
  ) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      'fieldWeights must be numbers ≥ 0, at least one of them > 0',
    );
  }
  if (!valid(k1) || k1 <= 0)
    throw new ToolSearchError('INVALID_OPTIONS', `k1 must be a number > 0, got ${String(k1)}`);
  if (!valid(b) || b < 0 || b > 1)
    throw new ToolSearchError('INVALID_OPTIONS', `b must be in 0..1, got ${String(b)}`);
  return { weights, k1, b };
}

/** A word as it is, when stemming is off (module-level, as `stem`: one function for every build). */
const keepWord = (word: string): string => word;

/**
 * The default ranker: BM25F over a tool's name, tags, description and parameters, with word
 * forms (Porter stems), typo tolerance, stopword down-weighting, exact-name recognition and
 * multi-part requests. Scores are in 0..1: the IDF-weighted share of the request's known words
 * that a tool matches (a word found once in a tool's name counts fully); see docs/ranking.md.
 * Search is synchronous and never rebuilds anything.
 */
export function createKeywordRanker(
  tools: readonly ToolDescriptor[],
  options?: KeywordRankerOptions | null,
): KeywordRanker {
  const checked = optionsObject(options, 'createKeywordRanker');
  // A misspelt field weight would count towards "one weight > 0" while weighing nothing.
  checkOptionNames(checked, KEYWORD_RANKER_OPTION_NAMES, 'createKeywordRanker');
  positionsByName(tools, 'createKeywordRanker');
  return keywordRankerOver(tools, checked);
}

/**
 * {@link createKeywordRanker} over a tool list its caller has checked already (the engine's
 * catalog, `createToolIndex`, the hybrid ranker's factory), so a 10,000-tool build does not check
 * the names twice. Internal.
 */
export function keywordRankerOver(
  tools: readonly ToolDescriptor[],
  options: KeywordRankerOptions = {},
): KeywordRanker {
  const { weights, k1, b } = validateRankerOptions(options);
  const { wordVectors, onError } = options;
  if (wordVectors !== undefined && typeof wordVectors !== 'function') {
    throw new ToolSearchError('INVALID_OPTIONS', 'wordVectors must be a function when given');
  }
  if (onError !== undefined && typeof onError !== 'function') {
    throw new ToolSearchError('INVALID_OPTIONS', 'onError must be a function when given');
  }
  const stemming = options.stemming ?? true;
  const fuzzy = options.fuzzy ?? true;
  const multiPart = options.multiPart ?? true;

  // Names and tags are short identifiers: their length matters little.
  const fields: FieldSpec[] = [];
  fields[FIELD_NAME] = { weight: weights.name, b: Math.min(b, 0.3) };
  fields[FIELD_TAGS] = { weight: weights.tags, b: Math.min(b, 0.3) };
  fields[FIELD_DESCRIPTION] = { weight: weights.description, b };
  fields[FIELD_PARAMETERS] = { weight: weights.parameters, b };
  const stemOf = stemming ? stem : keepWord;
  const { index, names, descriptions, nameMatcher, surfaceWords } = buildCatalogIndex(tools, {
    fields,
    k1,
    stemWord: stemOf,
    keepSurfaceWords: wordVectors !== undefined,
  });
  // A perfect match of a word: one occurrence in the weightiest field (the name) at average length.
  const strongestField = Math.max(...fields.map((field) => field.weight));
  const referenceWeight = strongestField / (k1 + strongestField);

  const scorer = createViewScorer(index, {
    stemming,
    fuzzy,
    referenceWeight,
    ...(wordVectors && surfaceWords ? { neighbours: createWordNeighbours(surfaceWords, wordVectors) } : {}),
    ...(onError ? { onError: safeListener(onError, 'createKeywordRanker: onError') } : {}),
  });

  /** Relevance of a tool to a view, 0..1. */
  const relevance = (view: View, document: number): number =>
    view.ideal > 0 ? Math.min(1, view.scores[document]! / view.ideal) : 0;

  /**
   * Orders the candidates of a multi-part request with xQuAD (Santos et al., 2010): each pick
   * maximises (1 − λ)·relevance to the whole request + λ·Σ_part share(part)·relevance to the
   * part·Π_picked(1 − relevance of that pick to the part). A part's share is its part of the
   * request's information (its ideal score). The reported score is that gain: the share of the
   * request a tool answers beyond what the tools above it already answer. It never increases
   * down the list (the objective is submodular and the picks greedy).
   */
  const diversify = (
    whole: View,
    parts: readonly View[],
    limit: number,
  ): { document: number; score: number }[] => {
    const pool = new Set<number>();
    const perView = Math.max(limit, 10);
    for (const view of [whole, ...parts]) {
      for (const document of selectTop(view.touched, view.count, view.scores, names, perView)) {
        pool.add(document);
      }
    }
    const totalIdeal = parts.reduce((sum, part) => sum + part.ideal, 0);
    const documents = [...pool];
    const width = parts.length;
    const wholes = new Float64Array(documents.length);
    const relevances = new Float64Array(documents.length * width);
    documents.forEach((document, candidate) => {
      wholes[candidate] = relevance(whole, document);
      for (let part = 0; part < width; part++) {
        relevances[candidate * width + part] = relevance(parts[part]!, document);
      }
    });
    const picks = coverParts(
      {
        wholes,
        parts: relevances,
        shares: parts.map((part) => (totalIdeal > 0 ? part.ideal / totalIdeal : 0)),
        diversity: DIVERSITY,
        before: (left, right) => names[documents[left]!]! < names[documents[right]!]!,
      },
      limit,
    );
    return picks.map(({ candidate, gain }) => ({ document: documents[candidate]!, score: gain }));
  };

  const learning =
    options.learning === undefined ? undefined : learningInternals(options.learning, 'createKeywordRanker');
  const evidence = learning && createEvidenceFusion(learning, names, stemming);

  const toResult = (document: number, score: number): SearchResult => ({
    name: names[document]!,
    description: descriptions[document]!,
    score,
  });

  const ranker: KeywordRanker = {
    search(query: string, searchOptions?: SearchOptions): SearchResult[] {
      if (typeof query !== 'string') {
        throw new ToolSearchError('INVALID_INPUT', `query must be a string, got ${typeof query}`);
      }
      const { topK, minScore } = validateSearchOptions(searchOptions);
      if (topK === 0 || index.size === 0) return [];
      const text = cutText(query, MAX_QUERY_LENGTH);
      const results: SearchResult[] = [];
      const named = nameMatcher.find(text);
      for (const document of named) {
        if (results.length < topK && minScore <= 1) results.push(toResult(document, 1));
      }
      const limit = Math.min(topK, index.size) + named.length;
      const contentWords = evidence?.wantsWords() ? [] : undefined;
      const views = scorer.score([text, ...(multiPart ? requestParts(text) : [])], contentWords);
      const [whole, ...parts] = views as [View, ...View[]];
      try {
        evidence?.fuse(whole, text, contentWords, limit);
        const ranked =
          parts.length > 0
            ? diversify(whole, parts, limit)
            : selectTop(whole.touched, whole.count, whole.scores, names, limit).map((document) => ({
                document,
                score: relevance(whole, document),
              }));
        for (const { document, score } of ranked) {
          if (results.length >= topK) break;
          if (named.includes(document) || score < minScore || score <= 0) continue;
          results.push(toResult(document, score));
        }
      } finally {
        scorer.release(views);
      }
      return results;
    },
  };
  if (learning) learning.applies(ranker);
  else rebuildsWithLearning(ranker, (given) => keywordRankerOver(tools, { ...options, learning: given }));
  return ranker;
}
