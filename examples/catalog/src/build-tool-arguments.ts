/**
 * Builds a tool's arguments from its JSON Schema and the text of a request, the way a model
 * would fill them in — deterministically and best-effort, but always valid against the schema
 * for the schemas of the example catalog: every required field is filled, enums, formats,
 * patterns, lengths and bounds are respected. Optional fields are filled only when the text says
 * something specific about them.
 */
import type { JsonSchemaObject } from './catalog';
import { addDays, catalogToday, cities, daysBetween, repositories } from './fake-data';
import {
  capitalise,
  channelMention,
  cityMentions,
  cleanClause,
  clip,
  currencyMentions,
  dateMentions,
  emails,
  headCount,
  idTokens,
  moneyAmounts,
  nameWords,
  numbers,
  numberWithUnit,
  percentage,
  personNames,
  phoneNumbers,
  phraseAfter,
  placeAfterPreposition,
  quotedStrings,
  referencedNumber,
  repositoryMention,
  stem,
  times,
  topicPhrase,
} from './request-text';

export interface ArgumentContext {
  /** The part of the request this tool serves; read first. */
  readonly text: string;
  /** The whole request; read when the part lacks a value ("…and check the weather there"). */
  readonly request?: string;
  /** "Today" for relative dates (YYYY-MM-DD); defaults to the catalog's fixed date. */
  readonly today?: string;
  /**
   * The tool's name: its words are the request's verb ("merge" in merge_github_pr), so an enum
   * value that is one of them is chosen only when nothing else is mentioned.
   */
  readonly toolName?: string;
}

type Schema = { readonly [key: string]: unknown };

interface Field {
  readonly name: string;
  readonly words: readonly string[];
  readonly schema: Schema;
  readonly description: string;
  readonly required: boolean;
}

/** A proposed value; `specific` when the text itself said it (only those fill optional fields). */
interface Candidate {
  readonly value: unknown;
  readonly specific: boolean;
}

interface Context {
  readonly texts: readonly string[];
  readonly clause: string;
  readonly today: string;
  readonly toolWords: ReadonlySet<string>;
}

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The first schema of a union that is not `null`, and the first non-null type of a type list. */
function resolve(schema: Schema): Schema {
  const union = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(union)) {
    const branch = union.find((option) => isObject(option) && option.type !== 'null');
    if (isObject(branch)) return resolve({ ...schema, anyOf: undefined, oneOf: undefined, ...branch });
  }
  if (Array.isArray(schema.allOf) && isObject(schema.allOf[0]))
    return resolve({ ...schema, allOf: undefined, ...schema.allOf[0] });
  if (Array.isArray(schema.type))
    return { ...schema, type: schema.type.find((type) => type !== 'null') ?? 'string' };
  return schema;
}

/** The example a description gives, as in `e.g. "PAY-142"`. */
function exampleOf(description: string): string | undefined {
  return /e\.g\.\s*["“]([^"”]+)["”]/.exec(description)?.[1];
}

function first<T>(context: Context, read: (text: string) => T | undefined): T | undefined {
  for (const text of context.texts) {
    const value = read(text);
    if (value !== undefined) return value;
  }
  return undefined;
}

const specific = (value: unknown): Candidate | undefined =>
  value === undefined ? undefined : { value, specific: true };
const fallback = (value: unknown): Candidate | undefined =>
  value === undefined ? undefined : { value, specific: false };

// ---------------------------------------------------------------------------
// Strings
// ---------------------------------------------------------------------------

function fitsString(value: unknown, schema: Schema): boolean {
  if (typeof value !== 'string') return false;
  if (typeof schema.minLength === 'number' && value.length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return false;
  if (typeof schema.pattern === 'string') {
    try {
      if (!new RegExp(schema.pattern, 'u').test(value)) return false;
    } catch {
      try {
        if (!new RegExp(schema.pattern).test(value)) return false;
      } catch {
        return true;
      }
    }
  }
  return true;
}

/** Shortens free text to the field's maximum length (free text has no pattern or format). */
function trimToLength(value: string, schema: Schema): string {
  const maximum = typeof schema.maxLength === 'number' ? schema.maxLength : 5000;
  return value.length > maximum ? value.slice(0, maximum).trimEnd() || value.slice(0, maximum) : value;
}

function formatSample(schema: Schema, context: Context): string | undefined {
  switch (schema.format) {
    case 'email':
      return 'alex@example.com';
    case 'date':
      return context.today;
    case 'time':
      return '12:00';
    case 'date-time':
      return `${context.today}T12:00:00Z`;
    case 'uri':
    case 'url':
      return 'https://example.com';
    case 'uuid':
      return '123e4567-e89b-42d3-a456-426614174000';
    default:
      return undefined;
  }
}

/** A string that satisfies the schema when nothing better is known. */
function anyValidString(field: Field, context: Context): string {
  const schema = field.schema;
  const minimum = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const samples = [
    exampleOf(field.description),
    formatSample(schema, context),
    field.words.join(' '),
    field.words.join('_'),
    'ABC',
    'abc',
    '1',
    'a1',
    'A1',
    '12:00',
    context.today,
    `${context.today}T12:00:00Z`,
    'x'.repeat(Math.max(1, minimum)),
  ];
  for (const sample of samples) if (sample !== undefined && fitsString(sample, schema)) return sample;
  return 'x'.repeat(Math.max(1, minimum));
}

function dateCandidate(field: Field, context: Context): Candidate | undefined {
  const mentions = first(context, (text) => {
    const found = dateMentions(text, context.today);
    return found.dates.length > 0 ? found : undefined;
  });
  const nights = first(context, (text) => dateMentions(text, context.today).nights);
  const words = field.words;
  const isEnd = words.some((word) => ['end', 'to', 'until', 'return', 'out'].includes(word));
  const past = /\bpast\b/i.test(field.description);
  if (mentions) {
    const start = mentions.dates[0]!;
    if (!isEnd) return specific(start);
    const second = mentions.dates.find((date) => date > start);
    if (second) return specific(second);
    if (nights) return specific(addDays(start, nights));
    if (!field.required) return undefined;
    return fallback(addDays(start, words.includes('out') ? 2 : words.includes('return') ? 7 : 0));
  }
  if (!field.required) return undefined;
  const periodField = /\bperiod\b/i.test(field.description);
  if (isEnd) {
    if (periodField) return fallback(addDays(context.today, -1));
    const start = addDays(context.today, 1);
    return fallback(addDays(start, nights ?? (words.includes('return') ? 7 : 2)));
  }
  if (periodField) return fallback(addDays(context.today, -7));
  return fallback(
    past
      ? addDays(context.today, -1)
      : words.some((word) => ['check', 'in', 'departure'].includes(word))
        ? addDays(context.today, 1)
        : context.today,
  );
}

function cityCandidate(field: Field, context: Context): Candidate | undefined {
  const words = field.words;
  const wantsOrigin = words.some((word) => ['origin', 'from', 'departure', 'start'].includes(word));
  const wantsDestination = words.some((word) => ['destination', 'to', 'arrival', 'end'].includes(word));
  for (const text of context.texts) {
    const mentions = cityMentions(text);
    if (mentions.length === 0) continue;
    if (wantsOrigin) {
      const origin =
        mentions.find((mention) => mention.preposition === 'from') ??
        mentions.find((mention) => mention.preposition !== 'to');
      if (origin) return specific(origin.city.name);
      continue;
    }
    if (wantsDestination) {
      const destination =
        mentions.find((mention) => mention.preposition === 'to' || mention.preposition === 'into') ??
        mentions.find((mention) => mention.preposition !== 'from');
      if (destination) return specific(destination.city.name);
      continue;
    }
    return specific(mentions[0]!.city.name);
  }
  const phrase = first(context, (text) => {
    if (wantsOrigin) return phraseAfter(text, 'from');
    if (wantsDestination) return phraseAfter(text, 'to');
    return placeAfterPreposition(text);
  });
  if (phrase && (wantsOrigin || wantsDestination || /^[A-Z]/.test(phrase))) return specific(phrase);
  return undefined;
}

function currencyCandidate(field: Field, context: Context): Candidate | undefined {
  const mentioned = first(context, (text) => {
    const found = currencyMentions(text);
    return found.length > 0 ? found : undefined;
  });
  if (!mentioned) return undefined;
  const second = field.words.some((word) => ['to', 'quote', 'target', 'into'].includes(word));
  if (second) {
    const explicit = first(context, (text) => {
      const match = /\b(?:to|into|in)\s+([A-Za-z]{3}|[$€£¥]|dollars?|euros?|pounds?|yen)\b/i.exec(clip(text));
      return match ? currencyMentions(match[1]!)[0] : undefined;
    });
    const value = explicit ?? mentioned[1];
    return value ? specific(value) : undefined;
  }
  return specific(mentioned[0]);
}

function idCandidate(field: Field, context: Context): Candidate | undefined {
  const example = exampleOf(field.description);
  const tokens = first(context, (text) => {
    const found = idTokens(text);
    return found.length > 0 ? found : undefined;
  });
  if (tokens) {
    let matching = tokens;
    if (example) {
      const prefix = /^([a-z]+_|[A-Z]+-)/.exec(example)?.[1];
      if (prefix && /_$/.test(prefix)) matching = tokens.filter((token) => token.startsWith(prefix));
      else if (/^[A-Z]+-\d+$/.test(example))
        matching = tokens.filter((token) => /^[A-Z][A-Z0-9]*-\d+$/.test(token));
      else if (/^[A-Z0-9]{6}$/.test(example))
        matching = tokens.filter((token) => /^[A-Z0-9]{6}$/.test(token));
    }
    if (matching[0]) return specific(matching[0]);
  }
  if (!field.required) return undefined;
  return fallback(example ?? `${field.words.filter((word) => word !== 'id').join('_') || 'item'}_001`);
}

const textNames = new Set([
  'body',
  'text',
  'message',
  'content',
  'comment',
  'note',
  'notes',
  'markdown',
  'description',
  'condition',
  'document',
  'summary',
]);
const titleNames = new Set(['title', 'subject', 'summary', 'name', 'headline']);
const placeKinds = [
  'pharmacy',
  'cafe',
  'café',
  'coffee shop',
  'atm',
  'museum',
  'restaurant',
  'hospital',
  'supermarket',
  'bar',
  'bakery',
  'hotel',
  'parking',
  'gas station',
  'park',
  'gym',
  'bank',
];
const cuisines = [
  'italian',
  'portuguese',
  'french',
  'japanese',
  'spanish',
  'vegetarian',
  'vegan',
  'seafood',
  'chinese',
  'indian',
  'mexican',
  'thai',
  'greek',
  'sushi',
  'pizza',
];
const languages = [
  'typescript',
  'javascript',
  'python',
  'go',
  'rust',
  'java',
  'ruby',
  'kotlin',
  'swift',
  'c++',
  'c#',
  'php',
];
const tickers: Readonly<Record<string, string>> = {
  apple: 'AAPL',
  microsoft: 'MSFT',
  google: 'GOOGL',
  alphabet: 'GOOGL',
  amazon: 'AMZN',
  tesla: 'TSLA',
  nvidia: 'NVDA',
  meta: 'META',
  netflix: 'NFLX',
  bitcoin: 'BTC',
  ethereum: 'ETH',
  ether: 'ETH',
  solana: 'SOL',
};
const notTickers = new Set([
  'I',
  'A',
  'PR',
  'PRS',
  'OK',
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CHF',
  'CAD',
  'AUD',
  'SQL',
  'API',
  'CSV',
  'PDF',
  'ETA',
  'UTC',
  'EU',
  'US',
  'UK',
]);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function listWord(context: Context, list: readonly string[]): string | undefined {
  return first(context, (text) => {
    const lower = clip(text).toLowerCase();
    return list.find((word) =>
      new RegExp(`(?:^|[^\\p{L}])${escapeRegExp(word)}s?(?:$|[^\\p{L}])`, 'u').test(lower),
    );
  });
}

const determiners =
  /^(?:the|a|an|our|my|your|this|that|its|their|his|her|new|same|which|what|each|every|for|to|in|on|at|of|and|or|is|are|was|with|from|by)$/i;

const titleVerbs =
  /^(?:(?:schedule|create|add|book|open|file|make|set up|start|write|draft|send|new|log|raise|report|post|put|plan|organi[sz]e)\s+)?(?:(?:a|an|the|new|my|our)\s+)*/i;

/** "schedule a design review with Ana on Friday" → "design review". */
function titleFromClause(clause: string): string {
  const stripped = cleanClause(clause).replace(titleVerbs, '');
  const cut = stripped
    .split(/\s+(?:with|on|at|for|tomorrow|today|tonight|next|this|in|from|to|by|until)\b/i)[0]
    ?.trim();
  return cut || stripped || cleanClause(clause) || 'Untitled';
}

function stringCandidates(field: Field, context: Context): Array<Candidate | undefined> {
  const { words, schema, description } = field;
  const has = (...names: string[]) => names.some((name) => words.includes(name));
  const last = words[words.length - 1] ?? '';
  const clause = context.clause;
  const out: Array<Candidate | undefined> = [];

  if (schema.format === 'email' || has('email')) {
    out.push(specific(first(context, (text) => emails(text)[0])));
    out.push(
      specific(
        first(context, (text) => personNames(text)[0])
          ?.toLowerCase()
          .replace(/\s+/g, '.')
          .concat('@example.com'),
      ),
    );
    return out;
  }
  if (schema.format === 'date-time') {
    const date = dateCandidate(field, context);
    const time = first(context, (text) => times(text)[0]);
    if (date) out.push({ value: `${date.value}T${time ?? '09:00'}:00Z`, specific: date.specific });
    return out;
  }
  if (schema.format === 'date' || (has('date') && /YYYY-MM-DD/.test(description))) {
    out.push(dateCandidate(field, context));
    return out;
  }
  if (schema.format === 'time' || (last === 'time' && /HH:MM/.test(description))) {
    out.push(specific(first(context, (text) => times(text)[0])));
    return out;
  }
  if (last.endsWith('ts') && /timestamp/i.test(description)) {
    out.push(specific(first(context, (text) => /\b\d{10}\.\d{6}\b/.exec(clip(text))?.[0])));
    out.push(fallback('1750000000.000100'));
    return out;
  }
  if (has('currency', 'base', 'quote') || (has('from', 'to') && /currency/i.test(description))) {
    out.push(currencyCandidate(field, context));
    if (has('to', 'quote')) out.push(fallback('EUR'));
    out.push(fallback('USD'));
    return out;
  }
  if (
    has('city', 'origin', 'destination', 'location', 'address') ||
    (has('from', 'to') && /city|place|airport/i.test(description))
  ) {
    if (has('address')) out.push(specific(first(context, (text) => quotedStrings(text)[0])));
    out.push(cityCandidate(field, context));
    return out;
  }
  if (has('repo', 'repository')) {
    out.push(specific(first(context, (text) => repositoryMention(text)?.repo)));
    out.push(specific(listWord(context, repositories)));
    return out;
  }
  if (has('owner') && /repositor/i.test(description)) {
    out.push(specific(first(context, (text) => repositoryMention(text)?.owner)));
    return out;
  }
  if (has('channel')) {
    out.push(specific(first(context, channelMention)));
    return out;
  }
  if (has('flight') && has('number')) {
    out.push(
      specific(
        first(context, (text) =>
          /\b([A-Z]{2}|[A-Z]\d|\d[A-Z])\s?(\d{2,4})\b/.exec(clip(text))?.slice(1, 3).join(''),
        ),
      ),
    );
    return out;
  }
  if (last === 'seat') {
    out.push(specific(first(context, (text) => /\b(\d{1,2}[A-K])\b/.exec(clip(text))?.[1])));
    return out;
  }
  if (has('symbol', 'ticker', 'coin')) {
    const company = listWord(context, Object.keys(tickers));
    out.push(specific(company === undefined ? undefined : tickers[company]));
    out.push(
      specific(
        first(context, (text) =>
          [...clip(text).matchAll(/\b[A-Z]{2,5}\b/g)]
            .map((match) => match[0])
            .find((token) => !notTickers.has(token)),
        ),
      ),
    );
    return out;
  }
  if (has('phone')) {
    out.push(specific(first(context, (text) => phoneNumbers(text)[0])));
    out.push(fallback('+1 555 0100'));
    return out;
  }
  if (has('kind', 'category') && /place/i.test(description)) {
    out.push(specific(listWord(context, placeKinds)));
    return out;
  }
  if (has('cuisine')) {
    out.push(specific(listWord(context, cuisines)));
    return out;
  }
  if (has('language') && !/locale/i.test(description)) {
    const language = listWord(context, languages);
    out.push(specific(language ? capitalise(language) : undefined));
    return out;
  }
  if (has('sql')) {
    const statement = /\b(?:select|insert|update|delete|create|alter|with)\b[\s\S]*/i.exec(clip(clause))?.[0];
    out.push(specific(statement));
    const table =
      /\b(?:from|in|on)\s+(?:the\s+)?(\w+)\s+table\b/i.exec(clip(clause))?.[1] ??
      listWord(context, ['orders', 'users', 'payments', 'refunds', 'products', 'sessions']);
    out.push(fallback(`SELECT * FROM ${table ?? 'orders'} LIMIT 10`));
    return out;
  }
  if (
    ['id', 'key', 'identifier', 'reference'].includes(last) ||
    (/ id\b/i.test(description) && !/name or id/i.test(description))
  ) {
    out.push(idCandidate(field, context));
    return out;
  }
  const wantsPerson =
    has('assignee', 'user', 'guest', 'passenger', 'author') ||
    ((has('name') || has('first') || has('last')) &&
      /person|guest|passenger|full name|first name|last name|contact|customer|reservation/i.test(
        description,
      ));
  if (wantsPerson) {
    const person = first(
      context,
      (text) => /(?:^|\s)@([\w.-]+)/.exec(clip(text))?.[1] ?? personNames(text)[0],
    );
    if (person) {
      const parts = person.split(' ');
      out.push(specific(has('first') ? parts[0] : has('last') ? (parts[1] ?? parts[0]) : person));
    }
    if (field.required) out.push(fallback(has('first') ? 'Alex' : has('last') ? 'Morgan' : 'Alex Morgan'));
    return out;
  }
  if (has('company')) {
    out.push(
      specific(
        first(
          context,
          (text) => /\b(?:at|from|for|with)\s+([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,2})/.exec(clip(text))?.[1],
        ),
      ),
    );
    return out;
  }
  if (has('query', 'q', 'jql', 'search')) {
    out.push(specific(first(context, (text) => quotedStrings(text)[0])));
    out.push(fallback(topicPhrase(clause) ?? cleanClause(clause)));
    return out;
  }
  if (words.some((word) => titleNames.has(word))) {
    out.push(specific(first(context, (text) => quotedStrings(text)[0])));
    if (field.required) {
      const topic = topicPhrase(clause);
      out.push(fallback(capitalise(topic ?? titleFromClause(clause))));
    }
    return out;
  }
  if (words.some((word) => textNames.has(word)) || /json/i.test(description)) {
    out.push(specific(first(context, (text) => quotedStrings(text)[0])));
    if (field.required)
      out.push(
        fallback(
          /json/i.test(description) ? JSON.stringify({ text: cleanClause(clause) }) : cleanClause(clause),
        ),
      );
    return out;
  }
  // "the payments team", "service called billing" → the word next to the field's own noun.
  const named = first(context, (text) => {
    const noun = escapeRegExp(last);
    if (!noun) return undefined;
    const after = new RegExp(`\\b${noun}\\s+(?:called\\s+|named\\s+)?["']?([\\w.-]+)`, 'i').exec(
      clip(text),
    )?.[1];
    if (after && !determiners.test(after)) return after;
    const before = new RegExp(`\\b([\\w.-]+)\\s+${noun}\\b`, 'i').exec(clip(text))?.[1];
    return before && !determiners.test(before) ? before : undefined;
  });
  if (named && !determiners.test(named)) out.push(specific(named));
  if (field.required) {
    const example = exampleOf(description);
    if (example) out.push(fallback(example));
    out.push(fallback(first(context, (text) => quotedStrings(text)[0])));
    out.push(fallback(topicPhrase(clause)));
  }
  return out;
}

function stringValue(field: Field, context: Context): Candidate | undefined {
  // A field with a default is required in a schema of zod's output side (LangChain sends those):
  // its default beats a guess; only a value the text names replaces it.
  const preset =
    typeof field.schema.default === 'string' && fitsString(field.schema.default, field.schema)
      ? field.schema.default
      : undefined;
  for (const candidate of stringCandidates(field, context)) {
    if (!candidate || typeof candidate.value !== 'string') continue;
    if (!candidate.specific && preset !== undefined) break;
    const isFreeText = field.schema.pattern === undefined && field.schema.format === undefined;
    const value = isFreeText ? trimToLength(candidate.value, field.schema) : candidate.value;
    if (fitsString(value, field.schema)) return { value, specific: candidate.specific };
    const upper = value.toUpperCase();
    if (fitsString(upper, field.schema)) return { value: upper, specific: candidate.specific };
  }
  if (!field.required) return undefined;
  if (preset !== undefined) return fallback(preset);
  const example = exampleOf(field.description);
  if (example && fitsString(example, field.schema)) return fallback(example);
  return fallback(anyValidString(field, context));
}

// ---------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------

const units: Readonly<Record<string, ReadonlyArray<{ words: string[]; scale: number }>>> = {
  minutes: [
    { words: ['minutes', 'minute', 'mins', 'min'], scale: 1 },
    { words: ['hours', 'hour', 'hrs', 'hr', 'h'], scale: 60 },
  ],
  hours: [
    { words: ['hours', 'hour', 'hrs', 'hr', 'h'], scale: 1 },
    { words: ['days', 'day'], scale: 24 },
  ],
  days: [
    { words: ['days', 'day'], scale: 1 },
    { words: ['weeks', 'week'], scale: 7 },
  ],
  weeks: [{ words: ['weeks', 'week'], scale: 1 }],
  years: [{ words: ['years', 'year', 'yrs', 'yr'], scale: 1 }],
  nights: [{ words: ['nights', 'night'], scale: 1 }],
  seconds: [
    { words: ['seconds', 'second', 'secs', 'sec', 's'], scale: 1 },
    { words: ['minutes', 'minute', 'mins', 'min'], scale: 60 },
    { words: ['hours', 'hour'], scale: 3600 },
    { words: ['days', 'day'], scale: 86_400 },
  ],
  meters: [
    { words: ['meters', 'metres', 'meter', 'metre', 'm'], scale: 1 },
    { words: ['kilometers', 'kilometres', 'km'], scale: 1000 },
  ],
  instances: [
    { words: ['instances', 'instance', 'replicas', 'replica', 'pods', 'servers', 'nodes'], scale: 1 },
  ],
  occurrences: [{ words: ['times', 'occurrences', 'sessions', 'meetings'], scale: 1 }],
  quantity: [{ words: ['items', 'units', 'pieces', 'copies', 'tickets', 'seats'], scale: 1 }],
};

function numberCandidates(field: Field, context: Context): Array<Candidate | undefined> {
  const { words, description } = field;
  const has = (...names: string[]) => names.some((name) => words.includes(name));
  const last = words[words.length - 1] ?? '';
  const out: Array<Candidate | undefined> = [];

  if (has('latitude', 'lat', 'longitude', 'lon', 'lng')) {
    const wantsLatitude = has('latitude', 'lat');
    const pair = first(context, (text) => /(-?\d{1,2}\.\d+)\s*,\s*(-?\d{1,3}\.\d+)/.exec(clip(text)));
    if (pair) out.push(specific(Number(wantsLatitude ? pair[1] : pair[2])));
    const city = first(context, (text) => cityMentions(text)[0]?.city);
    if (city) out.push(specific(wantsLatitude ? city.latitude : city.longitude));
    out.push(fallback(wantsLatitude ? cities[0]!.latitude : cities[0]!.longitude));
    return out;
  }
  if (has('party', 'guests', 'passengers', 'people', 'adults', 'travellers', 'travelers')) {
    out.push(specific(first(context, headCount)));
    out.push(fallback(2));
    return out;
  }
  if (has('days') && words.length === 1) {
    const mentions = first(context, (text) => {
      const found = dateMentions(text, context.today);
      return found.period && found.dates.length >= 2 ? found : undefined;
    });
    if (mentions)
      out.push(specific(daysBetween(mentions.dates[0]!, mentions.dates[mentions.dates.length - 1]!) + 1));
  }
  const unit = Object.hasOwn(units, last)
    ? units[last]
    : has('quantity', 'count')
      ? units.quantity
      : undefined;
  if (unit) {
    const value = first(context, (text) =>
      last === 'minutes' && /\bhalf an hour\b/i.test(text) ? 30 : numberWithUnit(text, unit),
    );
    out.push(specific(value));
  }
  if (has('percent', 'rate') && !has('bounce')) {
    out.push(specific(first(context, percentage)));
  }
  if (
    has('amount', 'price', 'principal', 'budget', 'cost', 'total', 'balance') ||
    /\b(?:amount|price)\b/i.test(description)
  ) {
    const cents = /cents|smallest currency unit/i.test(description);
    const money = first(context, (text) => moneyAmounts(text)[0]);
    if (money) out.push(specific(cents ? Math.round(money.amount * 100) : money.amount));
    const under = first(
      context,
      (text) =>
        /\b(?:under|below|less than|max(?:imum)?|at most|up to)\s+[$€£]?\s?(\d[\d,]*(?:\.\d+)?)/i.exec(
          clip(text),
        )?.[1],
    );
    if (under) out.push(specific(Number(under.replace(/,/g, '')) * (cents ? 100 : 1)));
    if (has('principal', 'initial')) {
      const largest = first(context, (text) => {
        const found = numbers(text);
        return found.length > 0 ? Math.max(...found) : undefined;
      });
      out.push(specific(largest));
    }
  }
  if (last === 'number' || (last === 'id' && field.schema.type === 'integer')) {
    const referenceWords = has('pull')
      ? ['pr', 'pull request', 'pull', 'merge request']
      : has('issue')
        ? ['issue', 'ticket', 'bug']
        : has('run')
          ? ['run', 'workflow run', 'build', 'job']
          : [words[0] ?? 'number'];
    out.push(specific(first(context, (text) => referencedNumber(text, referenceWords))));
  }
  if (has('priority') && /urgent/i.test(description)) {
    const level = first(context, (text) =>
      /\b(urgent|high|medium|low)\b/i.exec(clip(text))?.[1]?.toLowerCase(),
    );
    if (level) out.push(specific({ urgent: 1, high: 2, medium: 3, low: 4 }[level]));
  }
  if (has('year')) {
    const year = first(context, (text) => /\b((?:19|20)\d{2})\b/.exec(clip(text))?.[1]);
    out.push(specific(year === undefined ? undefined : Number(year)));
  }
  if (has('limit') || /maximum number of results/i.test(description)) {
    out.push(
      specific(
        first(context, (text) => {
          const match =
            /\b(?:top|last|first|latest|recent)\s+(\d{1,4})\b|\b(\d{1,4})\s+(?:results|items|rows|entries|messages|emails|issues|prs|pull requests|events|files|records)\b/i.exec(
              clip(text),
            );
          return match ? Number(match[1] ?? match[2]) : undefined;
        }),
      ),
    );
  }
  if (field.required) {
    out.push(fallback(first(context, (text) => numbers(text)[0])));
  }
  return out;
}

function fitNumber(value: number, schema: Schema): number | undefined {
  if (!Number.isFinite(value)) return undefined;
  const integer = schema.type === 'integer';
  let result = integer ? Math.round(value) : value;
  const step = integer ? 1 : 0.01;
  if (typeof schema.minimum === 'number' && result < schema.minimum)
    result = integer ? Math.ceil(schema.minimum) : schema.minimum;
  if (typeof schema.maximum === 'number' && result > schema.maximum)
    result = integer ? Math.floor(schema.maximum) : schema.maximum;
  if (typeof schema.exclusiveMinimum === 'number' && result <= schema.exclusiveMinimum)
    result = (integer ? Math.floor(schema.exclusiveMinimum) : schema.exclusiveMinimum) + step;
  if (typeof schema.exclusiveMaximum === 'number' && result >= schema.exclusiveMaximum)
    result = (integer ? Math.ceil(schema.exclusiveMaximum) : schema.exclusiveMaximum) - step;
  if (typeof schema.multipleOf === 'number' && schema.multipleOf > 0)
    result = Math.round(result / schema.multipleOf) * schema.multipleOf;
  return Number.isFinite(result) ? result : undefined;
}

function numberValue(field: Field, context: Context): Candidate | undefined {
  for (const candidate of numberCandidates(field, context)) {
    if (!candidate || typeof candidate.value !== 'number') continue;
    const value = fitNumber(candidate.value, field.schema);
    if (value !== undefined) return { value, specific: candidate.specific };
  }
  if (!field.required) return undefined;
  if (typeof field.schema.default === 'number') return fallback(field.schema.default);
  return fallback(
    fitNumber(typeof field.schema.minimum === 'number' ? field.schema.minimum : 1, field.schema) ?? 1,
  );
}

// ---------------------------------------------------------------------------
// Enums, booleans, arrays, objects
// ---------------------------------------------------------------------------

function mentionsValue(text: string, value: string): boolean {
  const phrase = value.toLowerCase().replace(/[_-]+/g, ' ').trim();
  if (!phrase) return false;
  const lower = clip(text).toLowerCase();
  if (phrase.includes(' ')) return lower.includes(phrase);
  const words = lower.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.some(
    (word) =>
      word === phrase ||
      stem(word) === stem(phrase) ||
      (word.length >= 4 && phrase.length >= 4 && (phrase.startsWith(word) || word.startsWith(phrase))),
  );
}

function enumValue(field: Field, values: readonly unknown[], context: Context): Candidate | undefined {
  if (field.words.includes('currency')) {
    const currency = first(context, (text) => currencyMentions(text)[0]);
    const match =
      currency === undefined ? undefined : values.find((value) => String(value).toUpperCase() === currency);
    if (match !== undefined) return specific(match);
  }
  for (const text of context.texts) {
    const mentioned = values.filter(
      (value): value is string => typeof value === 'string' && mentionsValue(text, value),
    );
    // A value that is the tool's own verb ("merge" in "merge PR 42") says nothing about the option.
    const pool = mentioned.filter((value) => !context.toolWords.has(value.toLowerCase()));
    const lower = clip(text).toLowerCase();
    const position = (value: string) =>
      lower.lastIndexOf(value.toLowerCase().replace(/[_-]+/g, ' ').slice(0, 4));
    const match = [...pool].sort((a, b) => position(b) - position(a))[0];
    if (match !== undefined) return specific(match);
  }
  if (!field.required) return undefined;
  if (field.schema.default !== undefined && values.includes(field.schema.default))
    return fallback(field.schema.default);
  return fallback(values[0]);
}

const genericBooleanWords = new Set([
  'is',
  'include',
  'only',
  'has',
  'should',
  'at',
  'all',
  'enable',
  'enabled',
]);

function booleanValue(field: Field, context: Context): Candidate | undefined {
  const meaningful = field.words.filter((word) => !genericBooleanWords.has(word));
  const key = meaningful.length > 0 ? meaningful : field.words;
  const says = (text: string) => key.length > 0 && key.every((word) => mentionsValue(text, word));
  const negated = (text: string) =>
    key.some((word) => new RegExp(`\\b(?:un|non-?|not\\s+|no\\s+)${word}`, 'i').test(clip(text)));
  for (const text of context.texts.slice(0, 1)) {
    if (negated(text)) return specific(false);
    if (says(text)) return specific(true);
  }
  if (!field.required) return undefined;
  return fallback(typeof field.schema.default === 'boolean' ? field.schema.default : false);
}

function singular(word: string): string {
  return word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('s') ? word.slice(0, -1) : word;
}

function arrayValue(field: Field, context: Context, depth: number): Candidate | undefined {
  const schema = field.schema;
  const items = isObject(schema.items) ? resolve(schema.items) : {};
  const minimum = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const maximum = typeof schema.maxItems === 'number' ? schema.maxItems : 20;
  const has = (...names: string[]) => names.some((name) => field.words.includes(name));
  let found: unknown[] | undefined;

  if (Array.isArray(items.enum)) {
    const values = items.enum.filter((value) =>
      context.texts.slice(0, 1).some((text) => typeof value === 'string' && mentionsValue(text, value)),
    );
    if (values.length > 0) found = values;
  } else if (items.format === 'email' || has('emails', 'recipients', 'to', 'cc', 'attendees')) {
    if (has('cc') && !/\bcc\b/i.test(context.clause))
      return field.required ? fallback(['alex@example.com']) : undefined;
    const list = first(context, (text) => {
      const direct = emails(text);
      if (direct.length > 0) return direct;
      const people = personNames(text).map(
        (name) => `${name.toLowerCase().replace(/\s+/g, '.')}@example.com`,
      );
      return people.length > 0 ? people : undefined;
    });
    if (list) found = list;
  } else if (has('names') || has('passenger')) {
    const people = first(context, (text) => {
      const list = personNames(text);
      return list.length > 0 ? list : undefined;
    });
    if (people) found = people;
  } else if (has('users', 'members', 'assignees')) {
    const handles = first(context, (text) => {
      const list = [...clip(text).matchAll(/(?:^|\s)@([\w.-]+)/g)].map((match) => match[1]!);
      const all = list.length > 0 ? list : personNames(text);
      return all.length > 0 ? all : undefined;
    });
    if (handles) found = handles;
  } else if (has('origins', 'destinations')) {
    const list = first(context, (text) => {
      const mentioned = cityMentions(text).map((mention) => mention.city.name);
      return mentioned.length > 0 ? mentioned : undefined;
    });
    if (list) found = list;
  } else if (field.words[field.words.length - 1] === 'ids') {
    const tokens = first(context, (text) => {
      const list = idTokens(text);
      return list.length > 0 ? list : undefined;
    });
    if (tokens) found = tokens;
  } else if (has('labels')) {
    const label = first(
      context,
      (text) => /\blabel(?:l?ed)?\s+(?:as\s+|it\s+|them\s+)?["']?([\w-]+)/i.exec(clip(text))?.[1],
    );
    if (label) found = [label];
  }

  if (found) {
    const fitted = found
      .map((value) => fitItem(value, items, field, context, depth))
      .filter((value) => value !== undefined);
    if (fitted.length > 0)
      return specific(padItems(fitted.slice(0, maximum), minimum, field, items, context, depth));
  }
  if (!field.required) return undefined;
  return fallback(
    padItems([], Math.max(1, minimum), field, items, context, depth).slice(
      0,
      Math.max(minimum, Math.min(1, maximum)),
    ),
  );
}

function fitItem(value: unknown, items: Schema, field: Field, context: Context, depth: number): unknown {
  const itemField: Field = { ...field, schema: items, required: true };
  if (items.type === 'string' || items.type === undefined)
    return typeof value === 'string' && fitsString(value, items) ? value : undefined;
  return valueFor(itemField, context, depth + 1)?.value;
}

function padItems(
  list: unknown[],
  minimum: number,
  field: Field,
  items: Schema,
  context: Context,
  depth: number,
): unknown[] {
  const out = [...list];
  const itemField: Field = {
    name: singular(field.name),
    words: field.words.map(singular),
    schema: items,
    description: typeof items.description === 'string' ? items.description : field.description,
    required: true,
  };
  while (out.length < minimum) {
    const value = valueFor(itemField, context, depth + 1)?.value;
    out.push(value === undefined ? 'item' : value);
  }
  return out;
}

function objectValue(schema: Schema, context: Context, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required)
      ? schema.required.filter((key): key is string => typeof key === 'string')
      : [],
  );
  for (const [name, raw] of Object.entries(properties)) {
    if (!isObject(raw)) continue;
    const propertySchema = resolve(raw);
    const field: Field = {
      name,
      words: nameWords(name),
      schema: propertySchema,
      description: typeof propertySchema.description === 'string' ? propertySchema.description : '',
      required: required.has(name),
    };
    const candidate = valueFor(field, context, depth + 1);
    if (candidate && (field.required || candidate.specific)) setOwn(out, name, candidate.value);
  }
  return out;
}

function valueFor(field: Field, context: Context, depth: number): Candidate | undefined {
  const schema = field.schema;
  if (depth > 8) return field.required ? fallback(null) : undefined;
  if ('const' in schema) return fallback(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return enumValue(field, schema.enum, context);
  switch (schema.type) {
    case 'integer':
    case 'number':
      return numberValue(field, context);
    case 'boolean':
      return booleanValue(field, context);
    case 'array':
      return arrayValue(field, context, depth);
    case 'object':
      return field.required ? fallback(objectValue(schema, context, depth)) : undefined;
    case 'null':
      return fallback(null);
    default:
      return stringValue(field, context);
  }
}

/**
 * The arguments for a tool with this input schema, read from the request text. Deterministic:
 * the same schema, text and `today` give the same arguments.
 */
export function buildToolArguments(
  schema: JsonSchemaObject | undefined,
  context: ArgumentContext,
): Record<string, unknown> {
  const clause = typeof context.text === 'string' ? clip(context.text) : '';
  const request = typeof context.request === 'string' ? clip(context.request) : undefined;
  const texts = request !== undefined && request !== clause ? [clause, request] : [clause];
  const toolWords = new Set(typeof context.toolName === 'string' ? nameWords(context.toolName) : []);
  const resolved: Context = { texts, clause, today: context.today ?? catalogToday, toolWords };
  if (!isObject(schema)) return {};
  return objectValue(resolve(schema), resolved, 0);
}
