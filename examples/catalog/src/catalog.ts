import { z } from 'zod';
import type { ExampleTool } from './define-tool';
import { analyticsTools } from './domains/analytics';
import { calendarTools } from './domains/calendar';
import { chatTools } from './domains/chat';
import { codeHostingTools } from './domains/code-hosting';
import { crmTools } from './domains/crm';
import { databasesTools } from './domains/databases';
import { devopsTools } from './domains/devops';
import { filesTools } from './domains/files';
import { financeTools } from './domains/finance';
import { flightsTools } from './domains/flights';
import { hotelsTools } from './domains/hotels';
import { issueTrackingTools } from './domains/issue-tracking';
import { mailTools } from './domains/mail';
import { mapsTools } from './domains/maps';
import { notesTools } from './domains/notes';
import { paymentsTools } from './domains/payments';
import { restaurantsTools } from './domains/restaurants';
import { weatherTools } from './domains/weather';

/** A JSON Schema object, as sent to a model for a tool's input. */
export type JsonSchemaObject = { readonly [key: string]: unknown };

/** One domain of the catalog, like one vendor's MCP server. */
export interface ExampleDomain {
  /** Kebab-case id; also the first tag of each of its tools. */
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly tools: readonly ExampleTool[];
}

/** The shape `@tool-search/core` indexes (`ToolDescriptor`), written out here so the catalog needs no core. */
export interface ExampleToolDescriptor {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchemaObject;
  readonly tags: readonly string[];
}

const domain = (
  id: string,
  title: string,
  description: string,
  tools: readonly ExampleTool[],
): ExampleDomain => ({
  id,
  title,
  description,
  tools,
});

/** The domains in catalog order. */
export const domains: readonly ExampleDomain[] = [
  domain(
    'code-hosting',
    'Code hosting',
    'GitHub repositories, pull requests, issues, branches and Actions.',
    codeHostingTools,
  ),
  domain('chat', 'Chat', 'Slack, Discord and Microsoft Teams messages and channels.', chatTools),
  domain(
    'issue-tracking',
    'Issue tracking',
    'Jira and Linear issues, sprints and comments.',
    issueTrackingTools,
  ),
  domain('calendar', 'Calendar', 'Events, invitations and free/busy scheduling.', calendarTools),
  domain('mail', 'Mail', 'Sending, reading and organising email.', mailTools),
  domain('files', 'Files', 'Google Drive files, Docs and Sheets.', filesTools),
  domain(
    'databases',
    'Databases',
    'PostgreSQL, MongoDB and Redis queries and administration.',
    databasesTools,
  ),
  domain(
    'payments',
    'Payments',
    'Stripe customers, charges, refunds, invoices and subscriptions.',
    paymentsTools,
  ),
  domain('flights', 'Flights', 'Flight search, booking, status, check-in and seats.', flightsTools),
  domain('hotels', 'Hotels', 'Hotel search, availability, booking and reviews.', hotelsTools),
  domain(
    'restaurants',
    'Restaurants',
    'Restaurant search, menus, table bookings and waitlists.',
    restaurantsTools,
  ),
  domain('weather', 'Weather', 'Current weather, forecasts, alerts and air quality.', weatherTools),
  domain('maps', 'Maps', 'Geocoding, directions, travel times and nearby places.', mapsTools),
  domain(
    'analytics',
    'Analytics',
    'Web analytics reports, funnels, retention and dashboards.',
    analyticsTools,
  ),
  domain('crm', 'CRM', 'Contacts, companies, deals, activities and sales tasks.', crmTools),
  domain(
    'finance',
    'Finance',
    'Currency conversion, exchange rates, stocks, crypto and calculators.',
    financeTools,
  ),
  domain('notes', 'Notes', 'Notion pages and databases, and quick notes.', notesTools),
  domain('devops', 'DevOps', 'Deployments, logs, metrics, alerts and incidents.', devopsTools),
];

/** Every tool of the catalog (224), domain by domain. */
export const exampleTools: readonly ExampleTool[] = domains.flatMap((entry) => entry.tools);

/** The catalog keyed by tool name. */
export const exampleToolsByName: ReadonlyMap<string, ExampleTool> = new Map(
  exampleTools.map((tool) => [tool.name, tool]),
);

/** Adds `additionalProperties: false` to every object schema that does not say otherwise (as the AI SDK does). */
function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = closeObjects(value);
  if (out.type === 'object' && out.properties !== undefined && out.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  return out;
}

const schemaCache = new WeakMap<ExampleTool, JsonSchemaObject>();

/**
 * The tool's input as JSON Schema, converted with `z.toJSONSchema` the way the AI SDK sends it
 * (draft-07, input side, objects closed). Cached per tool; treat the result as read-only.
 */
export function toJsonSchema(tool: ExampleTool): JsonSchemaObject {
  let schema = schemaCache.get(tool);
  if (!schema) {
    schema = closeObjects(
      z.toJSONSchema(tool.input, { target: 'draft-7', io: 'input', reused: 'inline' }),
    ) as JsonSchemaObject;
    schemaCache.set(tool, schema);
  }
  return schema;
}

/** The tool as a search descriptor: `{ name, description, parameters, tags }` (core's `ToolDescriptor`). */
export function toToolDescriptor(tool: ExampleTool): ExampleToolDescriptor {
  return { name: tool.name, description: tool.description, parameters: toJsonSchema(tool), tags: tool.tags };
}

/**
 * Validates raw arguments with the tool's zod schema, then runs its executor. Throws the
 * `ZodError` on invalid arguments (the frameworks validate before `execute` themselves, so
 * adapters may call `tool.execute` directly).
 */
export function runExampleTool(tool: ExampleTool, args: unknown): unknown {
  return tool.execute(tool.input.parse(args));
}

/** What a catalog tool reports when it runs (for the trace: `TraceRecorder.recordCall`). */
export type ToolRunListener = (run: {
  toolName: string;
  input: unknown;
  output?: unknown;
  error?: unknown;
}) => void;

/** {@link runExampleTool}, reporting the run (its output or its error) to `onRun`: the body of every example's tool wrapper. */
export function runExampleToolReported(tool: ExampleTool, input: unknown, onRun: ToolRunListener): unknown {
  try {
    const output = runExampleTool(tool, input);
    onRun({ toolName: tool.name, input, output });
    return output;
  } catch (error) {
    onRun({ toolName: tool.name, input, error });
    throw error;
  }
}
