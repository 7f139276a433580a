import { createTool } from '@mastra/core/tools';
import { z } from 'zod';

/** What the tools of a test ran, in order. */
export type ExecutionLog = { tool: string; input: unknown }[];

/** A small Mastra catalog (real `createTool` tools); `getWeather`'s id differs from its key. */
export function sampleTools(log: ExecutionLog = []) {
  const record =
    (tool: string, output: unknown) =>
    async (input: unknown): Promise<unknown> => {
      log.push({ tool, input });
      return output;
    };
  return {
    getWeather: createTool({
      id: 'get-weather',
      description: 'Get the current weather (temperature, wind) for a city.',
      inputSchema: z.object({ city: z.string().describe('City name') }),
      execute: record('getWeather', { temperature: 21, unit: 'C' }),
    }),
    sendEmail: createTool({
      id: 'sendEmail',
      description: 'Send an email message to a recipient.',
      inputSchema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
      execute: record('sendEmail', { sent: true }),
    }),
    createIssue: createTool({
      id: 'createIssue',
      description: 'Create a new issue in a GitHub repository.',
      inputSchema: z.object({ repo: z.string(), title: z.string() }),
      execute: record('createIssue', { number: 42 }),
    }),
    premiumReport: createTool({
      id: 'premium_report',
      description: 'Build a premium sales report for a quarter.',
      inputSchema: z.object({ quarter: z.string() }),
      execute: record('premiumReport', { rows: 3 }),
    }),
    translateText: createTool({
      id: 'translateText',
      description: 'Translate text into another language.',
      inputSchema: z.object({ text: z.string(), to: z.string() }),
      execute: record('translateText', { text: 'bonjour' }),
    }),
  };
}
