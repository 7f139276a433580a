/**
 * Test helpers for tool-search and for anyone writing a store or an adapter:
 * a fake clock, sample tools, and the store contract suite (needs vitest).
 */
export type { FakeClock } from './clock';
export { createFakeClock } from './clock';
export { sampleCatalog, sampleTools } from './testing/sample-tools';
export type { StoreContractContext, StoreContractOptions } from './testing/store-contract';
export { describeStoreContract, oddIds } from './testing/store-contract';
