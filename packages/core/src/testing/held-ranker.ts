import type { RankerFactory, SearchResult } from '../types';

/** A promise settled from outside: for a ranker, a filter or a store that answers when the test says. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

export function createDeferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((settle, fail) => {
    resolve = settle;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** A ranker whose searches wait until the test answers them: for a search still running. */
export interface HeldRanker {
  readonly ranker: RankerFactory;
  /** Settles when the first search has started. */
  readonly started: Promise<void>;
  /** Answers every search, the ones waiting and the ones to come. */
  answer(results: readonly SearchResult[]): void;
}

export function createHeldRanker(): HeldRanker {
  const started = createDeferred<void>();
  const answer = createDeferred<SearchResult[]>();
  return {
    ranker: () => ({
      search: () => {
        started.resolve();
        return answer.promise;
      },
    }),
    started: started.promise,
    answer: (results) => answer.resolve([...results]),
  };
}
