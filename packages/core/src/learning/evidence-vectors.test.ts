import { describe, expect, it } from 'vitest';
import { learningTools } from '../__fixtures__/learning-tools';
import { createFakeClock } from '../clock';
import { createHybridRanker } from '../ranking/hybrid-ranker';
import { conceptVectors } from '../testing/concept-vectors';
import type { SearchResult } from '../types';
import { createLearning, type LearningOptions } from './learning';
import { createMemoryEvidenceStore } from './memory-evidence-store';

const tools = learningTools;

const DAY = 86_400_000;

// "umbrella" and "raincoat" share a concept that no tool's text has, and no word: a request
// "raincoat" gains from a use "umbrella" through the mean vectors only, never lexically.
const embedder = {
  id: 'rainy-concepts',
  embed: (texts: readonly string[]) =>
    texts.map(
      conceptVectors({ weather: 0, city: 0, email: 1, recipient: 1, flight: 2, umbrella: 4, raincoat: 4 }),
    ),
};

function setup(options: LearningOptions = {}) {
  const clock = createFakeClock();
  const learning = createLearning({ clock, halfLifeMs: DAY, ...options });
  const ranker = createHybridRanker({ embedder, learning })(tools);
  const plain = createHybridRanker({ embedder })(tools);
  const search = async (of: typeof ranker, query: string) =>
    (await of.search(query, { topK: 4 })) as SearchResult[];
  const weatherScore = async (query = 'raincoat') =>
    (await search(ranker, query)).find((result) => result.name === 'getWeather')?.score ?? 0;
  return { clock, learning, ranker, plain, search, weatherScore };
}

describe('the hybrid ranker’s mean vectors of evidence', () => {
  it('decay on the learning’s clock: less after one half-life, nothing left after many', async () => {
    const { clock, learning, ranker, plain, search, weatherScore } = setup();
    const without = (await search(plain, 'raincoat')).find((result) => result.name === 'getWeather');
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    const fresh = await weatherScore();
    expect(fresh).toBeGreaterThan(without?.score ?? 0);

    clock.advance(DAY);
    const halved = await weatherScore();
    expect(halved).toBeLessThan(fresh);
    expect(halved).toBeGreaterThan(without?.score ?? 0);
    // The fused similarity halves with the use's weight (the lexical part is the same).
    expect(halved - (without?.score ?? 0)).toBeCloseTo((fresh - (without?.score ?? 0)) / 2, 6);

    clock.advance(60 * DAY);
    const ranked = (results: SearchResult[]) =>
      results.filter((result) => result.score > 1e-9).map((result) => result.name);
    expect(ranked(await search(ranker, 'raincoat'))).toEqual(ranked(await search(plain, 'raincoat')));
    expect(await weatherScore()).toBeCloseTo(without?.score ?? 0, 9);

    // A new use counts fully again, and the old one no longer turns the mean.
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    expect(await weatherScore()).toBeCloseTo(fresh, 6);
  });

  it('weigh recent uses more in the mean: an old use barely turns it', async () => {
    const { clock, learning, weatherScore } = setup();
    learning.recordUse({ query: 'recipient', toolName: 'getWeather' });
    clock.advance(20 * DAY);
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    const mixed = await weatherScore();
    const { learning: alone, weatherScore: aloneScore } = setup();
    alone.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    // Without the weights, the mean of the two would sit halfway between them (cosine 0.7).
    expect(mixed).toBeCloseTo(await aloneScore(), 4);
  });

  it('keep only the uses the keyword evidence keeps: per tool, in all, and none after clear', async () => {
    const perTool = setup({ maxUsesPerTool: 1 });
    const none = await perTool.weatherScore();
    perTool.learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    expect(await perTool.weatherScore()).toBeGreaterThan(none);
    perTool.learning.recordUse({ query: 'recipient', toolName: 'getWeather' });
    expect(perTool.learning.stats().useCount).toBe(1);
    expect(await perTool.weatherScore()).toBe(none);

    const inAll = setup({ maxUses: 1 });
    inAll.learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    expect(await inAll.weatherScore()).toBeGreaterThan(none);
    inAll.learning.recordUse({ query: 'recipient', toolName: 'sendEmail' });
    expect(inAll.learning.stats().useCount).toBe(1);
    expect(await inAll.weatherScore()).toBe(none);

    const cleared = setup();
    cleared.learning.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    expect(await cleared.weatherScore()).toBeGreaterThan(none);
    await cleared.learning.clear();
    expect(await cleared.weatherScore()).toBe(none);
  });

  it('after many uses dropped by the cap, rank as the uses kept alone (in or out of time order)', async () => {
    const queries = ['umbrella', 'recipient', 'umbrella flight', 'raincoat city'];
    for (const step of [3_600_000, -3_600_000]) {
      const many = setup({ maxUsesPerTool: 3 });
      const kept = setup({ maxUsesPerTool: 3 });
      const start = many.clock.now();
      for (let use = 0; use < 500; use++) {
        const recorded = { query: queries[use % 4]!, toolName: 'getWeather', time: start + use * step };
        many.learning.recordUse(recorded);
        if (use >= 497) kept.learning.recordUse(recorded);
      }
      expect(many.learning.stats().useCount).toBe(3);
      for (const query of ['raincoat', 'recipient', 'flight']) {
        expect(await many.weatherScore(query)).toBeCloseTo(await kept.weatherScore(query), 9);
      }
    }
  });

  it('follow the store on reload: another process’s uses count, and none once it cleared them', async () => {
    const store = createMemoryEvidenceStore();
    const clock = createFakeClock();
    const here = createLearning({ clock, store });
    const there = createLearning({ clock, store });
    const ranker = createHybridRanker({ embedder, learning: here })(tools);
    const score = async () =>
      ((await ranker.search('raincoat', { topK: 4 })) as SearchResult[]).find(
        (result) => result.name === 'getWeather',
      )?.score ?? 0;
    const none = await score();
    there.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    await there.flush();
    await here.reload();
    expect(await score()).toBeGreaterThan(none);
    await there.clear();
    await here.reload();
    expect(here.stats().useCount).toBe(0);
    expect(await score()).toBe(none);
  });

  it('embed a use once: a reload takes the known uses’ vectors again', async () => {
    let embedded = 0;
    const counting = {
      id: 'counting-concepts',
      embed: (texts: readonly string[]) => {
        embedded += texts.length;
        return embedder.embed(texts);
      },
    };
    const learning = createLearning();
    createHybridRanker({ embedder: counting, learning })(tools);
    // More distinct requests than the ranker keeps vectors of by text (256).
    for (let use = 0; use < 300; use++) {
      learning.recordUse({ query: `umbrella number ${use}`, toolName: tools[use % 3]!.name });
    }
    await learning.flush();
    const calls = embedded;
    await learning.reload();
    expect(learning.stats().useCount).toBe(300);
    expect(embedded).toBe(calls);
  });

  it('take an asynchronous embedder’s vectors, and uses thousands of half-lives apart', async () => {
    const later = { id: 'later-concepts', embed: async (texts: readonly string[]) => embedder.embed(texts) };
    const clock = createFakeClock();
    const learning = createLearning({ clock, halfLifeMs: DAY });
    const ranker = createHybridRanker({ embedder: later, learning })(tools);
    const score = async () =>
      ((await ranker.search('raincoat', { topK: 4 })) as SearchResult[]).find(
        (result) => result.name === 'getWeather',
      )?.score ?? 0;
    const none = await score();
    const now = clock.now();
    // Boosts of 2^±3000 are past any float: the sum is anchored again, never Infinity or NaN.
    learning.recordUse({ query: 'recipient', toolName: 'getWeather', time: now - 3_000 * DAY });
    learning.recordUse({ query: 'umbrella', toolName: 'getWeather', time: now });
    learning.recordUse({ query: 'recipient', toolName: 'getWeather', time: now - 3_000 * DAY });
    await learning.flush();
    const { learning: alone, weatherScore } = setup();
    alone.recordUse({ query: 'umbrella', toolName: 'getWeather' });
    const fresh = await weatherScore();
    expect(fresh).toBeGreaterThan(none);
    expect(await score()).toBeCloseTo(fresh, 6);
    learning.recordUse({ query: 'recipient', toolName: 'getWeather', time: now + 3_000 * DAY });
    await learning.flush();
    expect(Number.isFinite(await score())).toBe(true);
    clock.advance(3_000 * DAY);
    expect(await score()).toBe(none);
  });
});
