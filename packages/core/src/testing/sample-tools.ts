import type { CatalogEntry, ToolDescriptor } from '../types';

/** A dozen realistic tool descriptors across several domains (some alike, as in real MCP servers). */
export const sampleTools: readonly ToolDescriptor[] = [
  {
    name: 'getWeather',
    description: 'Get the current weather conditions (temperature, wind, humidity) for a city.',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', description: 'City name, e.g. "Rome"' } },
      required: ['city'],
    },
    tags: ['weather'],
  },
  {
    name: 'getForecast',
    description: 'Get the weather forecast for the next days for a city.',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        days: { type: 'number', description: 'Number of days, 1 to 10' },
      },
      required: ['city'],
    },
    tags: ['weather'],
  },
  {
    name: 'send_email',
    description: 'Send an email message to one or more recipients.',
    parameters: {
      type: 'object',
      properties: {
        to: { type: 'array', items: { type: 'string' }, description: 'Recipient addresses' },
        subject: { type: 'string' },
        body: { type: 'string' },
      },
      required: ['to', 'subject', 'body'],
    },
    tags: ['mail'],
  },
  {
    name: 'search_emails',
    description: 'Search the mailbox for emails matching a query, sender or date range.',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    tags: ['mail'],
  },
  {
    name: 'create_github_issue',
    description: 'Create a new issue in a GitHub repository.',
    parameters: {
      type: 'object',
      properties: {
        repo: { type: 'string', description: 'owner/name' },
        title: { type: 'string' },
        body: { type: 'string' },
      },
      required: ['repo', 'title'],
    },
    tags: ['code-hosting'],
  },
  {
    name: 'list_github_prs',
    description: 'List open pull requests of a GitHub repository.',
    parameters: { type: 'object', properties: { repo: { type: 'string' } }, required: ['repo'] },
    tags: ['code-hosting'],
  },
  {
    name: 'create_calendar_event',
    description: 'Schedule a meeting or event in the calendar with title, start time and attendees.',
    parameters: {
      type: 'object',
      properties: {
        title: { type: 'string' },
        start: { type: 'string', description: 'ISO date-time' },
        attendees: { type: 'array', items: { type: 'string' } },
      },
      required: ['title', 'start'],
    },
    tags: ['calendar'],
  },
  {
    name: 'convert_currency',
    description: 'Convert an amount of money from one currency to another at the current exchange rate.',
    parameters: {
      type: 'object',
      properties: {
        amount: { type: 'number' },
        from: { type: 'string', description: 'ISO currency code, e.g. EUR' },
        to: { type: 'string', description: 'ISO currency code, e.g. USD' },
      },
      required: ['amount', 'from', 'to'],
    },
    tags: ['finance'],
  },
  {
    name: 'refund_payment',
    description: 'Refund a payment, fully or partly, to the customer who made it.',
    parameters: {
      type: 'object',
      properties: { paymentId: { type: 'string' }, amount: { type: 'number' } },
      required: ['paymentId'],
    },
    tags: ['payments'],
  },
  {
    name: 'search_flights',
    description: 'Search flights between two airports on a date.',
    parameters: {
      type: 'object',
      properties: {
        from: { type: 'string', description: 'Departure airport code' },
        to: { type: 'string', description: 'Arrival airport code' },
        date: { type: 'string' },
      },
      required: ['from', 'to', 'date'],
    },
    tags: ['travel'],
  },
  {
    name: 'query_database',
    description: 'Run a read-only SQL query against the analytics database and return the rows.',
    parameters: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] },
    tags: ['database'],
  },
  {
    name: 'upload_file',
    description: 'Upload a file to cloud storage and return its shareable link.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, folder: { type: 'string' } },
      required: ['path'],
    },
    tags: ['files'],
  },
];

/** The sample tools as catalog entries whose tool object is `{ name }` (for engine tests). */
export function sampleCatalog(): CatalogEntry<{ readonly name: string }>[] {
  return sampleTools.map((descriptor) => ({ descriptor, tool: { name: descriptor.name } }));
}
