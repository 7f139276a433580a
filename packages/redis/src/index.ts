export type { RedisStoreClient } from './redis-commands';
export { DEFAULT_COMMAND_TIMEOUT_MS } from './redis-commands';
export type { RedisEvidenceStore, RedisEvidenceStoreOptions } from './redis-evidence-store';
export {
  createRedisEvidenceStore,
  DEFAULT_EVIDENCE_KEY_PREFIX,
  DEFAULT_EVIDENCE_TTL,
} from './redis-evidence-store';
export type { RedisStore, RedisStoreOptions } from './redis-store';
export { createRedisStore, DEFAULT_KEY_PREFIX, DEFAULT_TTL } from './redis-store';
export type { RedisVectorStore, RedisVectorStoreOptions } from './redis-vector-store';
export {
  createRedisVectorStore,
  DEFAULT_VECTOR_KEY_PREFIX,
  DEFAULT_VECTOR_TTL,
} from './redis-vector-store';
