import { constantTimeEqual, fromBase64Url, hmacSha256, sha256Bytes, toBase64Url } from './crypto';
import { ToolSearchError } from './errors';
import { createLoadedToolsReplay, type LoadedToolsReplay } from './loaded-tools-cap';
import { LOAD_TOOL_NAME, parseLoadToolInput, SEARCH_TOOLS_NAME } from './meta-tools';
import type { ConversationRecord } from './types';

/**
 * 'context' load state: the loaded names are derived from the conversation itself.
 *
 * Only an assistant's call of `load_tool` (or of `search_tools` when autoLoad is on)
 * together with a result answering it (same `toolCallId` AND same `toolName`)
 * counts. The names are those the result says it loaded; for `load_tool` they must
 * also be names the call asked for. A search result alone never loads anything.
 *
 * Receipts (with a signing secret): each meta-tool result that loads something
 * carries `receipt = "v2." + base64url(HMAC-SHA256(secret, ["tool-search/receipt/v2",
 * catalogFingerprint, threadId, metaToolName, grant]))`, where `grant` is every field of
 * the result that 'context' storage reads ({@link receiptGrant}): `success` (whether it
 * is true), `toolName`, and the `loaded` and `alreadyLoaded` lists exactly as written, in
 * their own fields. A record whose receipt does not verify is ignored. So a forged
 * result, an edited or deleted field (a name moved from `alreadyLoaded` to `loaded`, an
 * `alreadyLoaded` dropped), a result moved from another thread, a result of an engine
 * with another catalog, or a search result relabelled as a load cannot reproduce a
 * receipt. The receipt must be exactly the canonical encoding (no padding, no junk).
 * v1 receipts (which signed only the set of names, so a field could be edited into a
 * load) are not honoured: a v1 result loads nothing, the model loads the tool again.
 * The tool call id is NOT bound: not every framework tells a tool its call id (and
 * the engine's handlers take none). The only replay this leaves is copying a genuine
 * result of the same thread into another call that asks for the same names, which
 * grants nothing the thread did not already load; and the 'load' and 'active'
 * filters run again on every step whatever the history says. Anonymous requests
 * share the 'default' thread, so they share receipts too: give threads ids.
 */

const RECEIPT_VERSION = 'v2';
const RECEIPT_DOMAIN = 'tool-search/receipt/v2';
/** base64url of an HMAC-SHA256 digest (32 bytes), unpadded. */
const RECEIPT_BODY = /^[A-Za-z0-9_-]{43}$/;

export interface ReceiptSigner {
  /** The receipt of a meta-tool result: it signs the result's {@link receiptGrant}. */
  sign(threadId: string, metaToolName: string, output: unknown): string;
  /** Whether `receipt` is the one this signer gives `output` (as the engine stored it) in this thread. */
  verify(threadId: string, metaToolName: string, output: unknown, receipt: unknown): boolean;
}

export interface ReceiptSignerOptions {
  /**
   * Binds receipts to one catalog: a receipt signed with another fingerprint does not verify.
   * The engine passes {@link catalogFingerprint} of its static catalog. Default: none ('').
   */
  readonly catalogFingerprint?: string;
}

/**
 * A fingerprint of a catalog's tool names (order does not matter): engines with the same names
 * share it, in any process. Request-resolved tools are not part of it (see the README).
 */
export function catalogFingerprint(names: Iterable<string>): string {
  return toBase64Url(sha256Bytes(JSON.stringify([...new Set(names)].sort())));
}

/**
 * What a receipt signs of a meta-tool result: what the result grants, field by field. Any edit
 * that could change what 'context' storage loads from the result changes this value.
 */
export function receiptGrant(output: unknown): {
  readonly success: boolean;
  readonly toolName: string | null;
  readonly loaded: readonly string[];
  readonly alreadyLoaded: readonly string[];
} {
  const result = normalizeToolOutput(output) ?? {};
  return {
    success: result.success === true,
    toolName: typeof result.toolName === 'string' ? result.toolName : null,
    loaded: strings(result.loaded),
    alreadyLoaded: strings(result.alreadyLoaded),
  };
}

/** Signs and verifies receipts with `secret`: a non-empty string, else `INVALID_OPTIONS` (as the engine's `signingSecret`). */
export function createReceiptSigner(secret: string, options: ReceiptSignerOptions = {}): ReceiptSigner {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new ToolSearchError('INVALID_OPTIONS', 'createReceiptSigner needs a non-empty string secret.');
  }
  const fingerprint = options.catalogFingerprint ?? '';
  if (typeof fingerprint !== 'string') {
    throw new ToolSearchError('INVALID_OPTIONS', 'createReceiptSigner: catalogFingerprint must be a string.');
  }
  const mac = (threadId: string, metaToolName: string, output: unknown) =>
    hmacSha256(
      secret,
      JSON.stringify([RECEIPT_DOMAIN, fingerprint, threadId, metaToolName, receiptGrant(output)]),
    );
  return {
    sign: (threadId, metaToolName, output) =>
      `${RECEIPT_VERSION}.${toBase64Url(mac(threadId, metaToolName, output))}`,
    verify(threadId, metaToolName, output, receipt) {
      if (typeof receipt !== 'string' || !receipt.startsWith(`${RECEIPT_VERSION}.`)) return false;
      const body = receipt.slice(RECEIPT_VERSION.length + 1);
      // Only the canonical encoding: base64url decoding skips junk ("…!!") and ignores stray bits.
      if (!RECEIPT_BODY.test(body)) return false;
      const given = fromBase64Url(body);
      if (given === undefined) return false;
      return constantTimeEqual(given, mac(threadId, metaToolName, output));
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJsonObject(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A meta-tool result as an object, whatever wrapper a framework stored it in: the
 * object itself, a JSON string, an AI SDK tool output (`{ type: 'json' | 'text', value }`),
 * or content blocks (`[{ type: 'text', text }]`, as in a LangChain ToolMessage).
 */
export function normalizeToolOutput(output: unknown, depth = 0): Record<string, unknown> | undefined {
  if (depth > 3) return undefined;
  if (typeof output === 'string') return normalizeToolOutput(parseJsonObject(output), depth + 1);
  if (Array.isArray(output)) {
    const text = output
      .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
      .join('');
    return normalizeToolOutput(parseJsonObject(text), depth + 1);
  }
  if (!isRecord(output)) return undefined;
  if (
    (output.type === 'json' || output.type === 'text') &&
    Object.hasOwn(output, 'value') &&
    !Object.hasOwn(output, 'success') &&
    !Object.hasOwn(output, 'results')
  ) {
    return normalizeToolOutput(output.value, depth + 1);
  }
  return output;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * The names a meta-tool result says are loaded (a receipt signs them in their fields: {@link receiptGrant}).
 * `load_tool`: `loaded`, `alreadyLoaded`, and `toolName` when `success` is true.
 * `search_tools`: `loaded` only (present when autoLoad produced it).
 */
export function activatedNames(metaToolName: string, output: unknown): string[] {
  const result = normalizeToolOutput(output);
  if (!result) return [];
  const names: string[] = [];
  if (metaToolName === LOAD_TOOL_NAME) {
    for (const name of strings(result.loaded)) names.push(name);
    for (const name of strings(result.alreadyLoaded)) names.push(name);
    if (result.success === true && typeof result.toolName === 'string') names.push(result.toolName);
  } else if (metaToolName === SEARCH_TOOLS_NAME) {
    for (const name of strings(result.loaded)) names.push(name);
  }
  return [...new Set(names)];
}

/** The fields of a meta-tool result that 'context' storage reads ({@link activatedNames} and the receipt). */
const PROOF_FIELDS = ['success', 'toolName', 'loaded', 'alreadyLoaded', 'receipt'] as const;

/**
 * What 'context' storage reads of a meta-tool result: the fields that name what it loaded,
 * and its receipt; undefined when it loads nothing. Read in place of the result, it loads
 * the same names, and a receipt is checked the same way. An adapter keeps it beside a result
 * that its framework may replace with a placeholder to save tokens (LangChain's
 * `contextEditingMiddleware`), so the load still counts.
 */
export function loadProof(metaToolName: string, output: unknown): Record<string, unknown> | undefined {
  const result = normalizeToolOutput(output);
  if (!result || activatedNames(metaToolName, result).length === 0) return undefined;
  const proof: Record<string, unknown> = {};
  for (const field of PROOF_FIELDS) if (Object.hasOwn(result, field)) proof[field] = result[field];
  return proof;
}

/** The names of a search result's `results` when it has no `loaded` field (Mastra 1.71's autoLoad shape). */
function resultNamesWithoutLoaded(output: unknown): string[] {
  const result = normalizeToolOutput(output);
  if (!result || Object.hasOwn(result, 'loaded') || !Array.isArray(result.results)) return [];
  const names = new Set<string>();
  for (const item of result.results)
    if (isRecord(item) && typeof item.name === 'string') names.add(item.name);
  return [...names];
}

/** Mastra 1.71's single-form load result: `{ success: true, toolName }` with neither list. */
function isSingleLoadWithoutLists(output: unknown): boolean {
  const result = normalizeToolOutput(output);
  return (
    result !== undefined &&
    result.success === true &&
    typeof result.toolName === 'string' &&
    !Object.hasOwn(result, 'loaded') &&
    !Object.hasOwn(result, 'alreadyLoaded')
  );
}

/** The names a `load_tool` result lists under `alreadyLoaded` and not under `loaded`. */
function alreadyLoadedOnly(result: Record<string, unknown> | undefined): Set<string> | undefined {
  if (!result) return undefined;
  const newly = new Set(strings(result.loaded));
  const names = strings(result.alreadyLoaded).filter((name) => !newly.has(name));
  return names.length > 0 ? new Set(names) : undefined;
}

export interface DeriveLoadedNamesOptions {
  readonly records: readonly ConversationRecord[] | undefined;
  readonly threadId: string;
  /** search_tools results count only when autoLoad is on. */
  readonly autoLoad: boolean;
  /** When set, a result counts only with a valid receipt. */
  readonly signer?: ReceiptSigner;
  /**
   * Maps a name the model wrote (a tool call's name, a name a `load_tool` call asked for:
   * canonical, alias, other case) to its canonical name; unknown names stay as they are. The
   * names a result reports as loaded are not mapped: the engine reports canonical names, so
   * they are taken exactly as they are (a result naming a request tool `foo` never loads a
   * static `Foo`, nor the static tool whose alias is `foo`).
   */
  readonly canonicalName?: (name: string) => string | undefined;
}

/** The loaded names the conversation proves (as its results name them), in the order they were first loaded. */
export function deriveLoadedNames(options: DeriveLoadedNamesOptions): string[] {
  return [...deriveLoadState(options).loaded.names()];
}

export interface DeriveLoadStateOptions extends DeriveLoadedNamesOptions {
  /** Cap on loaded names: past it the least recently used go (see {@link createLoadedToolsReplay}). */
  readonly maxLoadedTools?: number;
  /** Names never counted as loaded (a request's always-on tools, which take no slot). */
  readonly skip?: ReadonlySet<string>;
}

export interface DerivedLoadState {
  /** The conversation's loads and calls replayed in order: the loaded names under the cap. */
  readonly loaded: LoadedToolsReplay;
  /** How many accepted load results name each tool (canonical): shows which loads the records hold. */
  readonly loadCounts: ReadonlyMap<string, number>;
  /** How many assistant calls each tool has (canonical), loaded or not. */
  readonly callCounts: ReadonlyMap<string, number>;
}

/**
 * The load state the conversation proves, with recency for `maxLoadedTools`. Records are
 * replayed in order: an accepted load result loads its names (and uses those already
 * loaded); an assistant call of a tool that is loaded at that point uses it (a call made
 * before the tool's load, or after its eviction, uses nothing). No memory outside the
 * records: the same records always give the same names.
 */
export function deriveLoadState(options: DeriveLoadStateOptions): DerivedLoadState {
  const { records, threadId, autoLoad, signer, skip } = options;
  const loaded = createLoadedToolsReplay({ maxLoadedTools: options.maxLoadedTools });
  const loadCounts = new Map<string, number>();
  const callCounts = new Map<string, number>();
  const state: DerivedLoadState = { loaded, loadCounts, callCounts };
  if (!Array.isArray(records) || records.length === 0) return state;
  const canonical = (name: string) => options.canonicalName?.(name) ?? name;

  // A result answers the nearest call of its id before it: some providers and servers number
  // tool calls per response ("call_0"), so an id recurs across a conversation. A result with no
  // call before it answers the first call of its id after it.
  type Call = Readonly<Record<string, unknown>>;
  const laterCalls = new Map<string, Call>();
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index];
    if (isRecord(record) && record.type === 'tool-call' && typeof record.toolCallId === 'string')
      laterCalls.set(record.toolCallId, record);
  }
  const earlierCalls = new Map<string, Call>();

  for (const record of records) {
    if (!isRecord(record)) continue;
    if (record.type === 'tool-call') {
      if (typeof record.toolCallId === 'string') earlierCalls.set(record.toolCallId, record);
      const { toolName } = record;
      if (typeof toolName !== 'string' || toolName === LOAD_TOOL_NAME || toolName === SEARCH_TOOLS_NAME)
        continue;
      const name = canonical(toolName);
      callCounts.set(name, (callCounts.get(name) ?? 0) + 1);
      loaded.use(name);
      continue;
    }
    if (record.type !== 'tool-result' || typeof record.toolCallId !== 'string') continue;
    const found = earlierCalls.get(record.toolCallId) ?? laterCalls.get(record.toolCallId);
    if (!found || found.toolName !== record.toolName) continue;
    if (found.toolName !== LOAD_TOOL_NAME && found.toolName !== SEARCH_TOOLS_NAME) continue;
    const call = { toolName: found.toolName, input: found.input };
    if (call.toolName === SEARCH_TOOLS_NAME && !autoLoad) continue;
    let names = activatedNames(call.toolName, record.output);
    // Mastra 1.71's autoLoad search result lists what it loaded as `results: [{ name }]`, with no
    // `loaded`: unsigned, it restores a conversation Mastra's own processor stored. With a secret,
    // an unsigned result grants nothing, so it is never read.
    let legacy = false;
    if (names.length === 0 && !signer && call.toolName === SEARCH_TOOLS_NAME) {
      names = resultNamesWithoutLoaded(record.output);
      legacy = true;
    } else if (!signer && call.toolName === LOAD_TOOL_NAME) legacy = isSingleLoadWithoutLists(record.output);
    // Mastra names a tool by its id where it has one; ours by its key. A shape only Mastra writes
    // (the engine always lists `loaded` or `alreadyLoaded`) has its names mapped as the model's are.
    if (legacy) names = [...new Set(names.map(canonical))];
    if (names.length === 0) continue;
    if (signer) {
      const result = normalizeToolOutput(record.output);
      if (!signer.verify(threadId, call.toolName, result, result?.receipt)) continue;
    }
    let accepted = names;
    if (call.toolName === LOAD_TOOL_NAME) {
      const asked = parseLoadToolInput(call.input);
      if (!asked.ok) continue;
      // What the call asked for: as written, and as the engine resolved it.
      const askedNames = new Set([...asked.names, ...asked.names.map(canonical)]);
      accepted = names.filter((name) => askedNames.has(name));
    }
    // A name the result reports as already loaded (and not as loaded) states what was loaded
    // then; it uses the tool if the replay has it loaded, and loads nothing: the same answer is
    // given for an always-on tool, which is never loaded.
    const reaffirmed =
      call.toolName === LOAD_TOOL_NAME ? alreadyLoadedOnly(normalizeToolOutput(record.output)) : undefined;
    const used: string[] = [];
    for (const name of accepted) {
      if (used.includes(name)) continue;
      used.push(name);
      loadCounts.set(name, (loadCounts.get(name) ?? 0) + 1);
    }
    const kept = skip ? used.filter((name) => !skip.has(name)) : used;
    loaded.load(reaffirmed ? kept.filter((name) => !reaffirmed.has(name) || loaded.has(name)) : kept);
  }
  return state;
}
