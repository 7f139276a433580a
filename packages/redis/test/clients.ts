import { createClient, type RedisClientOptions } from 'redis';
import type { RedisStoreClient } from '../src/redis-store';

export type TestClient = ReturnType<typeof createClient>;

const opened = new Set<TestClient>();

/** A connected node-redis client whose 'error' events are kept (node-redis throws without a listener). */
export async function connectClient(
  url: string,
  options: RedisClientOptions = {},
): Promise<TestClient & { errors: Error[] }> {
  const client = createClient({ url, ...options });
  const errors: Error[] = [];
  client.on('error', (error: Error) => errors.push(error));
  opened.add(client);
  await client.connect();
  return Object.assign(client, { errors });
}

/** Closes (or, when it is not connected, destroys) every client opened by connectClient. */
export async function closeClients() {
  for (const client of opened) {
    if (client.isReady) await client.close();
    else if (client.isOpen) client.destroy();
  }
  opened.clear();
}

/** Resolves when the client is ready again (after the server came back), or fails after `ms`. */
export function whenReady(client: TestClient, ms = 10_000): Promise<void> {
  if (client.isReady) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`client not ready within ${ms} ms`)), ms);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Wraps a client to count round trips (each sendCommand is one request and its answer). */
export function countRoundTrips(client: RedisStoreClient) {
  const commands: string[] = [];
  const counted: RedisStoreClient = {
    get isOpen() {
      return client.isOpen;
    },
    get isReady() {
      return client.isReady;
    },
    sendCommand(args, options) {
      commands.push(String(args[0]).toUpperCase());
      return client.sendCommand(args, options);
    },
  };
  return { client: counted, commands, reset: () => commands.splice(0) };
}

/** Counts the commands the server has executed (INFO commandstats), by command name. */
export async function commandStats(client: TestClient): Promise<Map<string, number>> {
  const info = await client.info('commandstats');
  const stats = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) stats.set(match[1]!, Number(match[2]));
  return stats;
}
