import { describe, expect, it } from 'vitest';
import {
  cityMentions,
  currencyMentions,
  dateMentions,
  headCount,
  moneyAmounts,
  repositoryMention,
  splitClauses,
  times,
  topicPhrase,
} from './request-text';

const monday = '2025-06-16';

describe('request text readers', () => {
  it('resolve relative and written dates against today, in order of mention', () => {
    expect(dateMentions('tomorrow', monday).dates).toEqual(['2025-06-17']);
    expect(dateMentions('the day after tomorrow', monday).dates).toEqual(['2025-06-18']);
    expect(dateMentions('this weekend', monday)).toEqual({
      dates: ['2025-06-21', '2025-06-22'],
      period: true,
    });
    expect(dateMentions('on friday', monday).dates).toEqual(['2025-06-20']);
    expect(dateMentions('on monday', monday).dates).toEqual(['2025-06-23']);
    expect(dateMentions('from July 3 to 5th July', monday).dates).toEqual(['2025-07-03', '2025-07-05']);
    expect(dateMentions('on March 1', monday).dates).toEqual(['2026-03-01']);
    expect(dateMentions('last month', monday).dates).toEqual(['2025-05-01', '2025-05-31']);
    expect(dateMentions('the last 7 days', monday).dates).toEqual(['2025-06-09', '2025-06-15']);
    expect(dateMentions('in 2 weeks', monday).dates).toEqual(['2025-06-30']);
    expect(dateMentions('a stay for 3 nights', monday).nights).toBe(3);
    expect(dateMentions('2025-02-29 or June 31', monday).dates).toEqual([]);
  });

  it('read times of day', () => {
    expect(times('at 8pm')).toEqual(['20:00']);
    expect(times('at 12am or 12:30 pm')).toEqual(['00:00', '12:30']);
    expect(times('at 19:45')).toEqual(['19:45']);
    expect(times('at 7 tonight')).toEqual(['19:00']);
    expect(times('around noon')).toEqual(['12:00']);
    expect(times('for 4 people')).toEqual([]);
  });

  it('read head counts, money and currencies', () => {
    expect(headCount('a table for two')).toBe(2);
    expect(headCount('4 people')).toBe(4);
    expect(headCount('party of 6')).toBe(6);
    expect(headCount('for 3 nights')).toBeUndefined();
    expect(moneyAmounts('$25 and 1,200 EUR and 40 euros and 3k GBP')).toEqual([
      { amount: 25, currency: 'USD' },
      { amount: 1200, currency: 'EUR' },
      { amount: 40, currency: 'EUR' },
      { amount: 3000, currency: 'GBP' },
    ]);
    expect(currencyMentions('convert 100 dollars to yen')).toEqual(['USD', 'JPY']);
    expect(currencyMentions('we are using the api')).toEqual([]);
  });

  it('read cities with their prepositions, repositories and topics', () => {
    expect(
      cityMentions('from Lisbon to New York').map((mention) => [mention.city.name, mention.preposition]),
    ).toEqual([
      ['Lisbon', 'from'],
      ['New York', 'to'],
    ]);
    expect(cityMentions('sao paulo')[0]?.city.name).toBe('São Paulo');
    expect(repositoryMention('in the payments repo')).toEqual({ repo: 'payments' });
    expect(repositoryMention('merge it in acme/web-app')).toEqual({ owner: 'acme', repo: 'web-app' });
    expect(topicPhrase('open an issue about failed refunds. thanks')).toBe('failed refunds');
  });

  it('split a request into its parts, keeping short fragments with their clause', () => {
    expect(splitClauses('book a table in Rome and check the weather there')).toEqual([
      'book a table in Rome',
      'check the weather there',
    ]);
    expect(splitClauses('directions between Paris and Rome')).toEqual(['directions between Paris and Rome']);
    expect(splitClauses('convert 5 USD to EUR; then email Ana the result')).toEqual([
      'convert 5 USD to EUR',
      'email Ana the result',
    ]);
    expect(splitClauses('')).toEqual(['']);
  });
});
