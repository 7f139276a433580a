import { describe, expect, it } from 'vitest';
import { buildLearningRanker } from './learning-ranker';

const tools = [
  { name: 'getWeather', description: 'Current conditions and forecast for a city' },
  { name: 'sendEmail', description: 'Send an email message to a recipient' },
  { name: 'createInvoice', description: 'Create an invoice for a customer' },
];
const uses = ['do I need an umbrella in Oslo', 'umbrella or not in Rome', 'pack an umbrella for Lima'].map(
  (query, index) => ({ query, toolName: 'getWeather', threadId: `thread-${index}` }),
);

describe('buildLearningRanker: the core rankers the learning suite measures', () => {
  for (const kind of ['keyword', 'hybrid'] as const) {
    it(`${kind}: the plain ranker misses a request in words only the uses have; the learning one finds it`, async () => {
      const plain = await buildLearningRanker({ tools, kind, uses: null });
      const learned = await buildLearningRanker({ tools, kind, uses });
      expect(learned.recorded).toBe(3);
      expect((await plain.search('umbrella tomorrow?', 3))[0]).not.toBe('getWeather');
      expect((await learned.search('umbrella tomorrow?', 3))[0]).toBe('getWeather');
      // The engine's search_tools over the same learning ranks the same way.
      const answer = (await learned.searchTools('umbrella tomorrow?')) as { results: { name: string }[] };
      expect(answer.results[0]?.name).toBe('getWeather');
      // With no uses, the learning ranker ranks as the plain one.
      const empty = await buildLearningRanker({ tools, kind, uses: [] });
      expect(await empty.search('invoice for a customer', 3)).toEqual(
        await plain.search('invoice for a customer', 3),
      );
    });
  }
});
