import { createClient, type RedisClientOptions } from 'redis';

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

/**
 * Resolves once the client has noticed that its server is gone (it is no longer ready), or fails
 * after `ms`. Right after a server stops, the client may not know yet: a command sent then waits
 * in node-redis's offline queue until the store's bound (STORE_TIMEOUT) instead of failing at
 * once (STORE_UNAVAILABLE).
 */
export async function whenDown(client: TestClient, ms = 5_000): Promise<void> {
  const started = performance.now();
  while (client.isReady) {
    if (performance.now() - started > ms) throw new Error(`client still ready after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
