import { type Tool, tool } from 'ai';
import { z } from 'zod';

/** The agent's catalog: ordinary AI SDK tools, hidden from the model until it loads them. */
export const catalog: Record<string, Tool> = {
  getWeather: tool({
    description: 'Get the current weather conditions (temperature, wind, humidity) for a city.',
    inputSchema: z.object({ city: z.string().describe('City name, e.g. "Rome"') }),
    execute: async ({ city }) => ({ city, temperatureC: city === 'Oslo' ? 4 : 21, conditions: 'clear' }),
  }),
  getForecast: tool({
    description: 'Get the weather forecast for the next days for a city.',
    inputSchema: z.object({ city: z.string(), days: z.number().int().min(1).max(10).optional() }),
    execute: async ({ city, days }) => ({ city, days: days ?? 3, forecast: ['rain', 'sun', 'sun'] }),
  }),
  send_email: tool({
    description: 'Send an email message to one or more recipients.',
    inputSchema: z.object({ to: z.array(z.string()), subject: z.string(), body: z.string() }),
    execute: async () => ({ sent: true }),
  }),
  convert_currency: tool({
    description: 'Convert an amount of money from one currency to another (euros, dollars, yen).',
    inputSchema: z.object({ amount: z.number(), from: z.string(), to: z.string() }),
    execute: async ({ amount }) => ({ amount: Math.round(amount * 1.08 * 100) / 100 }),
  }),
  create_github_issue: tool({
    description: 'Create a new issue in a GitHub repository.',
    inputSchema: z.object({ repo: z.string(), title: z.string() }),
    execute: async () => ({ number: 42 }),
  }),
};
