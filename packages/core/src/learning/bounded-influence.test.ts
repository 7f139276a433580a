import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../clock';
import { createKeywordRanker } from '../ranking/keyword-ranker';
import { sampleTools } from '../testing/sample-tools';
import { createLearning } from './learning';

const names = sampleTools.map((tool) => tool.name);
const REQUEST = 'current weather conditions for a city';
const words = [
  'weather',
  'city',
  'current',
  'conditions',
  'umbrella',
  'email',
  'issue',
  'the',
  '__proto__',
  '天气',
];

const use = fc.record({
  // The request itself, often: the uses that would lift a tool the most.
  query: fc.oneof(
    fc.constant(REQUEST),
    fc.array(fc.constantFrom(...words), { minLength: 0, maxLength: 8 }).map((list) => list.join(' ')),
  ),
  // A few tools, so that a tool gets many uses.
  toolName: fc.constantFrom('send_email', 'getForecast', 'getWeather', 'create_github_issue', 'nope'),
  elapsed: fc.integer({ min: 0, max: 10 * 86_400_000 }),
});

describe('bounded influence (property)', () => {
  const plain = createKeywordRanker(sampleTools);
  const own = new Map(
    plain.search(REQUEST, { topK: names.length }).map((result) => [result.name, result.score]),
  );

  it('one thread, whatever it records, cannot take the request from the tool its own text answers', () => {
    expect(plain.search(REQUEST)[0]?.name).toBe('getWeather');
    fc.assert(
      fc.property(fc.array(use, { minLength: 1, maxLength: 60, size: 'max' }), (uses) => {
        const clock = createFakeClock();
        const learning = createLearning({ clock });
        const ranker = createKeywordRanker(sampleTools, { learning });
        for (const { query, toolName, elapsed } of uses) {
          clock.advance(elapsed);
          learning.recordUse({ query, toolName, threadId: 'chatty' });
        }
        const results = ranker.search(REQUEST, { topK: names.length });
        expect(results[0]?.name).toBe('getWeather');
        for (const result of results) {
          const base = own.get(result.name) ?? 0;
          // Never below the tool's own score; one thread's two uses add at most ½ × ¾ of the rest.
          expect(result.score).toBeGreaterThanOrEqual(base - 1e-9);
          expect(result.score).toBeLessThanOrEqual(base + 0.5 * 0.75 * (1 - base) + 1e-9);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('any number of threads move a score by at most weight × (1 − own score)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(use, fc.integer({ min: 0, max: 30 })), { maxLength: 80, size: 'max' }),
        (uses) => {
          const learning = createLearning({ weight: 0.4 });
          const ranker = createKeywordRanker(sampleTools, { learning });
          for (const [{ query, toolName }, thread] of uses) {
            learning.recordUse({ query, toolName, threadId: `t${thread}` });
          }
          for (const result of ranker.search(REQUEST, { topK: names.length })) {
            const base = own.get(result.name) ?? 0;
            expect(result.score).toBeGreaterThanOrEqual(base - 1e-9);
            expect(result.score).toBeLessThanOrEqual(base + 0.4 * (1 - base) + 1e-9);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
