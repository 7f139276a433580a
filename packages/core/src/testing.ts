/**
 * Test helpers for tool-search and for anyone writing a store or an adapter:
 * a fake clock, sample tools (and many of them), toy concept vectors for hybrid ranking, a
 * ranker that answers when told to, the store contract suite and a check of INVALID_OPTIONS
 * errors (both need vitest), and the worst-case inputs for text code (to check that a ranker of
 * one's own answers them in linear time).
 */
export type { FakeClock } from './clock';
export { createFakeClock } from './clock';
export { conceptVectors } from './testing/concept-vectors';
export type { EvidenceStoreContractOptions } from './testing/evidence-store-contract';
export { describeEvidenceStoreContract } from './testing/evidence-store-contract';
export type { Deferred, HeldRanker } from './testing/held-ranker';
export { createDeferred, createHeldRanker } from './testing/held-ranker';
export { everyForwardedEngineOption, invalidOptionsMessage } from './testing/invalid-options';
export { sampleCatalog, sampleTools } from './testing/sample-tools';
export type { StoreContractContext, StoreContractOptions } from './testing/store-contract';
export { describeStoreContract, oddIds } from './testing/store-contract';
export type { VectorStoreContractOptions } from './testing/vector-store-contract';
export { describeVectorStoreContract } from './testing/vector-store-contract';
export type { WorstCaseInput } from './testing/worst-case-inputs';
export {
  manySampleTools,
  repeatedInput,
  WORST_CASE_PIECES,
  worstCaseInputs,
} from './testing/worst-case-inputs';
