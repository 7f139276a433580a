// Owns the adapter's side of learning from use (the engine's `learning`): telling the engine which
// catalog tool calls succeeded, by LangChain's notion of success, and to which engine request.
import type { ToolCall } from '@langchain/core/messages';
import { ToolMessage } from '@langchain/core/messages';
import type { ToolSearchRequest } from '@tool-search/core';

/** Threads whose searches are remembered, at most (the least recently searching go first). */
const MAX_THREADS = 1_000;
/** Searching requests remembered per thread, at most (the oldest go first). */
const MAX_SEARCHES_PER_THREAD = 4;
/** Tools whose latest recorded use is remembered per thread, at most (the oldest go first). */
const MAX_RECORDED_PER_THREAD = 100;

export interface UseRecorder<TTool> {
  /** A `search_tools` call ran on this request: a later call of a tool it found may confirm it. */
  searched(request: ToolSearchRequest<TTool>): void;
  /**
   * A call of a catalog (or request) tool ran on `request` and answered `result`: when that is a
   * success and the run was not aborted, the engine is told, so that it records the query of the
   * latest search of the thread that found the tool. Never throws; returns whether a use was recorded.
   */
  called(
    request: ToolSearchRequest<TTool>,
    call: ToolCall,
    result: unknown,
    signal: AbortSignal | undefined,
  ): boolean;
  /** Forgets a thread's searches (all threads' without one). */
  forget(threadId?: string): void;
}

/**
 * True when a tool's answer is a success for LangChain: not a `ToolMessage` with `status: 'error'`
 * (what `createAgent` writes for a tool's exception, and the guard's and the binder's refusals),
 * and not a LangGraph `Command` whose update answers this call with one. Any other `Command` is
 * the tool's own control flow: a success.
 */
export function answersWithSuccess(result: unknown, call: ToolCall): boolean {
  if (ToolMessage.isInstance(result)) return result.status !== 'error';
  if ((result as { lg_name?: unknown } | null | undefined)?.lg_name !== 'Command') return true;
  const update = (result as { update?: unknown }).update;
  // An update is a state object, or a list of [channel, value] pairs.
  const messages = Array.isArray(update)
    ? update.filter((pair) => Array.isArray(pair) && pair[0] === 'messages').flatMap((pair) => pair[1])
    : (update as { messages?: unknown } | null | undefined)?.messages;
  const list: unknown[] = Array.isArray(messages) ? messages : [messages];
  return !list.some(
    (message) =>
      ToolMessage.isInstance(message) && message.tool_call_id === call.id && message.status === 'error',
  );
}

/** A thread's searches, and the tools a call of which recorded one. */
interface ThreadSearches<TTool> {
  /** The requests of the thread that ran a search, oldest first, each with its number. */
  readonly requests: { readonly request: ToolSearchRequest<TTool>; readonly number: number }[];
  /** Tool name → the number of the newest search when a call of the tool recorded a use. */
  readonly recorded: Map<string, number>;
}

/**
 * LangChain plans each model call (each binder step) as its own engine request, so the search
 * that found a tool, its load and its call are three requests of one thread. As the engine does
 * within one request, a successful call records the latest search that found the tool, once: it
 * asks the thread's searching requests, newest first, down to the last search before its
 * previous use; a search after that may record again.
 */
export function createUseRecorder<TTool>(): UseRecorder<TTool> {
  const threads = new Map<string, ThreadSearches<TTool>>();
  let searchCount = 0;
  return {
    searched(request) {
      const thread: ThreadSearches<TTool> = threads.get(request.threadId) ?? {
        requests: [],
        recorded: new Map(),
      };
      // Most recently searching last: the least recently searching thread goes first.
      threads.delete(request.threadId);
      threads.set(request.threadId, thread);
      if (threads.size > MAX_THREADS) threads.delete(threads.keys().next().value as string);
      searchCount += 1;
      const known = thread.requests.findIndex((entry) => entry.request === request);
      if (known !== -1) thread.requests.splice(known, 1);
      thread.requests.push({ request, number: searchCount });
      if (thread.requests.length > MAX_SEARCHES_PER_THREAD) thread.requests.shift();
    },
    called(request, call, result, signal) {
      if (signal?.aborted || !answersWithSuccess(result, call)) return false;
      const thread = threads.get(request.threadId);
      if (thread === undefined) return false;
      const since = thread.recorded.get(call.name) ?? 0;
      try {
        for (let index = thread.requests.length - 1; index >= 0; index--) {
          const entry = thread.requests[index]!;
          if (entry.number <= since) break;
          if (entry.request.toolCallSucceeded(call.name)) {
            thread.recorded.delete(call.name);
            thread.recorded.set(call.name, thread.requests.at(-1)!.number);
            if (thread.recorded.size > MAX_RECORDED_PER_THREAD)
              thread.recorded.delete(thread.recorded.keys().next().value as string);
            return true;
          }
        }
      } catch {
        // The core reports its own failures as events; a throw here must not fail the tool's call.
      }
      return false;
    },
    forget(threadId) {
      if (threadId === undefined) threads.clear();
      else threads.delete(threadId);
    },
  };
}
