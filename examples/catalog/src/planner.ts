/**
 * The offline planner: a STAND-IN FOR AN LLM, so that the examples run with no API key and no
 * network. It is not a model and does not try to be clever; it follows the script a model
 * follows with tool search, deterministically:
 *
 * 1. nothing searched yet in this turn → call `search_tools` with the request;
 * 2. results found but not offered → call `load_tool` with the best result (one per clause of a
 *    multi-part request);
 * 3. a chosen tool is offered and not yet called → call it, with arguments built from its JSON
 *    Schema and the request text (`buildToolArguments`);
 * 4. after the results → answer with a short text that summarises them.
 *
 * With autoLoad (no `load_tool` offered) it calls the found tools directly; when the search finds
 * nothing it says so. Each example wraps `planNextStep` in its framework's test-model interface.
 */
import { buildToolArguments } from './build-tool-arguments';
import { exampleToolsByName, type JsonSchemaObject, toJsonSchema } from './catalog';
import { catalogToday } from './fake-data';
import {
  cleanClause,
  contentWords,
  dateMentions,
  emails,
  idTokens,
  nameWords,
  quotedStrings,
  splitClauses,
  stem,
  topicPhrase,
} from './request-text';

/** How the examples label the planner's output. */
export const offlinePlannerLabel = 'offline planner (a stand-in for an LLM: no API key, no network)';

const answerPrefix = '[offline planner] ';

/** The conversation so far, as neutral events (adapters translate their framework's messages). */
export type PlannerEvent =
  | { readonly type: 'user'; readonly text: string }
  | { readonly type: 'assistant'; readonly text: string }
  | {
      readonly type: 'tool-call';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: unknown;
    }
  | {
      readonly type: 'tool-result';
      readonly toolCallId: string;
      readonly toolName: string;
      /** The tool's output: an object, a JSON string or an AI SDK `{ type: 'json', value }` part. */
      readonly output: unknown;
      readonly isError?: boolean;
    };

/** A tool offered to the model this step. */
export interface PlannerTool {
  readonly name: string;
  readonly description?: string;
  /** Its input as JSON Schema (`inputSchema` is read too); looked up in the example catalog when missing. */
  readonly parameters?: JsonSchemaObject;
}

export interface PlannerInput {
  readonly events: readonly PlannerEvent[];
  /** The tools offered this step (what the framework sent to the model), by name or with their schema. */
  readonly tools: readonly (string | PlannerTool)[];
}

export interface PlannerOptions {
  /** Default `'search_tools'`. */
  readonly searchToolName?: string;
  /** Default `'load_tool'`. */
  readonly loadToolName?: string;
  /** "Today" for relative dates (YYYY-MM-DD); default: the catalog's fixed date. */
  readonly today?: string;
  /** The JSON Schema of an offered tool that came without one; default: the example catalog's. */
  readonly resolveSchema?: (toolName: string) => JsonSchemaObject | undefined;
}

export interface PlannedToolCall {
  /** Deterministic and unique within the conversation: `planner-call-1`, `planner-call-2`… */
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
}

export type PlannerAction =
  | { readonly type: 'tool-calls'; readonly calls: readonly PlannedToolCall[] }
  | { readonly type: 'text'; readonly text: string };

/** A search result as the planner reads it from `search_tools`' output. */
interface FoundTool {
  readonly name: string;
  readonly description: string;
}

interface Choice {
  readonly name: string;
  /** The part of the request this tool serves. */
  readonly clause: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Text of a user message given as a string or as content parts. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join(' ');
  if (isRecord(value) && typeof value.text === 'string') return value.text;
  return value === undefined || value === null ? '' : String(value);
}

/** Unwraps JSON strings, AI SDK output parts and text content parts into plain values. */
export function unwrapToolOutput(output: unknown, depth = 0): unknown {
  if (depth > 4) return output;
  if (typeof output === 'string') {
    const trimmed = output.trim();
    if (
      (trimmed.startsWith('{') && trimmed.endsWith('}')) ||
      (trimmed.startsWith('[') && trimmed.endsWith(']'))
    ) {
      try {
        return unwrapToolOutput(JSON.parse(trimmed), depth + 1);
      } catch {
        return output;
      }
    }
    return output;
  }
  if (
    isRecord(output) &&
    typeof output.type === 'string' &&
    'value' in output &&
    Object.keys(output).length <= 3
  ) {
    if (['json', 'text', 'error-json', 'error-text'].includes(output.type))
      return unwrapToolOutput(output.value, depth + 1);
  }
  if (
    Array.isArray(output) &&
    output.length > 0 &&
    output.every((part) => isRecord(part) && part.type === 'text' && typeof part.text === 'string')
  ) {
    return unwrapToolOutput(output.map((part) => (part as { text: string }).text).join(''), depth + 1);
  }
  return output;
}

function isErrorOutput(event: Extract<PlannerEvent, { type: 'tool-result' }>): boolean {
  if (event.isError) return true;
  const raw = event.output;
  if (isRecord(raw) && (raw.type === 'error-text' || raw.type === 'error-json')) return true;
  const output = unwrapToolOutput(raw);
  if (isRecord(output) && ('error' in output || output.isError === true)) return true;
  return typeof output === 'string' && /^(?:error|tool error)\b/i.test(output.trim());
}

function parseSearchOutput(output: unknown): FoundTool[] {
  const value = unwrapToolOutput(output);
  const list = Array.isArray(value)
    ? value
    : isRecord(value) && Array.isArray(value.results)
      ? value.results
      : [];
  const found: FoundTool[] = [];
  for (const entry of list) {
    const name = isRecord(entry) ? entry.name : typeof entry === 'string' ? entry : undefined;
    if (typeof name !== 'string' || name.length === 0) continue;
    const description = isRecord(entry) && typeof entry.description === 'string' ? entry.description : '';
    if (!found.some((tool) => tool.name === name)) found.push({ name, description });
  }
  return found;
}

/** What a request's first word asks for, in the verbs tool names start with. */
const verbSynonyms: Readonly<Record<string, readonly string[]>> = {
  open: ['create', 'open'],
  file: ['create'],
  raise: ['create'],
  add: ['create', 'add', 'append', 'insert'],
  make: ['create'],
  new: ['create'],
  start: ['create', 'start'],
  submit: ['create', 'send'],
  write: ['create', 'append', 'send'],
  draft: ['create'],
  schedule: ['create'],
  set: ['set', 'update', 'create'],
  post: ['send', 'post'],
  tell: ['send'],
  message: ['send'],
  notify: ['send'],
  ping: ['send'],
  say: ['send'],
  email: ['send'],
  mail: ['send'],
  dm: ['send'],
  what: ['get', 'list', 'search'],
  whats: ['get', 'list', 'search'],
  how: ['get', 'calculate'],
  which: ['list', 'search', 'get'],
  who: ['get', 'list'],
  when: ['get'],
  where: ['get', 'search'],
  show: ['get', 'list'],
  display: ['get', 'list'],
  fetch: ['get'],
  read: ['get', 'read'],
  give: ['get'],
  check: ['check', 'get'],
  look: ['search', 'get'],
  lookup: ['search', 'get'],
  find: ['search', 'find', 'list'],
  search: ['search', 'find'],
  reserve: ['book'],
  change: ['update', 'modify'],
  edit: ['update', 'modify'],
  modify: ['modify', 'update'],
  move: ['move', 'transition', 'update'],
  remove: ['delete', 'cancel'],
  trash: ['delete'],
  compute: ['calculate'],
  estimate: ['calculate', 'get'],
  roll: ['rollback'],
  revert: ['rollback'],
  reply: ['reply'],
  respond: ['respond', 'reply'],
};

/** Verbs that many tools start with: on their own they do not tell tools apart. */
const commonVerbs = new Set(
  'get list search find check create update delete send set add read run track cancel modify book make open show remove'.split(
    ' ',
  ),
);

function firstWord(clause: string): string {
  return (cleanClause(clause)
    .toLowerCase()
    .match(/[\p{L}]+/u) ?? [''])[0]!;
}

/** The verbs a clause asks for: its first word and what that word usually means in tool names. */
function requestVerbs(clause: string): Set<string> {
  const word = firstWord(clause);
  return new Set([word, ...(Object.hasOwn(verbSynonyms, word) ? verbSynonyms[word]! : [])]);
}

/** Whether a tool's input has a date field. */
function takesDate(schema: JsonSchemaObject | undefined): boolean {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  return Object.entries(properties).some(
    ([name, property]) =>
      isRecord(property) &&
      (property.format === 'date' || property.format === 'date-time' || /date/i.test(name)),
  );
}

/**
 * The tools to use for a request, as a model reading the search results would pick them: for
 * each part of the request (one part, or one per clause of a multi-part request), the result
 * that best matches that part: 4 when the tool's verb (its name's first word) is the part's
 * verb, 2 per other name word and 1 per description word the part shares (a quarter for words
 * of its topic: "…about failed refunds", quoted text), 2 when the part names a date and the tool
 * takes one (not for a tool about the past when the dates are to come), plus up to 2 for the
 * search rank. A result that shares no word with the part is not chosen for it; each tool is
 * chosen once; when no part matches any result, the top result is chosen.
 */
function chooseTools(
  request: string,
  results: readonly FoundTool[],
  context: {
    readonly today: string;
    readonly schemaOf: (toolName: string) => JsonSchemaObject | undefined;
    /** When no part matches any result: take the top result (search results) or nothing (offered tools). */
    readonly fallbackToTop: boolean;
  },
): Choice[] {
  if (results.length === 0) return [];
  const choices: Choice[] = [];
  for (const clause of splitClauses(request)) {
    // Words that are argument values rather than the capability asked for weigh a quarter.
    const values = [
      topicPhrase(clause) ?? '',
      ...quotedStrings(clause),
      ...emails(clause),
      ...idTokens(clause),
    ];
    const topic = new Set(values.flatMap(contentWords));
    const verbs = requestVerbs(clause);
    const lead = stem(firstWord(clause));
    const words = new Set(contentWords(clause));
    const dates = dateMentions(clause, context.today).dates;
    const future = dates.length > 0 && dates.every((date) => date >= context.today);
    let best: { name: string; score: number } | undefined;
    results.forEach((result, rank) => {
      const [verb = '', ...rest] = nameWords(result.name);
      const nameTokens = new Set(rest.map(stem));
      const descriptionTokens = new Set(contentWords(result.description));
      // The part's first word is its verb: it scores against the tool's verb, or as a name word
      // ("refund …" and create_stripe_refund), never against the description, so that "check the
      // weather" does not match "Check which times…".
      // A lead that is also a verb ("email ana…") counts as a name word only for a tool whose verb it means (send_email).
      const leadIsVerb = Object.hasOwn(verbSynonyms, lead) || commonVerbs.has(lead);
      let overlap = nameTokens.has(lead) && (!leadIsVerb || verbs.has(verb)) ? 4 : 0;
      for (const word of words) {
        if (word === lead) continue;
        const weight = topic.has(word) ? 0.25 : 1;
        overlap += weight * ((nameTokens.has(word) ? 2 : 0) + (descriptionTokens.has(word) ? 1 : 0));
      }
      // A common verb alone ("check the weather" and check_table_availability) is not a match; a
      // rare one is ("convert 500 EUR to USD" and convert_currency).
      if (overlap === 0 && !(verb === firstWord(clause) && !commonVerbs.has(verb))) return;
      const verbBonus = verbs.has(verb) ? 4 : 0;
      const aboutThePast = /\b(?:past|historical|history)\b/i.test(result.description);
      const dateBonus =
        dates.length > 0 && takesDate(context.schemaOf(result.name)) && !(future && aboutThePast) ? 2 : 0;
      const score = overlap + verbBonus + dateBonus + 2 * (1 - rank / results.length);
      if (!best || score > best.score) best = { name: result.name, score };
    });
    if (best && !choices.some((choice) => choice.name === best!.name))
      choices.push({ name: best.name, clause });
  }
  if (choices.length === 0) return context.fallbackToTop ? [{ name: results[0]!.name, clause: request }] : [];
  // A one-part request is served by one tool, with the whole request as its text.
  return choices.length === 1 ? [{ name: choices[0]!.name, clause: request }] : choices;
}

/** A short, readable summary of a tool result (at most about `maxLength` characters). */
export function summariseResult(value: unknown, maxLength = 280): string {
  const output = unwrapToolOutput(value);
  const scalar = (item: unknown) =>
    typeof item === 'string'
      ? item
      : typeof item === 'number' || typeof item === 'boolean' || item === null
        ? String(item)
        : undefined;
  let text: string;
  if (scalar(output) !== undefined) text = scalar(output)!;
  else if (Array.isArray(output)) text = `${output.length} item${output.length === 1 ? '' : 's'}`;
  else if (isRecord(output)) {
    const parts: string[] = [];
    for (const [key, item] of Object.entries(output)) {
      const plain = scalar(item);
      if (plain !== undefined) parts.push(`${key} ${plain}`);
      else if (Array.isArray(item)) {
        const firstItem = item[0];
        const preview = isRecord(firstItem)
          ? Object.entries(firstItem)
              .filter(([, inner]) => scalar(inner) !== undefined)
              .slice(0, 3)
              .map(([innerKey, inner]) => `${innerKey} ${scalar(inner)}`)
              .join(', ')
          : scalar(firstItem);
        parts.push(
          `${key}: ${item.length} item${item.length === 1 ? '' : 's'}${preview ? ` (first: ${preview})` : ''}`,
        );
      } else if (isRecord(item)) {
        const inner = Object.entries(item)
          .filter(([, nested]) => scalar(nested) !== undefined)
          .slice(0, 3)
          .map(([innerKey, nested]) => `${innerKey} ${scalar(nested)}`)
          .join(', ');
        parts.push(`${key} {${inner}}`);
      }
    }
    text = parts.join('; ');
  } else text = String(output);
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

function errorMessage(value: unknown): string {
  const output = unwrapToolOutput(value);
  if (isRecord(output)) {
    const message = output.message ?? output.error;
    if (typeof message === 'string') return message;
    if (isRecord(message) && typeof message.message === 'string') return message.message;
  }
  return summariseResult(output, 200);
}

function schemaProperties(tool: PlannerTool | undefined): Record<string, unknown> {
  return isRecord(tool?.parameters) && isRecord(tool.parameters.properties) ? tool.parameters.properties : {};
}

/**
 * Decides the next step of the conversation: tool calls, or the final text answer.
 * Pure and deterministic: the same input gives the same action.
 */
export function planNextStep(input: PlannerInput, options: PlannerOptions = {}): PlannerAction {
  const searchToolName = options.searchToolName ?? 'search_tools';
  const loadToolName = options.loadToolName ?? 'load_tool';
  const today = options.today ?? catalogToday;
  const resolveSchema =
    options.resolveSchema ??
    ((toolName: string) => {
      const tool = exampleToolsByName.get(toolName);
      return tool ? toJsonSchema(tool) : undefined;
    });

  const events = Array.isArray(input.events) ? input.events.filter(isRecord) : [];
  const offered = new Map<string, PlannerTool>();
  for (const tool of Array.isArray(input.tools) ? input.tools : []) {
    const entry: unknown = typeof tool === 'string' ? { name: tool } : tool;
    if (!isRecord(entry) || typeof entry.name !== 'string') continue;
    const parameters = isRecord(entry.parameters)
      ? entry.parameters
      : isRecord(entry.inputSchema)
        ? entry.inputSchema
        : undefined;
    offered.set(entry.name, {
      name: entry.name,
      ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
      ...(parameters ? { parameters } : {}),
    });
  }

  let userIndex = -1;
  for (let index = events.length - 1; index >= 0; index--) {
    if (events[index]!.type === 'user') {
      userIndex = index;
      break;
    }
  }
  if (userIndex < 0) return { type: 'text', text: `${answerPrefix}There is no request to act on.` };
  const request = textOf((events[userIndex] as { text: unknown }).text).trim();
  const turn = events.slice(userIndex + 1);
  const calls = turn.filter(
    (event): event is Extract<PlannerEvent, { type: 'tool-call' }> => event.type === 'tool-call',
  );
  const results = turn.filter(
    (event): event is Extract<PlannerEvent, { type: 'tool-result' }> => event.type === 'tool-result',
  );
  const resultOf = (call: Extract<PlannerEvent, { type: 'tool-call' }>) =>
    results.find((result) => result.toolCallId === call.toolCallId) ??
    results.filter((result) => result.toolName === call.toolName)[
      calls.filter((other) => other.toolName === call.toolName).indexOf(call)
    ];
  let nextId = events.filter((event) => event.type === 'tool-call').length;
  const call = (toolName: string, toolInput: Record<string, unknown>): PlannedToolCall => ({
    toolCallId: `planner-call-${++nextId}`,
    toolName,
    input: toolInput,
  });
  const schemaOf = (toolName: string) => offered.get(toolName)?.parameters ?? resolveSchema(toolName);
  const argumentsFor = (choice: Choice) =>
    buildToolArguments(schemaOf(choice.name), { text: choice.clause, request, today, toolName: choice.name });
  const isMeta = (name: string) => name === searchToolName || name === loadToolName;

  if (request.length === 0)
    return { type: 'text', text: `${answerPrefix}The request is empty: tell me what you need.` };

  // 1. Search first.
  const searches = calls.filter((event) => event.toolName === searchToolName);
  let choices: Choice[];
  if (searches.length === 0) {
    if (offered.has(searchToolName)) {
      const properties = schemaProperties(offered.get(searchToolName));
      const queryKey =
        'query' in properties || Object.keys(properties).length === 0 ? 'query' : Object.keys(properties)[0]!;
      const searchInput: Record<string, unknown> = {};
      Object.defineProperty(searchInput, queryKey, {
        value: request,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return { type: 'tool-calls', calls: [call(searchToolName, searchInput)] };
    }
    // No search tool: use the offered tools that match the request, if any.
    const direct = [...offered.values()]
      .filter((tool) => !isMeta(tool.name))
      .map((tool) => ({ name: tool.name, description: tool.description ?? '' }));
    choices = chooseTools(request, direct, { today, schemaOf, fallbackToTop: false });
    if (choices.length === 0)
      return { type: 'text', text: `${answerPrefix}No tool is offered that matches "${request}".` };
  } else {
    const searchResult = resultOf(searches[searches.length - 1]!);
    if (!searchResult)
      return { type: 'text', text: `${answerPrefix}The tool search returned nothing to read.` };
    if (isErrorOutput(searchResult)) {
      return {
        type: 'text',
        text: `${answerPrefix}The tool search failed: ${errorMessage(searchResult.output)}`,
      };
    }
    choices = chooseTools(request, parseSearchOutput(searchResult.output), {
      today,
      schemaOf,
      fallbackToTop: true,
    });
    if (choices.length === 0) return { type: 'text', text: `${answerPrefix}No tool matched "${request}".` };
  }

  // 2. Load what is chosen but not offered yet.
  const notOffered = choices.filter((choice) => !offered.has(choice.name));
  const loads = calls.filter((event) => event.toolName === loadToolName);
  if (notOffered.length > 0 && loads.length === 0 && offered.has(loadToolName)) {
    const names = notOffered.map((choice) => choice.name);
    const properties = schemaProperties(offered.get(loadToolName));
    const acceptsList = 'toolNames' in properties || Object.keys(properties).length === 0;
    if (names.length === 1 && ('toolName' in properties || Object.keys(properties).length === 0)) {
      return { type: 'tool-calls', calls: [call(loadToolName, { toolName: names[0] })] };
    }
    if (acceptsList) return { type: 'tool-calls', calls: [call(loadToolName, { toolNames: names })] };
    return { type: 'tool-calls', calls: names.map((name) => call(loadToolName, { toolName: name })) };
  }

  // 3. Call the chosen tools that are offered and not called yet.
  const called = new Set(calls.map((event) => event.toolName));
  const pending = choices.filter((choice) => offered.has(choice.name) && !called.has(choice.name));
  if (pending.length > 0) {
    return { type: 'tool-calls', calls: pending.map((choice) => call(choice.name, argumentsFor(choice))) };
  }

  // 4. Answer with what the tools returned.
  const lines: string[] = [];
  for (const event of calls) {
    if (isMeta(event.toolName)) continue;
    const result = resultOf(event);
    if (!result) lines.push(`${event.toolName} returned nothing.`);
    else if (isErrorOutput(result)) lines.push(`${event.toolName} failed: ${errorMessage(result.output)}`);
    else lines.push(`${event.toolName} → ${summariseResult(result.output)}`);
  }
  const unavailable = choices
    .filter((choice) => !offered.has(choice.name) && !called.has(choice.name))
    .map((choice) => choice.name);
  if (unavailable.length > 0) {
    const loadResult = loads.length > 0 ? resultOf(loads[loads.length - 1]!) : undefined;
    const reason = loadResult ? ` (${errorMessage(loadResult.output)})` : '';
    lines.push(`Could not use ${unavailable.join(', ')}: not available to call${reason}.`);
  }
  if (lines.length === 0) lines.push('Nothing to report.');
  return { type: 'text', text: `${answerPrefix}${lines.join('\n')}` };
}
