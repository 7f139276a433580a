/**
 * The trace every example prints: per model step, the tools the model was sent, what it searched,
 * loaded and called; per request, the tokens of the tool definitions sent with tool search against
 * sending the whole catalog on every model call, and everything else tool search added to the
 * prompts. Fed by the engine's events (`step`, `search`, `load`, `deny`, through the adapter's
 * `onEvent`), by the examples' tool wrappers (`recordCall`) and by the messages each model call was
 * given (`recordPrompt`), so it reads the same for an offline planner and for a real model.
 */
import type { RankerFactory } from '@tool-search/core';
import { exampleToolsByName, toToolDescriptor } from './catalog';
import { summariseResult } from './planner';
import {
  countPromptTokens,
  type OpenAIChatMessage,
  type OpenAIChatToolCall,
  type PromptTokens,
  searchToolNames,
} from './prompt-tokens';
import {
  countExampleCatalogTokens,
  countTextTokens,
  countToolDefinitionTokens,
  type ToolDefinitionForTokens,
} from './tokens';

/** An engine event as the trace reads it: `@tool-search/core`'s `ToolSearchEvent` fits. */
export interface TraceEvent {
  readonly type: string;
  readonly threadId?: string;
}

export interface TraceSearch {
  readonly query: string;
  readonly results: readonly { readonly name: string; readonly score: number }[];
}

export interface TraceLoad {
  readonly loaded: readonly string[];
  readonly alreadyLoaded: readonly string[];
  readonly notFound: readonly string[];
  /** Loaded by the search itself (`autoLoad`). */
  readonly auto: boolean;
}

export interface TraceCall {
  readonly toolName: string;
  readonly input: unknown;
  /** A short summary of what the tool returned. */
  readonly result?: string;
  readonly error?: string;
}

export interface TraceStep {
  /** 1-based model call number within the request. */
  readonly index: number;
  /** The tool names sent to the model for this call, in order. */
  readonly sent: readonly string[];
  /** Tokens of those tool definitions. */
  readonly sentTokens: number;
  readonly searches: readonly TraceSearch[];
  readonly loads: readonly TraceLoad[];
  /** Catalog (and always-on) tools the model called in this step. */
  readonly calls: readonly TraceCall[];
  /** Calls the guard refused (a tool not loaded, filtered or unknown). */
  readonly denied: readonly { readonly toolName: string; readonly reason: string }[];
  /** The model's text answer, on the step that ended the request. */
  readonly answer?: string;
  /** Tokens of the messages this model call was given (absent when they were not captured). */
  readonly prompt?: PromptTokens;
}

export interface TokenFigures {
  /** Model calls made with tool search. */
  readonly modelCalls: number;
  /** Tokens of the tool definitions sent over those calls, plus tool search's system-prompt paragraph on each. */
  readonly withToolSearch: number;
  /** Tokens of tool search's system-prompt paragraph (counted in `withToolSearch` once per call). */
  readonly instructionsPerCall: number;
  /** Tokens of the whole catalog's definitions: what every model call costs without tool search. */
  readonly wholeCatalogPerCall: number;
  /** Model calls a run without tool search needs: this run's, less those that only searched or loaded. */
  readonly modelCallsWithoutSearch: number;
  /** `wholeCatalogPerCall × modelCallsWithoutSearch`. */
  readonly wholeCatalog: number;
  /**
   * Every prompt token tool search added, computed from the messages each model call was given:
   * set against `wholeCatalog` as `withToolSearch` is. Absent when a model call's messages were not
   * captured.
   */
  readonly allAdded?: AddedTokens;
}

/**
 * What the prompts of a run with tool search hold that a run without it does not (the whole
 * catalog's definitions aside): per model call, the tool definitions sent, tool search's paragraph
 * as found in the system messages, the `search_tools` / `load_tool` calls and results in the
 * conversation; and the rest of the messages of the calls that only searched or loaded, which a run
 * without tool search does not make. Messages are counted as JSON in OpenAI's chat-completions format.
 */
export interface AddedTokens {
  /** `definitions + instructions + searchMessages + extraCallMessages`. */
  readonly total: number;
  /** Tokens of the tool definitions sent, over every model call (as in `withToolSearch`). */
  readonly definitions: number;
  /** Tokens of tool search's paragraph in the system messages, over every model call. */
  readonly instructions: number;
  /** Tokens of the meta-tools' calls and results in the messages, over every model call. */
  readonly searchMessages: number;
  /** The other messages (system and user prompt, earlier tool calls and results) of the model calls that only searched or loaded. */
  readonly extraCallMessages: number;
  /** Model calls that only searched or loaded: `modelCalls - modelCallsWithoutSearch`. */
  readonly extraCalls: number;
}

export interface RequestTrace {
  readonly request: string;
  /** `'Mastra'`, `'AI SDK'`, `'LangChain'`. */
  readonly framework: string;
  /** The model's label, e.g. the offline planner's or `openai gpt-5-mini`. */
  readonly model: string;
  readonly threadId: string;
  readonly steps: readonly TraceStep[];
  readonly answer: string;
  /** The catalog tools called, in call order (meta-tools not included). */
  readonly toolsCalled: readonly string[];
  readonly tokens: TokenFigures;
  readonly durationMs?: number;
}

/** The options of each example agent's factory; `Model` is what its framework takes as a model. */
export interface ExampleAgentOptions<Model> {
  /** `'auto'` (default): a real model when `OPENAI_API_KEY` or `ANTHROPIC_API_KEY` is set, else the offline planner. */
  readonly model?: Model;
  /** Replaces the keyword ranker (for example the hybrid ranker). */
  readonly ranker?: RankerFactory;
  /** Model calls per request (default 10). */
  readonly maxSteps?: number;
}

/** What each example agent exports: one agent over the example catalog, asked one request at a time. */
export interface ExampleAgent {
  /** `'Mastra'`, `'AI SDK'`, `'LangChain'`. */
  readonly framework: string;
  /** The model's label (the offline planner's, or the provider and model id). */
  readonly model: string;
  /** True when the model is the offline planner (a stand-in for an LLM). */
  readonly offline: boolean;
  /** Runs one request to its answer (a new thread unless `threadId` is given) and returns its trace. */
  ask(request: string, options?: { readonly threadId?: string }): Promise<RequestTrace>;
  dispose(): Promise<void>;
}

export interface TraceRecorderOptions {
  readonly request: string;
  readonly framework: string;
  readonly model: string;
  /** Events of other threads are ignored. Default: every event is recorded. */
  readonly threadId?: string;
  /** Definitions of tools that are not in the example catalog: the meta-tools, always-on tools. */
  readonly definitions?: readonly ToolDefinitionForTokens[];
  /** Tool search's system-prompt paragraph, sent with every model call. */
  readonly instructions?: string;
}

export interface TraceRecorder {
  /** Pass every engine event here (the adapter's `onEvent`). */
  onEvent(event: TraceEvent): void;
  /** A catalog tool ran (from the example's tool wrapper). */
  recordCall(call: { toolName: string; input: unknown; output?: unknown; error?: unknown }): void;
  /**
   * The messages the model was given for the current model call, in OpenAI's chat-completions
   * format (from a model middleware or callback). A second record for the same call replaces the first.
   */
  recordPrompt(messages: readonly OpenAIChatMessage[]): void;
  /** Ends the trace with the model's final answer. */
  finish(result: { answer: string; durationMs?: number }): RequestTrace;
}

interface MutableStep {
  index: number;
  sent: readonly string[];
  sentTokens: number;
  searches: TraceSearch[];
  loads: TraceLoad[];
  calls: TraceCall[];
  denied: { toolName: string; reason: string }[];
  answer?: string;
  prompt?: PromptTokens;
}

const metaToolNames = new Set(searchToolNames);

let wholeCatalogTokens: number | undefined;

/** Tokens of the whole example catalog's definitions (counted once per process). */
export function wholeCatalogTokensPerCall(): number {
  wholeCatalogTokens ??= countExampleCatalogTokens();
  return wholeCatalogTokens;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
const asStrings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return summariseResult(error, 200);
}

function sameJson(left: unknown, right: unknown): boolean {
  try {
    return JSON.stringify(left) === JSON.stringify(right);
  } catch {
    return false;
  }
}

/** A tool call's arguments as the model wrote them: the JSON parsed, else the text. */
export function parseArguments(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** What the model was told of a tool call that did not run: its tool message's text, or an error object's message. */
function toolResultText(content: unknown): string {
  let value = content;
  if (Array.isArray(value)) {
    value = value
      .map((part) => (typeof asRecord(part).text === 'string' ? asRecord(part).text : ''))
      .join(' ');
  }
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      // Plain text.
    }
  }
  // An error object (Mastra's `{ error: true, message }`), or the AI SDK's `{ error: "…" }`.
  const fields = asRecord(value);
  if (typeof fields.message === 'string') value = fields.message;
  else if (typeof fields.error === 'string') value = fields.error;
  const text = typeof value === 'string' ? value : value === undefined ? '' : summariseResult(value, 200);
  return oneLine(text, 300).trim();
}

/** A step a run without tool search would make too: it called a tool, answered, or had a call refused. */
const isNeededWithoutSearch = (step: MutableStep) =>
  step.calls.length > 0 || step.answer !== undefined || step.denied.length > 0;

/**
 * What tool search added to the prompts, from each model call's messages: on every call the
 * definitions sent, its paragraph and the meta-tools' calls and results; on a call that only
 * searched or loaded, all of its other messages too. None when any call's messages were not captured.
 */
function allAddedTokens(steps: readonly MutableStep[], extraCalls: number): { allAdded?: AddedTokens } {
  if (steps.length === 0 || steps.some((step) => step.prompt === undefined)) return {};
  // As in `modelCallsWithoutSearch` (at least one call): with none needed, the last call is.
  const needed = steps.map(isNeededWithoutSearch);
  if (!needed.includes(true)) needed[needed.length - 1] = true;
  let definitions = 0;
  let instructions = 0;
  let searchMessages = 0;
  let extraCallMessages = 0;
  for (const [index, step] of steps.entries()) {
    const prompt = step.prompt!;
    definitions += step.sentTokens;
    instructions += prompt.instructions;
    searchMessages += prompt.searchMessages;
    if (!needed[index]) extraCallMessages += prompt.messages - prompt.searchMessages - prompt.instructions;
  }
  return {
    allAdded: {
      total: definitions + instructions + searchMessages + extraCallMessages,
      definitions,
      instructions,
      searchMessages,
      extraCallMessages,
      extraCalls,
    },
  };
}

/** Records one request's trace. Create one per request; it is not reused. */
export function createTraceRecorder(options: TraceRecorderOptions): TraceRecorder {
  const definitions = new Map((options.definitions ?? []).map((definition) => [definition.name, definition]));
  const definitionOf = (name: string): ToolDefinitionForTokens => {
    const own = definitions.get(name);
    if (own) return own;
    const tool = exampleToolsByName.get(name);
    return tool ? toToolDescriptor(tool) : { name };
  };
  const instructionsPerCall = options.instructions ? countTextTokens(options.instructions) : 0;
  const steps: MutableStep[] = [];
  const current = (): MutableStep => {
    let step = steps.at(-1);
    if (!step) {
      // A call before any step event (should not happen): keep it, with an unknown tool list.
      step = { index: 1, sent: [], sentTokens: 0, searches: [], loads: [], calls: [], denied: [] };
      steps.push(step);
    }
    return step;
  };
  let finished: RequestTrace | undefined;
  // Tool calls already seen in a model call's messages: each is looked at once, in the first
  // call whose messages hold it (the call after the one that made it).
  const seenToolCalls = new Set<string>();

  /**
   * The catalog tool calls that the previous model call made and that never ran: the framework
   * refused their input before the tool's executor (arguments the schema rejects), so no
   * `recordCall` came. Read off this call's messages (the previous call's tool calls and their
   * results), each is added to the previous step as a failed call with what the model was told.
   * (A call in a run's last step has no next call to show it.)
   */
  function recordCallsThatNeverRan(messages: readonly OpenAIChatMessage[]): void {
    const results = new Map<string, unknown>();
    for (const message of messages) {
      if (message.role === 'tool' && typeof message.tool_call_id === 'string')
        results.set(message.tool_call_id, message.content);
    }
    const fresh: OpenAIChatToolCall[] = [];
    for (const message of messages) {
      if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
      for (const call of message.tool_calls as readonly OpenAIChatToolCall[]) {
        const id = typeof call?.id === 'string' ? call.id : undefined;
        if (id === undefined || seenToolCalls.has(id)) continue;
        seenToolCalls.add(id);
        if (exampleToolsByName.has(call.function?.name)) fresh.push(call);
      }
    }
    // On the first model call the messages hold only what came before this request.
    const previous = steps.length >= 2 ? steps.at(-2)! : undefined;
    if (!previous || fresh.length === 0) return;
    for (const name of new Set(fresh.map((call) => call.function.name))) {
      // The calls made of this tool, less those the trace has: a call that ran is matched by its
      // input where it is the same, the rest (and the refused ones) in order.
      const made = fresh
        .filter((call) => call.function.name === name)
        .map((call) => ({ call, input: parseArguments(call.function.arguments) }));
      const ran = previous.calls.filter((call) => call.toolName === name);
      let unmatched = ran.length + previous.denied.filter((denied) => denied.toolName === name).length;
      for (const { input } of ran) {
        const same = made.findIndex((entry) => sameJson(entry.input, input));
        if (same === -1) continue;
        made.splice(same, 1);
        unmatched--;
      }
      for (const { call, input } of made.slice(unmatched)) {
        previous.calls.push({
          toolName: name,
          input,
          error: toolResultText(results.get(call.id)) || 'the tool did not run',
        });
      }
    }
  }

  return {
    onEvent(event) {
      if (finished) return;
      if (options.threadId !== undefined && event.threadId !== options.threadId) return;
      const fields = asRecord(event);
      switch (event.type) {
        case 'step': {
          const sent = asStrings(fields.visible);
          steps.push({
            index: steps.length + 1,
            sent,
            sentTokens: countToolDefinitionTokens(sent.map(definitionOf)),
            searches: [],
            loads: [],
            calls: [],
            denied: [],
          });
          break;
        }
        case 'search':
          current().searches.push({
            query: String(fields.query ?? ''),
            results: (Array.isArray(fields.results) ? fields.results : []).map((result) => ({
              name: String(asRecord(result).name),
              score: Number(asRecord(result).score ?? 0),
            })),
          });
          break;
        case 'load':
          current().loads.push({
            loaded: asStrings(fields.loaded),
            alreadyLoaded: asStrings(fields.alreadyLoaded),
            notFound: asStrings(fields.notFound),
            auto: fields.auto === true,
          });
          break;
        case 'deny':
          current().denied.push({ toolName: String(fields.toolName), reason: String(fields.reason) });
          break;
        default:
          break;
      }
    },
    recordCall(call) {
      if (finished) return;
      current().calls.push({
        toolName: call.toolName,
        input: call.input,
        ...(call.error !== undefined
          ? { error: errorText(call.error) }
          : { result: summariseResult(call.output, 160) }),
      });
    },
    recordPrompt(messages) {
      if (finished) return;
      recordCallsThatNeverRan(messages);
      current().prompt = countPromptTokens(messages, {
        ...(options.instructions ? { instructions: options.instructions } : {}),
      });
    },
    finish(result) {
      if (finished) return finished;
      const last = steps.at(-1);
      if (last && result.answer.length > 0) last.answer = result.answer;
      const toolsCalled = steps.flatMap((step) => step.calls.map((call) => call.toolName));
      const perCall = wholeCatalogTokensPerCall();
      // Without tool search, the steps that only searched or loaded would not happen.
      const withoutSearch = steps.filter(isNeededWithoutSearch).length;
      const modelCallsWithoutSearch = Math.max(1, withoutSearch);
      finished = {
        request: options.request,
        framework: options.framework,
        model: options.model,
        threadId: options.threadId ?? '',
        steps: steps.map((step) => ({ ...step })),
        answer: result.answer,
        toolsCalled,
        tokens: {
          modelCalls: steps.length,
          withToolSearch: steps.reduce((total, step) => total + step.sentTokens + instructionsPerCall, 0),
          instructionsPerCall,
          wholeCatalogPerCall: perCall,
          modelCallsWithoutSearch,
          wholeCatalog: perCall * modelCallsWithoutSearch,
          ...allAddedTokens(steps, steps.length - modelCallsWithoutSearch),
        },
        ...(result.durationMs !== undefined ? { durationMs: result.durationMs } : {}),
      };
      return finished;
    },
  };
}

// ---------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------

export interface RenderTraceOptions {
  /** ANSI colours (default false). */
  readonly color?: boolean;
  /** Longest line of tool input or result before it is cut (default 100). */
  readonly width?: number;
}

const ansi = (code: number) => (text: string) => `\u001b[${code}m${text}\u001b[0m`;
const plain = (text: string) => text;

function style(color: boolean | undefined) {
  return color
    ? { bold: ansi(1), dim: ansi(2), green: ansi(32), cyan: ansi(36), yellow: ansi(33), red: ansi(31) }
    : { bold: plain, dim: plain, green: plain, cyan: plain, yellow: plain, red: plain };
}

const cut = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);

/**
 * A text as one printable line of at most `width` characters: line breaks, tabs and other control
 * characters (a terminal's escape codes among them) become spaces, and a longer text is cut with
 * "…" and its length. For requests, which the user may paste from anywhere.
 */
export function oneLine(text: string, width: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');
  if (flat.length <= width) return flat;
  const more = ` (${number(flat.length)} characters)`;
  if (width < 2 * more.length) return cut(flat, width);
  return `${flat.slice(0, width - more.length - 1)}…${more}`;
}
const number = (value: number) => value.toLocaleString('en-US');

/** `30.6×`, `4×`: how many times more the whole catalog costs. */
function ratio(withSearch: number, wholeCatalog: number): string {
  if (withSearch <= 0) return '';
  const times = wholeCatalog / withSearch;
  return times >= 10 ? `${Math.round(times)}×` : `${times.toFixed(1)}×`;
}

/** The per-request token line, e.g. `with tool search 1,356 tokens over 4 model calls · whole catalog 61,024 …`. */
export function renderTokenFigures(tokens: TokenFigures, options: RenderTraceOptions = {}): string {
  const s = style(options.color);
  const calls = (count: number) => `${count} model call${count === 1 ? '' : 's'}`;
  const fewer = tokens.withToolSearch < tokens.wholeCatalog;
  return (
    `with tool search ${s.green(number(tokens.withToolSearch))} over ${calls(tokens.modelCalls)}` +
    ` · whole catalog ${s.yellow(number(tokens.wholeCatalog))}` +
    ` (${number(tokens.wholeCatalogPerCall)} × ${calls(tokens.modelCallsWithoutSearch)} without search)` +
    (fewer ? ` · ${s.bold(ratio(tokens.withToolSearch, tokens.wholeCatalog))} fewer` : '')
  );
}

/**
 * The line under the token figures with everything tool search added to the prompts, e.g.
 * `all added 3,429 (definitions 1,962 + paragraph 208 + search/load messages 1,181 + rest of 2
 * search/load calls 78) · 23× fewer`: the definitions sent, tool search's paragraph in the system
 * messages, the meta-tools' calls and results in the conversation, and the other messages of the
 * calls that only searched or loaded. Empty when the messages were not captured.
 */
export function renderAddedTokens(tokens: TokenFigures, options: RenderTraceOptions = {}): string {
  const added = tokens.allAdded;
  if (!added) return '';
  const s = style(options.color);
  const fewer = added.total < tokens.wholeCatalog;
  const calls = `${added.extraCalls} search/load call${added.extraCalls === 1 ? '' : 's'}`;
  return (
    `all added ${s.green(number(added.total))} (definitions ${number(added.definitions)}` +
    ` + paragraph ${number(added.instructions)}` +
    ` + search/load messages ${number(added.searchMessages)}` +
    ` + rest of ${calls} ${number(added.extraCallMessages)})` +
    (fewer ? ` · ${s.bold(ratio(added.total, tokens.wholeCatalog))} fewer` : '')
  );
}

/** The trace as text, one block per request (no trailing newline). */
export function renderTrace(trace: RequestTrace, options: RenderTraceOptions = {}): string {
  const s = style(options.color);
  const width = options.width ?? 100;
  const pad = '          ';
  const lines: string[] = [];
  lines.push(s.bold(`"${oneLine(trace.request, 3 * width)}"`));
  lines.push(s.dim(`  ${trace.framework} · model: ${trace.model} · thread ${trace.threadId}`));
  for (const step of trace.steps) {
    const sent = step.sent.length > 0 ? step.sent.join(', ') : '(no tools)';
    lines.push(
      `  ${s.bold(`step ${step.index}`)}  sent ${s.cyan(sent)} ${s.dim(`(${step.sent.length} tool${step.sent.length === 1 ? '' : 's'}, ${number(step.sentTokens)} tokens)`)}`,
    );
    for (const search of step.searches) {
      lines.push(`${pad}search_tools ${cut(JSON.stringify(search.query), width)}`);
      const found =
        search.results.length > 0
          ? search.results.map((result) => `${result.name} ${result.score.toFixed(2)}`).join(', ')
          : 'nothing';
      lines.push(`${pad}  ${s.dim('found')} ${cut(found, width)}`);
    }
    for (const load of step.loads) {
      const parts = [
        load.loaded.length > 0 ? `loaded ${s.green(load.loaded.join(', '))}` : '',
        load.alreadyLoaded.length > 0 ? `already loaded ${load.alreadyLoaded.join(', ')}` : '',
        load.notFound.length > 0 ? s.red(`not found ${load.notFound.join(', ')}`) : '',
      ].filter(Boolean);
      lines.push(`${pad}${load.auto ? 'search loaded' : 'load_tool'} → ${parts.join('; ') || 'nothing'}`);
    }
    for (const call of step.calls) {
      const marker = metaToolNames.has(call.toolName) ? call.toolName : s.green(call.toolName);
      lines.push(`${pad}call ${marker} ${cut(JSON.stringify(call.input) ?? '', width)}`);
      lines.push(
        `${pad}  ${call.error !== undefined ? s.red(`failed: ${cut(call.error, width)}`) : `${s.dim('→')} ${cut(call.result ?? '', width)}`}`,
      );
    }
    for (const denied of step.denied) {
      lines.push(`${pad}${s.red(`refused ${denied.toolName}`)} (${denied.reason})`);
    }
    if (step.answer !== undefined) {
      // A real model's answer can be long: its first lines.
      const [first = '', ...rest] = step.answer.trim().split('\n');
      lines.push(`${pad}answer ${cut(first, width)}`);
      for (const line of rest.slice(0, 5)) lines.push(`${pad}       ${cut(line, width)}`);
      if (rest.length > 5) lines.push(`${pad}       ${s.dim(`… ${rest.length - 5} more lines`)}`);
    }
  }
  lines.push(`  ${s.bold('tokens')}  ${renderTokenFigures(trace.tokens, options)}`);
  const added = renderAddedTokens(trace.tokens, options);
  if (added) lines.push(`${pad}${added}`);
  return lines.join('\n');
}
