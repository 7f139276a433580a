import { createToolSearch } from '@tool-search/ai-sdk';
import { createRedisStore } from '@tool-search/redis';
import { generateText, isStepCount } from 'ai';
import { createClient } from 'redis';
import { catalog } from './catalog';
import { createOfflineModel } from './offline-model';

/** Connection attempts before a start gives up on an unreachable Redis. */
const CONNECT_RETRIES = 3;

export interface Turn {
  readonly server: string;
  readonly prompt: string;
  /** The tools the model was sent at each step of the call. */
  readonly toolsPerStep: readonly (readonly string[])[];
  /** The tools the model called, in order. */
  readonly toolCalls: readonly string[];
  readonly text: string;
}

/**
 * One server of the agent (in production, one process behind the load balancer): its own Redis
 * connection and its own tool search, over the load state that every server shares.
 */
export async function startAgentServer(name: string, url: string) {
  // A Redis that cannot be reached ends the start after a few tries, instead of retrying forever.
  const client = createClient({
    url,
    socket: {
      connectTimeout: 5_000,
      reconnectStrategy: (retries: number, cause: Error) =>
        retries >= CONNECT_RETRIES ? new Error(`cannot reach Redis at ${url}: ${cause.message}`) : 200,
    },
  });
  client.on('error', (error: Error) => console.error(`[${name}] redis: ${error.message}`));
  await client.connect();
  const toolSearch = createToolSearch({
    tools: catalog,
    storage: createRedisStore({ client, keyPrefix: 'redis-agent:', ttl: 3_600_000 }),
  });

  return {
    name,
    async ask(threadId: string, prompt: string): Promise<Turn> {
      const { model, toolsPerStep } = createOfflineModel();
      const result = await generateText({
        model,
        ...toolSearch.forCall({ threadId }),
        stopWhen: isStepCount(6),
        prompt,
      });
      return {
        server: name,
        prompt,
        toolsPerStep,
        toolCalls: result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName)),
        text: result.text,
      };
    },
    async close() {
      await toolSearch.dispose();
      await client.close(); // the store never closes a client it was given
    },
  };
}

/**
 * Two calls of one conversation land on two different servers: the first searches for a weather
 * tool and loads it; the second, on the other server, is offered that tool from its first step.
 */
export async function runRedisAgent(options: { url: string; threadId?: string }): Promise<Turn[]> {
  const threadId = options.threadId ?? 'user-42';
  const first = await startAgentServer('server-a', options.url);
  let second: Awaited<ReturnType<typeof startAgentServer>> | undefined;
  try {
    second = await startAgentServer('server-b', options.url);
    return [
      await first.ask(threadId, 'What is the weather in Rome?'),
      await second.ask(threadId, 'And what is the weather in Oslo?'),
    ];
  } finally {
    // Both closed, whichever start or close fails: an open client would keep the process alive.
    const closed = await Promise.allSettled([first.close(), second?.close()]);
    for (const outcome of closed) {
      if (outcome.status === 'rejected') console.error(`closing a server failed: ${String(outcome.reason)}`);
    }
  }
}
