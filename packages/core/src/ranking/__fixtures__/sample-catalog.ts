import type { ToolDescriptor } from '../../types';

const text = (description: string) => ({ type: 'string', description });

/** A small catalog of realistic tools with deliberate near-misses for each ranking behaviour. */
export const sampleCatalog: readonly ToolDescriptor[] = [
  {
    name: 'getWeather',
    description: 'Current weather conditions for a city: temperature, wind and humidity.',
    parameters: { type: 'object', properties: { city: text('City name') }, required: ['city'] },
    tags: ['weather'],
  },
  {
    name: 'get_weather_forecast',
    description: 'Weather forecast for the next days in a city.',
    parameters: { type: 'object', properties: { city: text('City name'), days: { type: 'integer' } } },
  },
  {
    name: 'salesForecast',
    description: 'Forecast next quarter sales revenue from past orders.',
    parameters: { type: 'object', properties: { quarter: text('Quarter, e.g. 2025-Q1') } },
  },
  {
    name: 'search_flights',
    description: 'Search flights between two airports on a date.',
    parameters: {
      type: 'object',
      properties: { origin: text('Departure airport'), destination: text('Arrival airport') },
    },
  },
  { name: 'bookFlight', description: 'Book a seat on a flight found by search.' },
  { name: 'getFlightStatus', description: 'Live status of a flight: delays, gate and terminal.' },
  { name: 'cancelFlightBooking', description: 'Cancel a flight booking and request a refund.' },
  { name: 'listFlightDeals', description: 'Cheap flight deals from an airport.' },
  {
    name: 'convertCurrency',
    description: 'Convert an amount of money from one currency to another at the current exchange rate.',
    parameters: {
      type: 'object',
      properties: {
        amount: { type: 'number' },
        from: text('Currency code, e.g. EUR'),
        to: text('Currency code, e.g. USD'),
      },
    },
  },
  { name: 'createTicket', description: 'Open a support ticket for a customer problem.' },
  { name: 'searchDocuments', description: 'Full-text search over the company documents.' },
  { name: 'list_github_prs', description: 'List pull requests of a GitHub repository.' },
  { name: 'listGithubIssues', description: 'List issues of a GitHub repository.' },
  { name: 'helpCenterArticles', description: 'Articles of the help center.' },
  {
    name: 'sendEmail',
    description: 'Send an email message.',
    parameters: {
      type: 'object',
      properties: {
        message: {
          type: 'object',
          properties: {
            recipient: text('Address of the person who receives it'),
            attachment: text('File to attach'),
          },
        },
      },
    },
  },
  { name: 'archiveRecords', description: 'Archive old records.', tags: ['compliance'] },
  { name: 'buscarVuelos', description: 'Busca vuelos baratos entre dos ciudades.' },
  { name: 'cityWeatherCn', description: '查询城市天气预报' },
  { name: 'translateText', description: 'Translate text between languages.' },
];
