/**
 * The hybrid ranker's wiring: its options checked, the parts built per factory (embedding
 * calls, the tool vector cache, the lexical ranker factory) and per catalog (its vectors, its
 * lexical index), and each search handed from the lexical ranking and the embedded views to
 * the fusion (hybrid-fusion.ts).
 */
import { clockOption, timeoutOption } from '../clock';
import { sizeOption, ToolSearchError } from '../errors';
import { createEvidenceVectors, type EvidenceVectors } from '../learning/evidence-vectors';
import { type Learning, learningInternals } from '../learning/learning';
import { rebuildsWithLearning, withLearning } from '../learning/with-learning';
import { safeListener } from '../listener';
import { checkOptionNames, type OptionNamesOf } from '../option-names';
import type {
  Clock,
  MaybePromise,
  Ranker,
  RankerFactory,
  SearchOptions,
  SearchResult,
  ToolDescriptor,
} from '../types';
import { createCatalogVectors } from './catalog-vectors';
import { cutText } from './cut-text';
import { defaultToolText, withoutQuotedValues } from './default-tool-text';
import { type Embedder, embedderDimensions, embedderHint } from './embedder';
import { andThen, createEmbeddingCalls, type EmbeddingCalls } from './embedding-calls';
import { type EmbeddedViews, type FusionSettings, fuseRankings } from './hybrid-fusion';
import { keywordRankerOver, MAX_QUERY_LENGTH } from './keyword-ranker';
import { DEFAULT_FEEDBACK } from './relevance-feedback';
import { validateSearchOptions } from './search-options';
import { requestParts } from './split-clauses';
import { positionsByName } from './tool-names';
import { VectorCache } from './tool-vectors';

export { defaultToolText, withoutQuotedValues };

export interface HybridRankerOptions {
  /** Turns tool and query texts into vectors (the offline word vectors, an AI SDK model, ...). */
  readonly embedder: Embedder;
  /**
   * The lexical ranker whose results are fused (default: the keyword ranker, given the
   * embedder's `embedWords` when it has them; see `expandUnknownWords`).
   */
  readonly lexical?: RankerFactory;
  /**
   * When the embedder has `embedWords` (the offline word vectors do) and `lexical` is the
   * default: a request word no tool contains matches the catalog words closest to it in
   * meaning, inside the keyword ranking (default true). See the keyword ranker's `wordVectors`.
   */
  readonly expandUnknownWords?: boolean;
  /**
   * Share of the embedding similarity in the fused score, 0..1 (default 0.15): 0 keeps the
   * lexical ranking, 1 ranks by similarity alone. A request of one part (no `splitClauses`
   * parts) gets 1.5 times this share, at most 1 (0.225 by default): its one vector reads
   * the whole request, where a request of several parts gives each tool its best similarity
   * over several views.
   */
  readonly weight?: number;
  /** A cosine at or below this counts as no similarity (default 0.2). */
  readonly similarityFloor?: number;
  /**
   * Pseudo-relevance feedback, 0..1 (default 0.3): the request's vector is moved towards the
   * mean vector of the two tools that lead the fused ranking, by this share of it (each part's
   * vector, in a request of several parts, towards the one of the six leading tools most
   * similar to it), and every candidate's similarity is measured again. 0 turns it off.
   */
  readonly feedback?: number;
  /**
   * The text embedded for a tool (default: its name, description, tags, parameter names and
   * their string enum values).
   */
  readonly toolText?: (tool: ToolDescriptor) => string;
  /**
   * Called when the embedder fails or returns unusable vectors. The search then answers
   * from the lexical ranking alone, and the next search tries the embedder again.
   */
  readonly onError?: (error: unknown) => void;
  /** Tool vectors kept by text across the catalogs this factory builds (default 20,000). */
  readonly cacheSize?: number;
  /**
   * How long a search waits for an asynchronous embedder (the request's vectors, or the
   * catalog's while they are still being made) before it answers from the lexical ranking
   * alone and reports `EMBEDDER_TIMEOUT` to `onError` (default 2,000 ms; `Infinity`, or any
   * value above `MAX_TIMER_DELAY_MS`, waits for ever). The embedding goes on: its vectors are kept, and later searches use them.
   */
  readonly timeoutMs?: number;
  /** The clock of that wait (default: the system clock); tests pass a fake one. */
  readonly clock?: Clock;
  /**
   * Also rank by evidence of use (`createLearning()`; see docs/learning.md): the lexical
   * ranking fuses the evidence, so a tool found by evidence is a candidate of the fusion.
   */
  readonly learning?: Learning;
}

const HYBRID_RANKER_OPTION_NAMES = {
  embedder: true,
  lexical: true,
  expandUnknownWords: true,
  weight: true,
  similarityFloor: true,
  feedback: true,
  toolText: true,
  onError: true,
  cacheSize: true,
  timeoutMs: true,
  clock: true,
  learning: true,
} as const satisfies OptionNamesOf<HybridRankerOptions>;

const DEFAULT_WEIGHT = 0.15;
/**
 * A request of one part fuses the similarity at this multiple of `weight` (at most 1): its one
 * vector reads the whole request, while a tool's best similarity over a request's several
 * views (the whole and each part) is both higher and noisier, and the parts' tools are the
 * lexical ranking's to keep.
 */
const ONE_PART_WEIGHT_FACTOR = 1.5;
const DEFAULT_SIMILARITY_FLOOR = 0.2;
const DEFAULT_CACHE_SIZE = 20_000;
const DEFAULT_TIMEOUT_MS = 2_000;
/**
 * An embedding call unanswered after this long (or after `timeoutMs`, when longer) is given up
 * on: the next search that needs its texts sends them again. Its answer, should it come, is
 * still kept. An embedder that shares calls in flight (`createAiSdkEmbedder`) stops sharing one
 * as old, so that the texts sent again reach the model.
 */
export const STALE_EMBEDDING_MS = 60_000;
/** Lexical results fused per search (at least). */
const LEXICAL_CANDIDATES = 30;

function checkFraction(name: string, value: number): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new ToolSearchError('INVALID_OPTIONS', `${name} must be a number in 0..1, got ${String(value)}`);
  }
  return value;
}

/** The options of {@link createHybridRanker}, checked (in this order) and with their defaults. */
interface HybridSettings {
  readonly embedder: Embedder;
  readonly expandUnknownWords: boolean;
  readonly onePartWeight: number;
  readonly severalPartsWeight: number;
  readonly feedback: number;
  readonly floor: number;
  readonly similarityScale: number;
  readonly cacheSize: number;
  readonly timeoutMs: number;
  readonly clock: Clock;
  /** An embedding unanswered this long is sent again (never, when searches wait for ever). */
  readonly staleMs: number;
  readonly lexical: RankerFactory | undefined;
  readonly toolText: (tool: ToolDescriptor) => string;
  readonly dimensions: number | undefined;
}

function checkEmbedder(embedder: unknown): Embedder {
  const given = embedder as Embedder;
  if (typeof embedder !== 'object' || embedder === null || typeof given.embed !== 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `createHybridRanker needs an embedder with an embed(texts) method${embedderHint(embedder)}`,
    );
  }
  if (given.embedQueries !== undefined && typeof given.embedQueries !== 'function') {
    throw new ToolSearchError('INVALID_OPTIONS', 'the embedder’s embedQueries must be a method when given');
  }
  if (given.embedWords !== undefined && typeof given.embedWords !== 'function') {
    throw new ToolSearchError('INVALID_OPTIONS', 'the embedder’s embedWords must be a method when given');
  }
  return given;
}

function hybridSettings(options: HybridRankerOptions): HybridSettings {
  if (typeof options !== 'object' || options === null) {
    throw new ToolSearchError('INVALID_OPTIONS', 'createHybridRanker needs { embedder }');
  }
  checkOptionNames(options, HYBRID_RANKER_OPTION_NAMES, 'createHybridRanker');
  const embedder = checkEmbedder(options.embedder);
  const expandUnknownWords = options.expandUnknownWords ?? true;
  if (typeof expandUnknownWords !== 'boolean') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `expandUnknownWords must be a boolean, got ${String(expandUnknownWords)}`,
    );
  }
  const severalPartsWeight = checkFraction('weight', options.weight ?? DEFAULT_WEIGHT);
  const onePartWeight = Math.min(1, ONE_PART_WEIGHT_FACTOR * severalPartsWeight);
  const feedback = checkFraction('feedback', options.feedback ?? DEFAULT_FEEDBACK);
  const floor = options.similarityFloor ?? DEFAULT_SIMILARITY_FLOOR;
  if (typeof floor !== 'number' || !(floor >= -1 && floor < 1)) {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `similarityFloor must be a number in -1..1, got ${String(floor)}`,
    );
  }
  const cacheSize = sizeOption(options.cacheSize, 'cacheSize', DEFAULT_CACHE_SIZE);
  const timeoutMs = timeoutOption(options.timeoutMs, 'timeoutMs', DEFAULT_TIMEOUT_MS);
  const clock = clockOption(options.clock, 'createHybridRanker');
  if (options.lexical !== undefined && options.lexical !== null && typeof options.lexical !== 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `lexical must be a ranker factory (tools) => Ranker, got ${typeof options.lexical}`,
    );
  }
  const toolText = options.toolText ?? defaultToolText;
  if (typeof toolText !== 'function') {
    throw new ToolSearchError(
      'INVALID_OPTIONS',
      `toolText must be a function (tool) => string, got ${typeof toolText}`,
    );
  }
  return {
    embedder,
    expandUnknownWords,
    onePartWeight,
    severalPartsWeight,
    feedback,
    floor,
    similarityScale: 1 / (1 - floor),
    cacheSize,
    timeoutMs,
    clock,
    staleMs: timeoutMs === Number.POSITIVE_INFINITY ? timeoutMs : Math.max(STALE_EMBEDDING_MS, timeoutMs),
    lexical: options.lexical ?? undefined,
    toolText,
    dimensions: embedderDimensions(embedder, 'createHybridRanker'),
  };
}

/** What every catalog of one factory shares. */
interface FactoryParts {
  readonly settings: HybridSettings;
  readonly calls: EmbeddingCalls;
  /** Tool vectors kept by text, across the factory's catalogs. */
  readonly cache: VectorCache;
  readonly lexicalFactory: RankerFactory;
  readonly report: (error: unknown) => void;
  /** With learning: the mean vectors of each tool's past requests. */
  readonly evidenceVectors: EvidenceVectors | undefined;
}

/** The hybrid ranker over one catalog. */
function hybridRankerOver(tools: readonly ToolDescriptor[], parts: FactoryParts): Ranker {
  const { settings, calls, report } = parts;
  const fusion: FusionSettings = {
    tools,
    positions: positionsByName(tools, 'the hybrid ranker'),
    onePartWeight: settings.onePartWeight,
    severalPartsWeight: settings.severalPartsWeight,
    feedback: settings.feedback,
    floor: settings.floor,
    similarityScale: settings.similarityScale,
    ...(parts.evidenceVectors
      ? {
          evidenceSimilarity: (position: number, query: Float32Array) =>
            parts.evidenceVectors!.similarity(tools[position]!.name, query),
        }
      : {}),
  };
  const vectors = createCatalogVectors(tools, {
    toolText: settings.toolText,
    cache: parts.cache,
    calls,
    clock: settings.clock,
    staleMs: settings.staleMs,
    report,
  });
  // Embed the catalog now: its cost belongs to building, not to the first search. It starts
  // before the lexical index is built, so an asynchronous embedder (an API, a worker
  // thread) works while that index is built.
  if (tools.length > 0) {
    const started = vectors.matrix();
    if (started instanceof Promise) started.catch(() => undefined);
  }
  const lexical = parts.lexicalFactory(tools);

  /** The catalog's matrix and the views' vectors, or undefined (the search answers lexically). */
  const similarityOf = (views: readonly string[]): MaybePromise<EmbeddedViews | undefined> => {
    try {
      return andThen(vectors.matrix(), (ready) => {
        if (ready === undefined) return undefined;
        try {
          const embedded = calls.embedQueries(views);
          const done = (queryViews: Float32Array[]) => ({ matrix: ready, views: queryViews });
          return embedded instanceof Promise
            ? embedded.then(done, (error: unknown) => {
                report(error);
                return undefined;
              })
            : done(embedded);
        } catch (error) {
          report(error);
          return undefined;
        }
      });
    } catch (error) {
      report(error);
      return undefined;
    }
  };
  const semantic = (views: readonly string[]): MaybePromise<EmbeddedViews | undefined> => {
    const found = similarityOf(views);
    return found instanceof Promise ? calls.withinTimeout(found) : found;
  };

  return {
    search(query: string, searchOptions?: SearchOptions): MaybePromise<SearchResult[]> {
      if (typeof query !== 'string') {
        throw new ToolSearchError('INVALID_INPUT', `query must be a string, got ${typeof query}`);
      }
      const { topK, minScore } = validateSearchOptions(searchOptions);
      if (topK === 0 || tools.length === 0) return [];
      const text = cutText(query, MAX_QUERY_LENGTH);
      const lexicalResults = lexical.search(text, {
        topK: Math.max(LEXICAL_CANDIDATES, topK),
        minScore: 0,
      });
      return andThen(lexicalResults, (lexicalList) => {
        if (text.trim().length === 0) return fuseRankings(fusion, lexicalList, undefined, topK, minScore);
        // Embedded without their quoted values; the lexical ranking read them whole.
        const views = [text, ...requestParts(text)].map(withoutQuotedValues);
        return andThen(semantic(views), (found) => fuseRankings(fusion, lexicalList, found, topK, minScore));
      });
    },
  };
}

/**
 * A ranker factory that fuses a lexical ranking with embedding similarity. For each search,
 * the candidates are the lexical results and the tools most similar to the request or to
 * any of its parts ("find flights to Rome and convert 200 euros": each part is embedded, and
 * a tool keeps its best similarity). A candidate scores
 * `(1 − weight) × lexical + weight × similarity` (a request of one part at 1.5 × `weight`,
 * at most 1), where the lexical score is read along the
 * lexical ranker's own order (so its choices, such as covering every part of a request, are
 * kept) and the similarity is the cosine rescaled from `similarityFloor`..1 to 0..1. Scores
 * stay in 0..1; a tool the lexical ranker scores 1 (named exactly) stays first. The candidates
 * are ranked twice: the request's vectors are moved towards those of the two leading tools
 * (pseudo-relevance feedback, `feedback`), and the similarity measured again. A tool found by
 * similarity alone scores at most `weight`, so when `topK` lexical candidates (and at least
 * two) are sure to score more, the search for such tools is skipped: same answer, a fraction
 * of the work.
 *
 * Tool vectors are computed once per catalog, when the factory is called, and kept by text,
 * so a catalog rebuilt with the same tools costs no embedding call. With an asynchronous
 * embedder, a search waits for the catalog's vectors and its own, up to `timeoutMs`, and then
 * answers lexically (a stalled API never stalls the agent); with a synchronous one, search is
 * synchronous too.
 */
export function createHybridRanker(options: HybridRankerOptions): RankerFactory {
  const settings = hybridSettings(options);
  const { embedder } = settings;
  // A failing listener must not turn a degraded search into a failed one.
  const report = safeListener(options.onError, 'createHybridRanker: onError');
  // The embedder is fixed per factory, so its vectors are kept by text alone.
  const cache = new VectorCache(settings.cacheSize);
  const calls = createEmbeddingCalls({
    embedder,
    dimensions: settings.dimensions,
    clock: settings.clock,
    timeoutMs: settings.timeoutMs,
    staleMs: settings.staleMs,
    report,
  });
  // The default keyword ranking gets the embedder's word vectors, for the words no tool contains.
  const wordVectors =
    settings.expandUnknownWords && embedder.embedWords !== undefined
      ? (words: readonly string[]) => embedder.embedWords!(words)
      : undefined;
  const learning = options.learning ?? undefined;
  const learningParts =
    learning === undefined ? undefined : learningInternals(learning, 'createHybridRanker');
  const lexicalFactory: RankerFactory = settings.lexical
    ? learning === undefined
      ? settings.lexical
      : withLearning(settings.lexical, learning)
    : (tools) =>
        keywordRankerOver(tools, {
          ...(wordVectors ? { wordVectors, onError: report } : {}),
          ...(learning === undefined ? {} : { learning }),
        });
  // Tool2Vec's idea: a request is also compared with the mean vector of a tool's past requests.
  const evidenceVectors =
    learningParts && createEvidenceVectors(learningParts, (texts) => calls.embedQueries(texts), report);
  const parts: FactoryParts = { settings, calls, cache, lexicalFactory, report, evidenceVectors };
  // This factory over a learning, made once per learning (it holds the learning's mean vectors).
  const overLearnings = new WeakMap<Learning, RankerFactory>();
  const overLearning = (given: Learning): RankerFactory => {
    let factory = overLearnings.get(given);
    if (factory === undefined) {
      factory = createHybridRanker({ ...options, learning: given });
      overLearnings.set(given, factory);
    }
    return factory;
  };
  return (tools: readonly ToolDescriptor[]): Ranker => {
    const ranker = hybridRankerOver(tools, parts);
    // It fuses the learning through its lexical ranking: the engine does not wrap it again.
    if (learningParts) learningParts.applies(ranker);
    else rebuildsWithLearning(ranker, (given) => overLearning(given)(tools));
    return ranker;
  };
}
