import { type RedisServer, startRedisServer } from '@tool-search/redis/testing';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRedisAgent, startAgentServer } from './redis-agent';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.dispose();
});

describe('the Redis agent example', () => {
  it('a tool loaded through one server is offered by the other from its first step', async () => {
    const [first, second] = await runRedisAgent({ url: redis.url, threadId: 'user-42' });
    expect(first!.toolsPerStep[0]).toEqual(['search_tools', 'load_tool']);
    expect(first!.toolCalls).toEqual(['search_tools', 'load_tool', 'getWeather']);
    expect(first!.text).toContain('Rome');

    expect(second!.server).toBe('server-b');
    expect(second!.toolsPerStep[0]).toEqual(['search_tools', 'load_tool', 'getWeather']);
    expect(second!.toolCalls).toEqual(['getWeather']);
    expect(second!.text).toContain('Oslo');

    // The state is one Redis key per thread (the key prefix, a NUL, the thread id), with the
    // store's expiry.
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      expect(await client.zRange('redis-agent:\0user-42', 0, -1)).toEqual(['getWeather']);
      expect(await client.pTTL('redis-agent:\0user-42')).toBeGreaterThan(3_500_000);
    } finally {
      await client.close();
    }
  });

  it('keeps threads apart: another conversation starts bare on either server', async () => {
    await runRedisAgent({ url: redis.url, threadId: 'alice' });
    const server = await startAgentServer('server-c', redis.url);
    try {
      const turn = await server.ask('bob', 'What is the weather in Rome?');
      expect(turn.toolsPerStep[0]).toEqual(['search_tools', 'load_tool']);
      expect(turn.toolCalls).toEqual(['search_tools', 'load_tool', 'getWeather']);
    } finally {
      await server.close();
    }
  });
});
