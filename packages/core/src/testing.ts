/**
 * Test helpers for tool-search and for anyone writing a store or an adapter:
 * a fake clock, sample tools, toy concept vectors for hybrid ranking, a ranker that answers
 * when told to, and the store contract suite (needs vitest).
 */
export type { FakeClock } from './clock';
export { createFakeClock } from './clock';
export { conceptVectors } from './testing/concept-vectors';
export type { Deferred, HeldRanker } from './testing/held-ranker';
export { createDeferred, createHeldRanker } from './testing/held-ranker';
export { sampleCatalog, sampleTools } from './testing/sample-tools';
export type { StoreContractContext, StoreContractOptions } from './testing/store-contract';
export { describeStoreContract, oddIds } from './testing/store-contract';
export type { VectorStoreContractOptions } from './testing/vector-store-contract';
export { describeVectorStoreContract } from './testing/vector-store-contract';
