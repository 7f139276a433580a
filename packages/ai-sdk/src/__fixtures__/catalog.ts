import { type Tool, tool } from 'ai';
import { z } from 'zod';

/**
 * A small catalog of real AI SDK tools (Zod schemas, executes), plus a log of the
 * calls that actually ran, so a test can tell a tool that ran from one that did not.
 */
export type CatalogToolName =
  | 'getWeather'
  | 'getForecast'
  | 'send_email'
  | 'create_github_issue'
  | 'convert_currency';

export function createCatalog(): {
  tools: Record<CatalogToolName, Tool>;
  getTime: Tool;
  ran: Array<{ toolName: string; input: unknown }>;
} {
  const ran: Array<{ toolName: string; input: unknown }> = [];
  const record = (toolName: string, input: unknown) => {
    ran.push({ toolName, input });
  };
  const tools = {
    getWeather: tool({
      description: 'Get the current weather conditions (temperature, wind, humidity) for a city.',
      inputSchema: z.object({ city: z.string().describe('City name, e.g. "Rome"') }),
      execute: async ({ city }) => {
        record('getWeather', { city });
        return { city, temperature: 21, conditions: 'sunny' };
      },
    }),
    getForecast: tool({
      description: 'Get the weather forecast for the next days for a city.',
      inputSchema: z.object({ city: z.string(), days: z.number().optional() }),
      execute: async ({ city, days }) => {
        record('getForecast', { city, days });
        return { city, days: days ?? 3, forecast: ['rain', 'sun', 'sun'] };
      },
    }),
    send_email: tool({
      description: 'Send an email message to one or more recipients.',
      inputSchema: z.object({ to: z.array(z.string()), subject: z.string(), body: z.string() }),
      execute: async (input) => {
        record('send_email', input);
        return { sent: true };
      },
    }),
    create_github_issue: tool({
      description: 'Create a new issue in a GitHub repository.',
      inputSchema: z.object({ repo: z.string(), title: z.string() }),
      execute: async (input) => {
        record('create_github_issue', input);
        return { number: 42 };
      },
    }),
    convert_currency: tool({
      description: 'Convert an amount of money from one currency to another (euros, dollars, yen).',
      inputSchema: z.object({ amount: z.number(), from: z.string(), to: z.string() }),
      execute: async (input) => {
        record('convert_currency', input);
        return { amount: input.amount * 1.1 };
      },
    }),
  };
  const getTime = tool({
    description: 'The current time.',
    inputSchema: z.object({}),
    execute: async () => {
      record('getTime', {});
      return { time: '12:00' };
    },
  });
  return { tools, getTime, ran };
}
