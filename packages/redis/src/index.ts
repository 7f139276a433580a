export type { RedisStore, RedisStoreClient, RedisStoreOptions } from './redis-store';
export {
  createRedisStore,
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_KEY_PREFIX,
  DEFAULT_TTL,
} from './redis-store';
