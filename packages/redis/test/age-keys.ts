import { escapeGlob } from '../src/redis-commands';
import type { TestClient } from './clients';

// Shortens one key's remaining life by ARGV[1] ms, deleting it when that runs out: what Redis
// itself would have done had that much time passed. Keys without an expiry are left alone.
const AGE_SCRIPT = `
local pttl = redis.call('PTTL', KEYS[1])
if pttl < 0 then return pttl end
local left = pttl - tonumber(ARGV[1])
if left <= 0 then
  redis.call('DEL', KEYS[1])
  return 0
end
redis.call('PEXPIRE', KEYS[1], left)
return left
`;

/**
 * Moves Redis's clock forward for the keys under `keyPrefix`: the time hook that lets a fake clock
 * and Redis's own expiry agree, so TTL tests never sleep. The store under test is not involved.
 */
export async function ageKeys(client: TestClient, keyPrefix: string, ms: number): Promise<void> {
  if (ms <= 0) return;
  for await (const keys of client.scanIterator({ MATCH: `${escapeGlob(keyPrefix)}*`, COUNT: 1000 })) {
    await Promise.all(
      keys.map((key) => client.eval(AGE_SCRIPT, { keys: [key], arguments: [String(Math.ceil(ms))] })),
    );
  }
}
