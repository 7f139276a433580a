import { describe, expect, it } from 'vitest';
import { createToolSearchEngine } from './engine';
import { createMemoryStore } from './memory-store';
import { checkOptionNames, ENGINE_OPTION_NAMES } from './option-names';
import type { Embedder } from './ranking/embedder';
import { createHybridRanker } from './ranking/hybrid-ranker';
import { createKeywordRanker } from './ranking/keyword-ranker';
import { createStoredEmbedder } from './ranking/stored-embedder';
import { createToolIndex } from './ranking/tool-index';
import { createMemoryVectorStore } from './ranking/vector-store';
import { invalidOptionsMessage } from './testing/invalid-options';
import { sampleCatalog, sampleTools } from './testing/sample-tools';

const catalog = sampleCatalog();
const engineWith = (options: object) => () =>
  createToolSearchEngine({ catalog, ...options } as never).dispose();
const embedder: Embedder = { id: 'test', embed: (texts) => texts.map(() => [1, 0]) };

describe('unknown option names: createToolSearchEngine', () => {
  it('names the closest valid option, nested ones by their path', () => {
    expect(invalidOptionsMessage(engineWith({ topk: 3 }))).toBe(
      'unknown option `topk` of createToolSearchEngine; did you mean `search.topK`?',
    );
    // Right name, wrong level: the option that exists under `search`.
    expect(invalidOptionsMessage(engineWith({ topK: 3 }))).toBe(
      'unknown option `topK` of createToolSearchEngine; did you mean `search.topK`?',
    );
    expect(invalidOptionsMessage(engineWith({ search: { topk: 3 } }))).toBe(
      'unknown option `search.topk` of createToolSearchEngine; did you mean `search.topK`?',
    );
    expect(invalidOptionsMessage(engineWith({ storeTimeout: 500 }))).toMatch(
      /did you mean `storeTimeoutMs`\?$/,
    );
    expect(invalidOptionsMessage(engineWith({ filtre: () => true }))).toMatch(/did you mean `filter`\?$/);
    expect(invalidOptionsMessage(engineWith({ search: { autoload: true } }))).toMatch(
      /did you mean `search.autoLoad`\?$/,
    );
  });

  it('lists the options when no name is close', () => {
    expect(invalidOptionsMessage(engineWith({ frobnicate: 1 }))).toBe(
      'unknown option `frobnicate` of createToolSearchEngine; its options are catalog, search, storage, ttl, maxThreads, maxLoadedTools, filter, signingSecret, ranker, clock, onEvent, storeTimeoutMs, searchTimeoutMs, filterTimeoutMs, resolveTimeoutMs',
    );
    expect(invalidOptionsMessage(engineWith({ search: { limit: 3 } }))).toBe(
      'unknown option `search.limit` of createToolSearchEngine; the options of `search` are topK, minScore, autoLoad',
    );
  });

  it('takes every valid option, given or undefined', () => {
    const engine = createToolSearchEngine({
      catalog,
      search: { topK: 3, minScore: undefined, autoLoad: undefined },
      storage: undefined,
      ttl: undefined,
      maxThreads: undefined,
      maxLoadedTools: undefined,
      filter: undefined,
      signingSecret: undefined,
      ranker: undefined,
      clock: undefined,
      onEvent: undefined,
      storeTimeoutMs: undefined,
      searchTimeoutMs: undefined,
      filterTimeoutMs: undefined,
    });
    expect(engine.catalogSize).toBe(catalog.length);
    engine.dispose();
  });

  it('refuses an own __proto__ or constructor key (JSON.parse makes them), and leaves symbol keys alone', () => {
    const parsed = JSON.parse('{"__proto__": {"ttl": 0}}') as object;
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    expect(invalidOptionsMessage(engineWith(parsed))).toMatch(
      /^unknown option `__proto__` of createToolSearchEngine; its options are /,
    );
    expect(invalidOptionsMessage(engineWith(JSON.parse('{"constructor": 1}') as object))).toMatch(
      /^unknown option `constructor` of createToolSearchEngine; its options are /,
    );
    expect(invalidOptionsMessage(engineWith({ search: JSON.parse('{"__proto__": {"topK": 1}}') }))).toMatch(
      /^unknown option `search.__proto__` of createToolSearchEngine;/,
    );
    // Symbols are no option names (a framework's brand on an options object, say).
    expect(() => engineWith({ [Symbol('brand')]: true })()).not.toThrow();
  });

  it('answers a huge or odd key at once, shown cut and escaped', () => {
    const long = `topK${'x'.repeat(100_000)}`;
    const message = invalidOptionsMessage(engineWith({ [long]: 1 }));
    expect(message).toBe(
      `unknown option \`${long.slice(0, 64)}…\` of createToolSearchEngine; its options are ${Object.keys(ENGINE_OPTION_NAMES).join(', ')}`,
    );
    expect(invalidOptionsMessage(engineWith({ 'ttl\n"x"': 1 }))).toMatch(
      /^unknown option `ttl\\n\\"x\\"` of /,
    );
  });
});

describe('unknown option names: the other factories of the core', () => {
  it('startRequest', () => {
    const engine = createToolSearchEngine({ catalog });
    expect(invalidOptionsMessage(() => engine.startRequest({ threadID: 't' } as never))).toBe(
      'unknown option `threadID` of startRequest; did you mean `threadId`?',
    );
    expect(invalidOptionsMessage(() => engine.startRequest({ alwaysOn: [], tools: [] } as never))).toMatch(
      /^unknown option `tools` of startRequest; its options are threadId, requestContext, alwaysOn, requestTools$/,
    );
    expect(engine.startRequest({ threadId: 't', requestContext: undefined }).threadId).toBe('t');
    engine.dispose();
  });

  it('createMemoryStore, createMemoryVectorStore', () => {
    expect(invalidOptionsMessage(() => createMemoryStore({ tll: 0 } as never))).toBe(
      'unknown option `tll` of createMemoryStore; did you mean `ttl`?',
    );
    expect(invalidOptionsMessage(() => createMemoryStore({ onEvicted: () => {} } as never))).toMatch(
      /did you mean `onEvict`\?$/,
    );
    expect(invalidOptionsMessage(() => createMemoryVectorStore({ capacty: 10 } as never))).toBe(
      'unknown option `capacty` of createMemoryVectorStore; did you mean `capacity`?',
    );
  });

  it('createHybridRanker, createStoredEmbedder', () => {
    expect(invalidOptionsMessage(() => createHybridRanker({ embedder, wieght: 0.5 } as never))).toBe(
      'unknown option `wieght` of createHybridRanker; did you mean `weight`?',
    );
    expect(invalidOptionsMessage(() => createHybridRanker({ embedder, timeout: 100 } as never))).toMatch(
      /did you mean `timeoutMs`\?$/,
    );
    const store = createMemoryVectorStore();
    expect(
      invalidOptionsMessage(() => createStoredEmbedder({ embedder, store, timeout: 100 } as never)),
    ).toBe('unknown option `timeout` of createStoredEmbedder; did you mean `timeoutMs`?');
  });

  it('createKeywordRanker (its fieldWeights too), createToolIndex and a search', () => {
    expect(invalidOptionsMessage(() => createKeywordRanker(sampleTools, { stemmming: false } as never))).toBe(
      'unknown option `stemmming` of createKeywordRanker; did you mean `stemming`?',
    );
    expect(
      invalidOptionsMessage(() => createKeywordRanker(sampleTools, { fieldWeights: { nmae: 3 } } as never)),
    ).toBe('unknown option `fieldWeights.nmae` of createKeywordRanker; did you mean `fieldWeights.name`?');
    expect(
      invalidOptionsMessage(() => createToolIndex({ tools: sampleTools, rankers: undefined } as never)),
    ).toBe('unknown option `rankers` of createToolIndex; did you mean `ranker`?');
    const index = createToolIndex({ tools: sampleTools });
    expect(invalidOptionsMessage(() => index.search('weather', { topk: 1 } as never))).toBe(
      'unknown option `topk` of search; did you mean `topK`?',
    );
    expect(
      invalidOptionsMessage(() => createKeywordRanker(sampleTools).search('weather', { limit: 1 } as never)),
    ).toBe('unknown option `limit` of search; its options are topK, minScore');
    expect(index.search('weather', { topK: 1, minScore: undefined })).toHaveLength(1);
  });
});

describe('checkOptionNames', () => {
  const names = { alpha: true, beta: true, nested: { gamma: true, alphaBeta: true } } as const;
  const check = (options: object) => invalidOptionsMessage(() => checkOptionNames(options, names, 'test'));

  it('prefers a case-insensitive match, in the same object first', () => {
    expect(check({ ALPHA: 1 })).toMatch(/did you mean `alpha`\?$/);
    expect(check({ nested: { Alpha: 1 } })).toMatch(/did you mean `alpha`\?$/);
    expect(check({ gamma: 1 })).toMatch(/did you mean `nested.gamma`\?$/);
    expect(check({ nested: { GAMMA: 1 } })).toMatch(/did you mean `nested.gamma`\?$/);
  });

  it('then the fewest edits (insert, delete, replace, swap), within a third of the name and at most 3', () => {
    expect(check({ alpah: 1 })).toMatch(/did you mean `alpha`\?$/); // a swap
    expect(check({ alph: 1 })).toMatch(/did you mean `alpha`\?$/); // a deletion
    expect(check({ alphax: 1 })).toMatch(/did you mean `alpha`\?$/); // an insertion
    expect(check({ bota: 1 })).toMatch(/did you mean `beta`\?$/); // a replacement
    expect(check({ nested: { alphaBta: 1 } })).toMatch(/did you mean `nested.alphaBeta`\?$/);
    // Two edits in a name of five letters are too many; a two-letter name gets no edit at all.
    expect(check({ alxhx: 1 })).toMatch(/its options are alpha, beta, nested$/);
    expect(check({ al: 1 })).toMatch(/its options are alpha, beta, nested$/);
  });

  it('reads a nested object only when it is a plain object, and passes valid names', () => {
    expect(() => checkOptionNames({ nested: 'x', alpha: undefined }, names, 'test')).not.toThrow();
    expect(() => checkOptionNames({ nested: [1] }, names, 'test')).not.toThrow();
    expect(() => checkOptionNames({ nested: null }, names, 'test')).not.toThrow();
    expect(() => checkOptionNames({ nested: { gamma: 1 }, beta: 2 }, names, 'test')).not.toThrow();
  });
});
