import type { JsonSchema, ToolDescriptor } from '@tool-search/core';

/**
 * A seeded generator of realistic tool catalogs of any size, for speed and memory runs and
 * for quality checks on a catalog no ranker was tuned on. Tools look like real API tools:
 * verb–object names in mixed styles (camelCase, snake_case, kebab, dotted, vendor-prefixed),
 * one to three sentences of description, one to six parameters (some nested) with
 * descriptions. Invented vendor and product words make the vocabulary grow with the catalog
 * the way real catalogs' vocabularies do.
 */

/** mulberry32: a small, fast, seeded PRNG (uniform in [0, 1)). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

interface Domain {
  readonly name: string;
  readonly nouns: readonly string[];
  readonly parameters: readonly (readonly [string, string])[];
}

const DOMAINS: readonly Domain[] = [
  {
    name: 'weather',
    nouns: ['forecast', 'temperature', 'alert', 'radar', 'humidity', 'wind', 'storm', 'pollen', 'uv index'],
    parameters: [
      ['location', 'City name or coordinates'],
      ['units', 'Temperature units: metric or imperial'],
      ['days', 'Number of days to forecast'],
    ],
  },
  {
    name: 'travel',
    nouns: [
      'flight',
      'hotel',
      'booking',
      'itinerary',
      'airport',
      'train ticket',
      'car rental',
      'visa',
      'seat',
    ],
    parameters: [
      ['origin', 'Departure airport or city'],
      ['destination', 'Arrival airport or city'],
      ['departure_date', 'Date of departure (YYYY-MM-DD)'],
      ['passengers', 'Number of travellers'],
    ],
  },
  {
    name: 'finance',
    nouns: [
      'invoice',
      'payment',
      'exchange rate',
      'stock quote',
      'balance',
      'transaction',
      'currency',
      'refund',
      'budget',
    ],
    parameters: [
      ['amount', 'Amount of money'],
      ['currency', 'ISO 4217 currency code'],
      ['account_id', 'Identifier of the account'],
      ['symbol', 'Ticker symbol of the stock'],
    ],
  },
  {
    name: 'code',
    nouns: [
      'repository',
      'pull request',
      'issue',
      'commit',
      'branch',
      'release',
      'workflow run',
      'code review',
      'gist',
    ],
    parameters: [
      ['owner', 'Owner of the repository'],
      ['repo', 'Name of the repository'],
      ['state', 'Filter by state: open, closed or all'],
      ['branch', 'Branch name'],
    ],
  },
  {
    name: 'messaging',
    nouns: [
      'message',
      'channel',
      'thread',
      'reaction',
      'direct message',
      'email',
      'attachment',
      'mailbox',
      'draft',
    ],
    parameters: [
      ['channel_id', 'Identifier of the channel'],
      ['text', 'Text of the message'],
      ['recipient', 'Email address of the recipient'],
      ['subject', 'Subject line'],
    ],
  },
  {
    name: 'calendar',
    nouns: ['event', 'meeting', 'reminder', 'calendar', 'availability', 'invitation', 'time slot', 'agenda'],
    parameters: [
      ['start_time', 'Start time in ISO 8601'],
      ['end_time', 'End time in ISO 8601'],
      ['attendees', 'Email addresses of the attendees'],
      ['timezone', 'IANA time zone'],
    ],
  },
  {
    name: 'commerce',
    nouns: [
      'product',
      'order',
      'cart',
      'coupon',
      'inventory',
      'shipment',
      'review',
      'price',
      'wishlist',
      'catalog',
    ],
    parameters: [
      ['product_id', 'Identifier of the product'],
      ['quantity', 'Number of items'],
      ['query', 'Search terms'],
      ['sort', 'Sort order: price, rating or newest'],
    ],
  },
  {
    name: 'media',
    nouns: [
      'song',
      'playlist',
      'album',
      'artist',
      'podcast',
      'video',
      'movie',
      'subtitle',
      'lyrics',
      'concert',
    ],
    parameters: [
      ['track_id', 'Identifier of the track'],
      ['artist_name', 'Name of the artist'],
      ['genre', 'Music or film genre'],
      ['year', 'Release year'],
    ],
  },
  {
    name: 'health',
    nouns: [
      'appointment',
      'prescription',
      'symptom',
      'medication',
      'workout',
      'calorie count',
      'sleep record',
      'heart rate',
    ],
    parameters: [
      ['patient_id', 'Identifier of the patient'],
      ['date', 'Date (YYYY-MM-DD)'],
      ['dosage', 'Dose in milligrams'],
    ],
  },
  {
    name: 'data',
    nouns: [
      'table',
      'record',
      'query',
      'report',
      'dashboard',
      'spreadsheet',
      'chart',
      'dataset',
      'metric',
      'log entry',
    ],
    parameters: [
      ['table_name', 'Name of the table'],
      ['filter', 'Filter expression'],
      ['limit', 'Maximum number of rows'],
      ['format', 'Output format: csv or json'],
    ],
  },
  {
    name: 'maps',
    nouns: [
      'route',
      'address',
      'place',
      'distance',
      'traffic',
      'geocode',
      'restaurant',
      'parking spot',
      'transit stop',
    ],
    parameters: [
      ['latitude', 'Latitude in degrees'],
      ['longitude', 'Longitude in degrees'],
      ['radius', 'Search radius in meters'],
      ['mode', 'Travel mode: driving, walking or transit'],
    ],
  },
  {
    name: 'files',
    nouns: ['file', 'folder', 'document', 'image', 'thumbnail', 'backup', 'permission', 'share link', 'pdf'],
    parameters: [
      ['path', 'Path of the file'],
      ['mime_type', 'MIME type of the content'],
      ['overwrite', 'Replace an existing file'],
    ],
  },
  {
    name: 'sports',
    nouns: [
      'match',
      'score',
      'team',
      'player',
      'league table',
      'fixture',
      'transfer',
      'injury report',
      'odds',
    ],
    parameters: [
      ['team_id', 'Identifier of the team'],
      ['season', 'Season, e.g. 2024'],
      ['league', 'League code'],
    ],
  },
  {
    name: 'news',
    nouns: ['headline', 'article', 'feed', 'topic', 'source', 'summary', 'trending story', 'press release'],
    parameters: [
      ['category', 'News category'],
      ['language', 'Two-letter language code'],
      ['from_date', 'Earliest publication date'],
    ],
  },
  {
    name: 'identity',
    nouns: ['user', 'profile', 'password', 'session', 'role', 'api key', 'login', 'team member', 'audit log'],
    parameters: [
      ['user_id', 'Identifier of the user'],
      ['email', 'Email address'],
      ['role', 'Role name'],
    ],
  },
  {
    name: 'translation',
    nouns: [
      'translation',
      'language',
      'glossary',
      'transcript',
      'speech',
      'text',
      'dictionary entry',
      'spelling',
    ],
    parameters: [
      ['source_language', 'Language of the input'],
      ['target_language', 'Language to translate into'],
      ['text', 'Text to process'],
    ],
  },
];

const VERBS = [
  ['get', 'Gets'],
  ['list', 'Lists'],
  ['search', 'Searches'],
  ['create', 'Creates'],
  ['update', 'Updates'],
  ['delete', 'Deletes'],
  ['fetch', 'Fetches'],
  ['find', 'Finds'],
  ['calculate', 'Calculates'],
  ['convert', 'Converts'],
  ['send', 'Sends'],
  ['schedule', 'Schedules'],
  ['cancel', 'Cancels'],
  ['book', 'Books'],
  ['track', 'Tracks'],
  ['analyze', 'Analyzes'],
  ['export', 'Exports'],
  ['import', 'Imports'],
  ['validate', 'Validates'],
  ['summarize', 'Summarizes'],
  ['compare', 'Compares'],
  ['subscribe', 'Subscribes to'],
  ['archive', 'Archives'],
  ['recommend', 'Recommends'],
] as const;

const QUALIFIERS = [
  'current',
  'latest',
  'daily',
  'detailed',
  'public',
  'historical',
  'upcoming',
  'recent',
  'top',
  'shared',
];
const PURPOSES = [
  'for a given account',
  'by identifier',
  'for the signed-in user',
  'across all workspaces',
  'within a date range',
  'with pagination',
  'in the requested format',
  'for a location',
];
const EXTRA_SENTENCES = [
  'Results are paginated.',
  'Requires an API key.',
  'Returns JSON.',
  'Rate limited to 60 requests per minute.',
  'Use this before making changes.',
  'Supports filtering and sorting.',
  'Data is refreshed every hour.',
  'Only available on paid plans.',
];
const GENERIC_PARAMETERS: readonly (readonly [string, string])[] = [
  ['page', 'Page number, starting at 1'],
  ['page_size', 'Results per page'],
  ['include_archived', 'Also return archived items'],
  ['locale', 'Locale of the response'],
  ['verbose', 'Return every field'],
];
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'zen',
  'tra',
  'vo',
  'rix',
  'del',
  'na',
  'quo',
  'fy',
  'sol',
  'bri',
  'tek',
  'om',
  'ux',
  'pa',
  'ler',
];

function inventedWord(random: Random, maxSyllables = 3): string {
  const length = 2 + Math.floor(random() * (maxSyllables - 1));
  let word = '';
  for (let index = 0; index < length; index++) word += pick(random, SYLLABLES);
  return word;
}

const plural = (noun: string): string =>
  /[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(noun) ? `${noun}es` : `${noun}s`;
const capitalise = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

function formatName(random: Random, words: readonly string[]): string {
  const style = random();
  if (style < 0.35) return words.map((word, index) => (index === 0 ? word : capitalise(word))).join('');
  if (style < 0.7) return words.join('_');
  if (style < 0.85) return words.join('-');
  return words.join('.');
}

export interface SyntheticTool extends ToolDescriptor {
  readonly domain: string;
  /** The words a user would use for this tool: its verb and object. */
  readonly intent: readonly string[];
  /** The invented product the tool belongs to (named in its description). */
  readonly product: string;
}

/** A catalog of `size` tools with unique names, the same for the same seed. */
export function generateCatalog(options: { size: number; seed?: number }): SyntheticTool[] {
  const random = createRandom(options.seed ?? 1);
  const vendorCount = Math.max(8, Math.round(Math.sqrt(options.size) * 2));
  const vendors = Array.from({ length: vendorCount }, () => inventedWord(random));
  // Product names: one invented word per four tools, so the vocabulary grows with the catalog.
  const products = Array.from({ length: Math.max(20, Math.round(options.size / 4)) }, () =>
    inventedWord(random, 4),
  );
  const used = new Set<string>();
  const tools: SyntheticTool[] = [];
  while (tools.length < options.size) {
    const domain = pick(random, DOMAINS);
    const [verb, verbs] = pick(random, VERBS);
    const noun = pick(random, domain.nouns);
    const qualifier = random() < 0.3 ? pick(random, QUALIFIERS) : undefined;
    const vendor = pick(random, vendors);
    const nameWords = [
      ...(random() < 0.4 ? [vendor] : []),
      verb,
      ...(qualifier ? [qualifier] : []),
      ...noun.split(' '),
    ];
    let name = formatName(random, nameWords);
    if (used.has(name.toLowerCase())) name = `${vendor}_${name}`;
    let suffix = 2;
    const base = name;
    while (used.has(name.toLowerCase())) name = `${base}_v${suffix++}`;
    used.add(name.toLowerCase());

    const productWord = pick(random, products);
    const product = `${capitalise(productWord)} ${capitalise(domain.name)}`;
    const sentences = [
      `${verbs} the ${qualifier ? `${qualifier} ` : ''}${random() < 0.5 ? plural(noun) : noun} ${pick(random, PURPOSES)} in ${product}.`,
    ];
    if (random() < 0.6) sentences.push(pick(random, EXTRA_SENTENCES));
    if (random() < 0.3) sentences.push(`See the ${vendor} documentation for ${domain.name} limits.`);

    const properties: Record<string, JsonSchema> = {};
    const parameterCount = 1 + Math.floor(random() * 4);
    for (let index = 0; index < parameterCount; index++) {
      const [parameter, description] =
        random() < 0.75 ? pick(random, domain.parameters) : pick(random, GENERIC_PARAMETERS);
      properties[parameter] = { type: 'string', description };
    }
    if (random() < 0.2) {
      properties.options = {
        type: 'object',
        description: `Advanced ${domain.name} options`,
        properties: { [pick(random, domain.parameters)[0]]: { type: 'string', description: 'Override' } },
      };
    }
    tools.push({
      name,
      description: sentences.join(' '),
      parameters: { type: 'object', properties, required: Object.keys(properties).slice(0, 1) },
      ...(random() < 0.3 ? { tags: [domain.name] } : {}),
      domain: domain.name,
      intent: [verb, ...noun.split(' ')],
      product: productWord,
    });
  }
  return tools;
}

const OPENINGS = ['', '', 'can you ', 'please ', 'I need to ', 'help me ', 'could you please '];
const CLOSINGS = ['', '', ' for me', ' please', ' today', ' right now'];

function withTypo(random: Random, word: string): string {
  if (word.length < 5) return word;
  const position = 1 + Math.floor(random() * (word.length - 2));
  return word.slice(0, position) + word.slice(position + 1);
}

export interface SyntheticQuery {
  readonly query: string;
  readonly relevant: readonly string[];
}

/**
 * Requests for tools of a catalog: the tool's intent words in a chatty frame, sometimes with a
 * typo, sometimes two requests joined by "and". For timing (and for a sanity check of quality
 * on a catalog no ranker has seen); the relevant tool is the one the words came from.
 */
export function generateQueries(
  tools: readonly SyntheticTool[],
  options: { count: number; seed?: number },
): SyntheticQuery[] {
  const random = createRandom(options.seed ?? 2);
  const phrase = (tool: SyntheticTool): string =>
    tool.intent.map((word) => (random() < 0.1 ? withTypo(random, word) : word)).join(' ') +
    (random() < 0.3 ? ` in ${capitalise(tool.product)}` : '');
  const queries: SyntheticQuery[] = [];
  for (let index = 0; index < options.count; index++) {
    const first = pick(random, tools);
    if (random() < 0.2) {
      const second = pick(random, tools);
      queries.push({
        query: `${pick(random, OPENINGS)}${phrase(first)} and ${phrase(second)}${pick(random, CLOSINGS)}`,
        relevant: [first.name, second.name],
      });
    } else {
      queries.push({
        query: `${pick(random, OPENINGS)}${phrase(first)}${pick(random, CLOSINGS)}`,
        relevant: [first.name],
      });
    }
  }
  return queries;
}

/**
 * A synthetic catalog and its requests as an eval set (ids `single-<n>` / `multi-<n>`), for a
 * quality check on a catalog no ranker was tuned on.
 */
export function syntheticEvalSet(options: { size: number; queryCount?: number; seed?: number }): {
  name: string;
  tools: SyntheticTool[];
  queries: { id: string; query: string; relevant: readonly string[] }[];
} {
  const seed = options.seed ?? 1;
  const tools = generateCatalog({ size: options.size, seed });
  const queries = generateQueries(tools, { count: options.queryCount ?? 1000, seed: seed + 1 }).map(
    (query, index) => ({
      id: `${query.relevant.length > 1 ? 'multi' : 'single'}-${index}`,
      ...query,
    }),
  );
  return { name: `synthetic-${options.size}`, tools, queries };
}
