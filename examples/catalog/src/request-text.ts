/**
 * Deterministic, best-effort readers of a request's text: dates, times, numbers, money, cities,
 * emails, ids… Used by the offline planner to fill tool arguments. Every function is pure; relative
 * dates resolve against a given "today", never the clock.
 */
import { addDays, type CityInfo, cities, currencies, dayOfWeek, firstNames, lastNames } from './fake-data';

/** Extraction reads at most this many characters of a request (search still gets the whole text). */
export const maxExtractedLength = 2000;

export interface Found<T> {
  readonly value: T;
  readonly index: number;
}

const wordNumbers: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  single: 1,
  two: 2,
  couple: 2,
  pair: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  dozen: 12,
};
const numberWord = `(?:\\d+(?:\\.\\d+)?|${Object.keys(wordNumbers).join('|')})`;

/** "3" → 3, "two" → 2, "1.5" → 1.5; undefined otherwise. */
export function parseNumberWord(token: string): number | undefined {
  const lower = token.toLowerCase();
  if (/^\d+(?:\.\d+)?$/.test(lower)) return Number(lower);
  return Object.hasOwn(wordNumbers, lower) ? wordNumbers[lower] : undefined;
}

export function clip(text: string): string {
  return text.length > maxExtractedLength ? text.slice(0, maxExtractedLength) : text;
}

function matchAll(text: string, pattern: RegExp): RegExpExecArray[] {
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  return [...clip(text).matchAll(new RegExp(pattern.source, flags))];
}

// ---------------------------------------------------------------------------
// Quoted text, emails, phones
// ---------------------------------------------------------------------------

export function quotedStrings(text: string): string[] {
  return matchAll(text, /"([^"\n]{1,500})"|“([^”\n]{1,500})”|(?:^|\s)'([^'\n]{1,500})'(?=$|[\s.,!?;:])/)
    .map((match) => (match[1] ?? match[2] ?? match[3] ?? '').trim())
    .filter((value) => value.length > 0);
}

export function emails(text: string): string[] {
  return [
    ...new Set(
      matchAll(text, /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/).map(
        (match) => match[0],
      ),
    ),
  ];
}

export function phoneNumbers(text: string): string[] {
  return matchAll(text, /\+?\d[\d\s().-]{6,18}\d/).map((match) => match[0].trim());
}

// ---------------------------------------------------------------------------
// Dates and times
// ---------------------------------------------------------------------------

const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const monthPattern =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

function isValidDate(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number);
  if (!year || !month || !day || month > 12 || day > 31) return false;
  return addDays(value, 0) === value;
}

/** The next date (1..7 days after `today`) that falls on `weekday` (0 = Sunday). */
function upcoming(today: string, weekday: number): string {
  const delta = (weekday - dayOfWeek(today) + 7) % 7 || 7;
  return addDays(today, delta);
}

function monthDay(today: string, monthName: string, day: number): string | undefined {
  const month = months.indexOf(monthName.slice(0, 3).toLowerCase()) + 1;
  if (month === 0 || day < 1 || day > 31) return undefined;
  const year = Number(today.slice(0, 4));
  const candidate = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  if (!isValidDate(candidate)) return undefined;
  return candidate < today ? `${year + 1}${candidate.slice(4)}` : candidate;
}

export interface DateMentions {
  /** Dates in order of mention; a range ("this weekend", "last 7 days") adds its first and last day. */
  readonly dates: readonly string[];
  /** True when the text names a period (weekend, week, month, last N days). */
  readonly period: boolean;
  /** "for 3 nights" → 3. */
  readonly nights?: number;
}

/** Dates mentioned in the text, resolved against `today` (YYYY-MM-DD). */
export function dateMentions(text: string, today: string): DateMentions {
  const found: Found<string>[] = [];
  const taken: Array<[number, number]> = [];
  let period = false;
  const add = (index: number, length: number, ...values: string[]) => {
    if (taken.some(([start, end]) => index < end && index + length > start)) return;
    taken.push([index, index + length]);
    values.forEach((value, offset) => {
      found.push({ value, index: index + offset / 10 });
    });
  };
  const scan = (pattern: RegExp, handle: (match: RegExpExecArray) => string[] | undefined) => {
    for (const match of matchAll(text, pattern)) {
      const values = handle(match);
      if (values && values.length > 0) add(match.index, match[0].length, ...values);
    }
  };
  scan(/\b(\d{4}-\d{2}-\d{2})\b/, (match) => (isValidDate(match[1]!) ? [match[1]!] : undefined));
  scan(/\bday after tomorrow\b/i, () => [addDays(today, 2)]);
  scan(/\btomorrow\b/i, () => [addDays(today, 1)]);
  scan(/\b(?:today|tonight|this (?:morning|afternoon|evening))\b/i, () => [today]);
  scan(/\byesterday\b/i, () => [addDays(today, -1)]);
  scan(/\b(this|next)?\s*weekend\b/i, (match) => {
    period = true;
    const saturday = dayOfWeek(today) === 6 ? today : upcoming(today, 6);
    const start =
      match[1]?.toLowerCase() === 'next' && dayOfWeek(today) !== 5 ? addDays(saturday, 7) : saturday;
    return [start, addDays(start, 1)];
  });
  scan(/\b(?:last|past|previous)\s+(\d+|[a-z]+)\s+(day|week)s?\b/i, (match) => {
    const count = parseNumberWord(match[1]!);
    if (count === undefined) return undefined;
    period = true;
    const days = Math.round(count) * (match[2]!.toLowerCase() === 'week' ? 7 : 1);
    return [addDays(today, -days), addDays(today, -1)];
  });
  scan(/\b(last|this|next)\s+week\b/i, (match) => {
    period = true;
    const monday = addDays(today, -((dayOfWeek(today) + 6) % 7));
    const start = addDays(
      monday,
      { last: -7, this: 0, next: 7 }[match[1]!.toLowerCase() as 'last' | 'this' | 'next'],
    );
    return [start, addDays(start, 6)];
  });
  scan(/\b(last|this|next)\s+month\b/i, (match) => {
    period = true;
    const [year, month] = today.split('-').map(Number) as [number, number];
    const offset = { last: -1, this: 0, next: 1 }[match[1]!.toLowerCase() as 'last' | 'this' | 'next'];
    const first = new Date(Date.UTC(year, month - 1 + offset, 1)).toISOString().slice(0, 10);
    const last = new Date(Date.UTC(year, month + offset, 0)).toISOString().slice(0, 10);
    return [first, last];
  });
  scan(/\bin\s+(\d+|[a-z]+)\s+(day|week)s?\b/i, (match) => {
    const count = parseNumberWord(match[1]!);
    if (count === undefined) return undefined;
    return [addDays(today, Math.round(count) * (match[2]!.toLowerCase() === 'week' ? 7 : 1))];
  });
  scan(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${monthPattern}\\b`, 'i'), (match) => {
    const value = monthDay(today, match[2]!, Number(match[1]));
    return value ? [value] : undefined;
  });
  scan(new RegExp(`\\b${monthPattern}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, 'i'), (match) => {
    const value = monthDay(today, match[1]!, Number(match[2]));
    return value ? [value] : undefined;
  });
  scan(/\b(?:(next|this|on)\s+)?(sunday|monday|tuesday|wednesday|thursday|friday|saturday)s?\b/i, (match) => [
    upcoming(today, weekdays.indexOf(match[2]!.toLowerCase())),
  ]);
  found.sort((a, b) => a.index - b.index);
  const nightsMatch = new RegExp(`\\b(${numberWord})\\s+nights?\\b`, 'i').exec(clip(text));
  const nights = nightsMatch ? parseNumberWord(nightsMatch[1]!) : undefined;
  return {
    dates: found.map((entry) => entry.value),
    period,
    ...(nights ? { nights: Math.round(nights) } : {}),
  };
}

/** Times of day mentioned, as HH:MM (24-hour), in order. */
export function times(text: string): string[] {
  const found: Found<string>[] = [];
  const pad = (hours: number, minutes: number) =>
    `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
  for (const match of matchAll(text, /\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)/i)) {
    let hours = Number(match[1]);
    const minutes = Number(match[2] ?? 0);
    if (hours < 1 || hours > 12 || minutes > 59) continue;
    const pm = match[3]!.toLowerCase().startsWith('p');
    if (pm && hours < 12) hours += 12;
    if (!pm && hours === 12) hours = 0;
    found.push({ value: pad(hours, minutes), index: match.index });
  }
  for (const match of matchAll(text, /\b([01]?\d|2[0-3])[:h]([0-5]\d)\b(?!\s*(?:am|pm|a\.m\.|p\.m\.))/i)) {
    found.push({ value: pad(Number(match[1]), Number(match[2])), index: match.index });
  }
  const evening = /\b(?:tonight|evening|night|dinner)\b/i.test(clip(text));
  for (const match of matchAll(
    text,
    /\bat\s+(\d{1,2})\b(?![:.\d]|\s*(?:am|pm|a\.m\.|p\.m\.|people|persons|guests|%))/i,
  )) {
    const hours = Number(match[1]);
    if (hours < 1 || hours > 23) continue;
    found.push({
      value: pad(hours <= 6 || (evening && hours < 12) ? hours + 12 : hours, 0),
      index: match.index,
    });
  }
  for (const match of matchAll(text, /\b(noon|midday|midnight)\b/i)) {
    found.push({ value: match[1]!.toLowerCase() === 'midnight' ? '00:00' : '12:00', index: match.index });
  }
  return found.sort((a, b) => a.index - b.index).map((entry) => entry.value);
}

// ---------------------------------------------------------------------------
// Numbers, money, currencies
// ---------------------------------------------------------------------------

/** Numbers written with digits or as small words, in order (not those inside dates, times or ids). */
export function numbers(text: string): number[] {
  const cleaned = clip(text)
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, ' ')
    .replace(/\b\d{1,2}:\d{2}\b/g, ' ')
    .replace(/[A-Za-z]+[_-]?\d[\w-]*/g, ' ')
    .replace(/[\w.+-]+@[\w.-]+/g, ' ');
  return matchAll(
    cleaned,
    new RegExp(
      `(?<![\\w.])(-?\\d+(?:[.,]\\d+)*|${Object.keys(wordNumbers)
        .filter((word) => word.length > 2)
        .join('|')})(?![\\w])`,
      'i',
    ),
  )
    .map((match) => parseNumberWord(match[1]!.replace(/,(?=\d{3}\b)/g, '').replace(',', '.')) ?? Number.NaN)
    .filter((value) => Number.isFinite(value));
}

/** "for two", "4 people", "party of 6", "table for 3" → the head count. */
export function headCount(text: string): number | undefined {
  const patterns = [
    new RegExp(
      `\\b(${numberWord})\\s+(?:people|persons|guests|adults|passengers|travell?ers|pax|of us|diners)\\b`,
      'i',
    ),
    new RegExp(`\\b(?:party|group|table)\\s+(?:of|for)\\s+(${numberWord})\\b`, 'i'),
    new RegExp(
      `\\bfor\\s+(${numberWord})(?!\\s*(?:nights?|days?|weeks?|hours?|minutes?|years?|months?|am|pm|%|[$€£]|usd|eur|gbp|dollars|euros))\\b`,
      'i',
    ),
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(clip(text));
    const value = match ? parseNumberWord(match[1]!) : undefined;
    if (value !== undefined && value >= 1) return Math.round(value);
  }
  return undefined;
}

/** A number followed by one of the unit words ("3 days", "45 min", "2 km"): the number, scaled. */
export function numberWithUnit(
  text: string,
  units: readonly { readonly words: readonly string[]; readonly scale: number }[],
): number | undefined {
  for (const unit of units) {
    const pattern = new RegExp(`(?<![\\w.])(${numberWord})\\s*(?:${unit.words.join('|')})\\b`, 'i');
    const match = pattern.exec(clip(text));
    const value = match ? parseNumberWord(match[1]!) : undefined;
    if (value !== undefined) return value * unit.scale;
  }
  return undefined;
}

const currencyWords: Readonly<Record<string, string>> = {
  dollar: 'USD',
  dollars: 'USD',
  bucks: 'USD',
  euro: 'EUR',
  euros: 'EUR',
  pound: 'GBP',
  pounds: 'GBP',
  sterling: 'GBP',
  yen: 'JPY',
  franc: 'CHF',
  francs: 'CHF',
  rupees: 'INR',
  reais: 'BRL',
  pesos: 'MXN',
  baht: 'THB',
  won: 'KRW',
  dirhams: 'AED',
  rand: 'ZAR',
};
const currencySymbols: Readonly<Record<string, string>> = {
  $: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
};

/** Currencies named in the text (codes, symbols, words), in order, without repeats. */
export function currencyMentions(text: string): string[] {
  const found: Found<string>[] = [];
  for (const match of matchAll(text, /\b([A-Za-z]{3})\b/)) {
    const code = match[1]!.toUpperCase();
    if (currencies[code] && (match[1] === code || /^(usd|eur|gbp|jpy|chf|cad|aud)$/i.test(code)))
      found.push({ value: code, index: match.index });
  }
  for (const match of matchAll(text, new RegExp(`\\b(${Object.keys(currencyWords).join('|')})\\b`, 'i'))) {
    found.push({ value: currencyWords[match[1]!.toLowerCase()]!, index: match.index });
  }
  for (const match of matchAll(text, /[$€£¥₹]/))
    found.push({ value: currencySymbols[match[0]]!, index: match.index });
  return [...new Set(found.sort((a, b) => a.index - b.index).map((entry) => entry.value))];
}

/** Amounts of money ("$25", "120 EUR", "40 euros", "3.5k"), in order. */
export function moneyAmounts(text: string): Array<{ amount: number; currency?: string }> {
  const found: Found<{ amount: number; currency?: string }>[] = [];
  const amountOf = (digits: string, thousands?: string) =>
    Number(digits.replace(/,/g, '')) * (thousands ? 1000 : 1);
  for (const match of matchAll(text, /([$€£¥₹])\s?(\d[\d,]*(?:\.\d+)?)(k)?\b/i)) {
    found.push({
      value: { amount: amountOf(match[2]!, match[3]), currency: currencySymbols[match[1]!] },
      index: match.index,
    });
  }
  const words = Object.keys(currencyWords).join('|');
  for (const match of matchAll(
    text,
    new RegExp(`(?<![\\w.$€£¥₹])(\\d[\\d,]*(?:\\.\\d+)?)(k)?\\s?(${words}|[A-Za-z]{3})\\b`, 'i'),
  )) {
    const unit = match[3]!;
    const code =
      currencyWords[unit.toLowerCase()] ?? (currencies[unit.toUpperCase()] ? unit.toUpperCase() : undefined);
    if (code)
      found.push({ value: { amount: amountOf(match[1]!, match[2]), currency: code }, index: match.index });
  }
  return found.sort((a, b) => a.index - b.index).map((entry) => entry.value);
}

/** "4.5%" or "4.5 percent" → 4.5. */
export function percentage(text: string): number | undefined {
  const match = /(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)/i.exec(clip(text));
  return match ? Number(match[1]) : undefined;
}

// ---------------------------------------------------------------------------
// Places and people
// ---------------------------------------------------------------------------

export interface CityMention {
  readonly city: CityInfo;
  readonly index: number;
  /** The preposition right before the name ("from", "to", "in"…), lowercased. */
  readonly preposition?: string;
}

const cityPattern = new RegExp(
  `\\b(${[...cities]
    .sort((a, b) => b.name.length - a.name.length)
    .map((city) =>
      city.name
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/ /g, '\\s+'),
    )
    .join('|')})\\b`,
  'i',
);
const cityByFoldedName = new Map(
  cities.map((city) => [
    city.name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase(),
    city,
  ]),
);

/** Known cities named in the text (and IATA codes of their airports), in order. */
export function cityMentions(text: string): CityMention[] {
  const folded = clip(text)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
  const found: CityMention[] = [];
  const prepositionBefore = (index: number) =>
    /\b(from|to|in|at|near|for|into|between|around)\s+(?:the\s+)?$/i
      .exec(folded.slice(Math.max(0, index - 16), index))?.[1]
      ?.toLowerCase();
  for (const match of matchAll(folded, cityPattern)) {
    const city = cityByFoldedName.get(match[1]!.replace(/\s+/g, ' ').toLowerCase());
    if (city) found.push({ city, index: match.index, preposition: prepositionBefore(match.index) });
  }
  for (const match of matchAll(folded, /\b([A-Z]{3})\b/)) {
    const city = cities.find((candidate) => candidate.airport === match[1]);
    if (city) found.push({ city, index: match.index, preposition: prepositionBefore(match.index) });
  }
  return found.sort((a, b) => a.index - b.index);
}

/** A capitalised place after "in/to/from/near/at" that is not a known city ("weather in Porto" → "Porto"). */
export function placeAfterPreposition(
  text: string,
  prepositions: readonly string[] = ['in', 'to', 'from', 'near', 'at', 'for'],
): string | undefined {
  const pattern = new RegExp(
    `\\b(?:${prepositions.join('|')})\\s+(?:the\\s+)?((?:[A-Z][\\p{L}'-]+)(?:\\s+[A-Z][\\p{L}'-]+){0,3})`,
    'u',
  );
  const match = pattern.exec(clip(text));
  const value = match?.[1];
  if (!value || weekdays.includes(value.toLowerCase()) || /^(?:I|The|My|Our)$/.test(value)) return undefined;
  return value;
}

/** The phrase after a preposition, up to the next preposition or punctuation ("from the Colosseum to …" → "the Colosseum"). */
export function phraseAfter(text: string, preposition: string): string | undefined {
  const pattern = new RegExp(
    `\\b${preposition}\\s+(.{1,80}?)(?=\\s+(?:to|from|and|in|at|on|by|for|via|with|tomorrow|today|tonight|this|next|walking|driving|cycling|biking|on foot)\\b|[,.;?!]|$)`,
    'i',
  );
  const value = pattern.exec(clip(text))?.[1]?.trim();
  return value ? value : undefined;
}

/** People named in the text: known first names, with a following capitalised last name when there is one. */
export function personNames(text: string): string[] {
  const pattern = new RegExp(
    `\\b(${firstNames.join('|')})(?:\\s+(${lastNames.join('|')}|[A-Z][a-z]+))?\\b`,
    'g',
  );
  return [
    ...new Set(
      [...clip(text).matchAll(pattern)].map((match) => (match[2] ? `${match[1]} ${match[2]}` : match[1]!)),
    ),
  ];
}

// ---------------------------------------------------------------------------
// Code hosting, chat, ids
// ---------------------------------------------------------------------------

/** "acme/payments", "the payments repo", "repository web-app" → owner and repository. */
export function repositoryMention(text: string): { owner?: string; repo: string } | undefined {
  const clipped = clip(text);
  const full = /\b([A-Za-z0-9][\w.-]*)\/([A-Za-z][\w.-]*)\b/.exec(clipped);
  if (full && !/^\d+$/.test(full[1]!)) return { owner: full[1]!, repo: full[2]! };
  const ignored = /^(?:the|a|an|our|my|your|this|that|same|its|their|github|git)$/i;
  const before = [...clipped.matchAll(/\b([\w.-]+)\s+(?:repo|repository|project)\b/gi)].find(
    (match) => !ignored.test(match[1]!),
  );
  if (before) return { repo: before[1]!.toLowerCase() };
  const after = /\b(?:repo|repository)\s+(?:called\s+|named\s+)?["']?([\w.-]+)/i.exec(clipped);
  if (after && !ignored.test(after[1]!)) return { repo: after[1]! };
  return undefined;
}

/** "#general" or "the general channel" → "#general". */
export function channelMention(text: string): string | undefined {
  const clipped = clip(text);
  const hash = /(?:^|\s)#([a-z][\w-]*)/i.exec(clipped);
  if (hash) return `#${hash[1]!.toLowerCase()}`;
  const named = /\b(?:the\s+)?([a-z][\w-]*)\s+channel\b/i.exec(clipped);
  if (named && !/^(?:the|a|this|that|slack|discord|teams|our|my)$/i.test(named[1]!))
    return `#${named[1]!.toLowerCase()}`;
  return undefined;
}

/** "#42", "PR 42", "issue 17", "pull request #8", "run 123" → the number. */
export function referencedNumber(text: string, words: readonly string[]): number | undefined {
  const pattern = new RegExp(`(?:\\b(?:${words.join('|')})\\s*#?\\s*|(?:^|\\s)#)(\\d{1,12})\\b`, 'i');
  const match = pattern.exec(clip(text));
  return match ? Number(match[1]) : undefined;
}

/** Tokens that look like ids: "cus_9s6XKz", "PAY-142", "RB-48213", "K7Q2ZP", "evt_1a2b". */
export function idTokens(text: string): string[] {
  return matchAll(
    text,
    /\b(?:[a-z]{1,8}_[A-Za-z0-9_]{2,}|[A-Z][A-Z0-9]{0,9}-\d{1,8}|(?=[A-Z0-9]{6}\b)(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6})\b/,
  ).map((match) => match[0]);
}

/** The topic after "about/regarding/titled/called/saying…", up to the end of the clause. */
export function topicPhrase(text: string): string | undefined {
  const match =
    /\b(?:about|regarding|concerning|titled|called|named|saying|that says|re:)\s+(.{2,300}?)(?=\s+(?:and then|then|tomorrow|today|tonight|next week)\b|[.;?!]|$)/i.exec(
      clip(text),
    );
  const value = match?.[1]?.trim().replace(/^(?:the|a|an)\s+/i, '');
  return value ? value : undefined;
}

const leadingFiller =
  /^(?:(?:please|can you|could you|would you|i want to|i'd like to|i need to|let's|lets|go ahead and|help me|and|then|also)\s+)+/i;

/** The clause without politeness and leading filler words. */
export function cleanClause(text: string): string {
  return clip(text)
    .trim()
    .replace(leadingFiller, '')
    .replace(/[\s.?!]+$/, '');
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---------------------------------------------------------------------------
// Clauses and words
// ---------------------------------------------------------------------------

/**
 * Splits a request into its parts ("book a table in Rome and check the weather there" → two
 * clauses). A fragment of fewer than three words stays with the clause before it
 * ("directions between Paris and Rome" is one clause).
 */
export function splitClauses(text: string): string[] {
  const parts = clip(text)
    .split(
      /\s*(?:;|\.\s+|\?\s+|!\s+|\n+|,?\s+and then\s+|,?\s+then\s+|,?\s+and also\s+|,?\s+also\s+|,?\s+plus\s+|,?\s+and\s+)\s*/i,
    )
    .map((part) => part.trim().replace(/^(?:(?:and|then|also|plus)\s+)+/i, ''))
    .filter((part) => part.length > 0);
  const clauses: string[] = [];
  for (const part of parts) {
    const words = part.split(/\s+/).length;
    if (clauses.length > 0 && words < 3)
      clauses[clauses.length - 1] = `${clauses[clauses.length - 1]} and ${part}`;
    else clauses.push(part);
  }
  return clauses.length > 0 ? clauses : [text.trim()];
}

const stopWords = new Set(
  'a an the and or of to in on at for with from by about into over under this that these those is are was be been am do does did can could would should will shall may might must i me my we our you your it its they them their he she his her there here what whats which who whom how when where why please some any all me us let lets get give show tell find want need like just also then next please up out via per new'.split(
    ' ',
  ),
);

/** Content words, lowercased and lightly stemmed ("issues" → "issue", "booking" → "book"). */
export function contentWords(text: string): string[] {
  return (
    clip(text)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .filter((word) => !stopWords.has(word))
    .map(stem);
}

export function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ings')) return word.slice(0, -4);
  if (word.length > 4 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Splits "partySize", "pull_number" or "check-in" into lowercase words. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}
