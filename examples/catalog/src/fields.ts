import { z } from 'zod';

/**
 * Field builders the domains share, so that "a date", "a city" or "a page size" look the same in
 * every tool (as they would across one vendor's MCP server). Each takes the field's description.
 */
export const fields = {
  city: (description = 'City name, e.g. "Lisbon"') => z.string().min(1).max(100).describe(description),
  date: (description = 'Date as YYYY-MM-DD') => z.iso.date().describe(description),
  time: (description = 'Local time as HH:MM (24-hour)') => z.iso.time().describe(description),
  dateTime: (description = 'Date and time in ISO 8601 UTC, e.g. 2025-06-17T09:00:00Z') =>
    z.iso.datetime().describe(description),
  email: (description = 'Email address') => z.email().describe(description),
  currency: (description = 'ISO 4217 currency code, e.g. "EUR"') =>
    z
      .string()
      .regex(/^[A-Z]{3}$/)
      .describe(description),
  limit: (maximum = 100, fallback = 10) =>
    z.number().int().min(1).max(maximum).default(fallback).describe('Maximum number of results to return'),
  cursor: () => z.string().optional().describe('Pagination cursor returned by a previous call'),
  text: (description: string, maximum = 5000) => z.string().min(1).max(maximum).describe(description),
  id: (description: string) => z.string().min(1).max(100).describe(description),
};
