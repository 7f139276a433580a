/**
 * Test helpers for tool-search and for anyone writing a store or an adapter:
 * a fake clock, sample tools, toy concept vectors for hybrid ranking, a ranker that answers
 * when told to, the store contract suite and a check of INVALID_OPTIONS errors (need vitest).
 */
export type { FakeClock } from './clock';
export { createFakeClock } from './clock';
export { conceptVectors } from './testing/concept-vectors';
export type { Deferred, HeldRanker } from './testing/held-ranker';
export { createDeferred, createHeldRanker } from './testing/held-ranker';
export { invalidOptionsMessage } from './testing/invalid-options';
export { sampleCatalog, sampleTools } from './testing/sample-tools';
export type { StoreContractContext, StoreContractOptions } from './testing/store-contract';
export { describeStoreContract, oddIds } from './testing/store-contract';
export type { VectorStoreContractOptions } from './testing/vector-store-contract';
export { describeVectorStoreContract } from './testing/vector-store-contract';
