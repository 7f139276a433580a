import { describe, expect, it } from 'vitest';
import { createThreadSearches } from './thread-searches';

describe('createThreadSearches', () => {
  it('answers with the latest search of the thread that found the tool, once per search and tool', () => {
    const searches = createThreadSearches();
    searches.remember('t', 'weather in Rome', ['getWeather', 'getForecast']);
    searches.remember('t', 'send a mail', ['sendEmail']);
    searches.remember('t', 'forecast for Oslo', ['getForecast']);
    expect(searches.take('t', 'getForecast')).toBe('forecast for Oslo');
    // The latest search that found it was recorded: an older one does not stand in for it.
    expect(searches.take('t', 'getForecast')).toBeUndefined();
    expect(searches.take('t', 'getWeather')).toBe('weather in Rome');
    expect(searches.take('t', 'sendEmail')).toBe('send a mail');
    expect(searches.take('t', 'unknown')).toBeUndefined();
    expect(searches.take('other', 'getWeather')).toBeUndefined();
  });

  it('keeps the latest few searches per thread, for the threads that searched last', () => {
    const searches = createThreadSearches({ perThread: 2, maxThreads: 2 });
    searches.remember('a', 'first', ['x']);
    searches.remember('a', 'second', ['y']);
    searches.remember('a', 'third', ['z']);
    expect(searches.take('a', 'x')).toBeUndefined();
    expect(searches.take('a', 'y')).toBe('second');
    searches.remember('b', 'of b', ['x']);
    searches.remember('a', 'fourth', ['x']); // a searched last: b is older now
    searches.remember('c', 'of c', ['x']);
    expect(searches.take('b', 'x')).toBeUndefined();
    expect(searches.take('a', 'x')).toBe('fourth');
    expect(searches.take('c', 'x')).toBe('of c');
  });

  it('keeps a query cut to a use’s length, skips a search that found nothing, and forgets', () => {
    const searches = createThreadSearches();
    searches.remember('t', `weather ${'a'.repeat(100_000)}`, ['getWeather']);
    searches.remember('t', 'nothing found', []);
    expect(searches.take('t', 'getWeather')?.length).toBe(1_000);
    searches.remember('t', 'weather', ['getWeather']);
    searches.remember('__proto__', 'weather', ['getWeather']);
    searches.forget('t');
    expect(searches.take('t', 'getWeather')).toBeUndefined();
    searches.forget();
    expect(searches.take('__proto__', 'getWeather')).toBeUndefined();
  });
});
