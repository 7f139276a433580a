import { AIMessage, type BaseMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import {
  checkOptionNames,
  isMetaToolName,
  type OptionNamesOf,
  optionsObject,
  type ToolSearchRequest,
} from '@tool-search/core';
import { type AgentMiddleware, createMiddleware, MiddlewareError, ToolInvocationError } from 'langchain';
import {
  createLangChainToolSearch,
  messagesBeforeCall,
  messageWithCall,
  runThread,
} from './langchain-tool-search';
import { withBetas, withSearchCalls } from './native-mode';
import {
  type LangChainTool,
  TOOL_SEARCH_OPTION_NAMES,
  type ToolSearchOptions,
  type ToolSearchStateControls,
} from './options';
import { endsTheRun, toolErrorMessage } from './tool-error-message';

export interface ToolSearchMiddlewareOptions<TContext = unknown> extends ToolSearchOptions<TContext> {
  /** The middleware's name in the agent (names must be unique among an agent's middleware). Default 'ToolSearch'. */
  readonly name?: string;
  /**
   * Append the engine's short paragraph on how to use search_tools and load_tool to the system
   * message of each model call (default true).
   */
  readonly instructions?: boolean;
}

const MIDDLEWARE_OPTION_NAMES = {
  ...TOOL_SEARCH_OPTION_NAMES,
  name: true,
  instructions: true,
} as const satisfies OptionNamesOf<ToolSearchMiddlewareOptions>;

/** A `createAgent` middleware, plus the state controls of its tool search. */
export type ToolSearchMiddleware = AgentMiddleware &
  ToolSearchStateControls & {
    /** The meta-tools as LangChain tools (registered with the agent through the middleware's `tools`). */
    readonly metaTools: readonly LangChainTool[];
  };

/**
 * Tool calls made in a model call remember the engine request that planned that call, so the
 * guard judges each call by what the model was sent, even while other calls of the same
 * message run in parallel. Bounded: a call that never runs (an interrupted run) is dropped first.
 */
const MAX_PENDING_CALLS = 1_000;

/**
 * A call the guard refused: what the model was told, and the id of the AI message that made
 * the call (so that a later call reusing the same call id is judged afresh).
 */
interface Refusal {
  readonly content: ToolMessage['content'];
  readonly madeBy: string | undefined;
  /** The run's context the call was refused under (used when the AI message has no id). */
  readonly context: unknown;
}

/**
 * The engine request that planned a model call, and the run's context it was planned with. Call
 * ids are the model's: runs without a thread id share the 'default' thread, so another run's call
 * may have the same key, and only a call of the run that made the plan may be judged by it (its
 * filter decided with that run's context).
 */
interface PendingCall {
  readonly request: ToolSearchRequest<LangChainTool>;
  readonly context: unknown;
  /**
   * The AI message the model call answered with. Its id is read when the call runs: LangGraph
   * gives a message without one an id as it adds it to the state.
   */
  readonly message: AIMessage;
}

/** Levels of nested objects and arrays compared by {@link sameContext}; deeper ones differ. */
const MAX_CONTEXT_DEPTH = 8;

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * True when two runs' contexts are the same: the same object, or plain data (objects, arrays and
 * primitives) with the same content. A run resumed after an interrupt (`Command({ resume })`) is
 * handed the context its invoke writes, an equal object, never the one the interrupted run had.
 * Anything else (a class instance, a function, a `Date`) is the same only as itself, and so is a
 * context that cannot be read (a getter or proxy that throws).
 */
function sameContext(a: unknown, b: unknown): boolean {
  try {
    return sameData(a, b, 0);
  } catch {
    return false;
  }
}

function sameData(a: unknown, b: unknown, depth: number): boolean {
  if (Object.is(a, b)) return true;
  if (
    depth >= MAX_CONTEXT_DEPTH ||
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null
  ) {
    return false;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((value, index) => sameData(value, b[index], depth + 1))
    );
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && sameData(a[key], b[key], depth + 1))
  );
}

/** Adds `key` last to a bounded, insertion-ordered map, dropping the oldest entry past the bound. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_PENDING_CALLS) map.delete(map.keys().next().value as string);
}

/** A tool LangChain ends the run after (`returnDirect: true`), as its agent does for its own tools. */
function returnsDirect(tool: LangChainTool | undefined): boolean {
  return (tool as { returnDirect?: unknown } | undefined)?.returnDirect === true;
}

/**
 * Tool search for `createAgent({ model, tools, middleware: [toolSearchMiddleware({ tools: catalog })] })`.
 * Each model call is sent the meta-tools, the agent's own tools and the tools the thread has
 * loaded, in load order; the catalog stays out of the agent's registry and is executed here.
 * The thread is the run's `configurable.thread_id`; the filter sees the run's context.
 */
export function toolSearchMiddleware<TContext = unknown>(
  options: ToolSearchMiddlewareOptions<TContext>,
): ToolSearchMiddleware {
  const given = optionsObject(options, 'toolSearchMiddleware');
  checkOptionNames(given, MIDDLEWARE_OPTION_NAMES, 'toolSearchMiddleware');
  const { name = 'ToolSearch', instructions = true, ...searchOptions } = given;
  const search = createLangChainToolSearch<TContext>(searchOptions);
  const withInstructions = (systemMessage: SystemMessage | undefined, paragraph: string): SystemMessage =>
    !systemMessage || systemMessage.text === ''
      ? new SystemMessage(paragraph)
      : systemMessage.concat(`\n\n${paragraph}`);
  const pending = new Map<string, PendingCall>();
  /**
   * Tool calls answered by a catalog (or request) tool with `returnDirect`: createAgent ends the
   * run after such a tool only when it is registered with the agent, which catalog tools are not.
   */
  const directAnswers = new Map<string, true>();
  /**
   * Calls the guard refused. LangGraph may run a call again: with `createAgent({ version: 'v1' })`
   * the tool node runs every call of a message again when one of them interrupts (`interrupt()`
   * in a tool) and the run is resumed. The call gets the same refusal then, not a judgement by
   * the thread's state at that time, in which a tool the same message loaded would run.
   */
  const refusals = new Map<string, Refusal>();
  const pendingKey = (threadId: string, toolCallId: string) => `${threadId}\u0000${toolCallId}`;

  const rememberCalls = (
    threadId: string,
    context: unknown,
    response: unknown,
    request: ToolSearchRequest<LangChainTool>,
  ) => {
    if (!AIMessage.isInstance(response)) return;
    for (const call of response.tool_calls ?? []) {
      if (typeof call.id !== 'string' || call.id === '') continue;
      const key = pendingKey(threadId, call.id);
      remember(pending, key, { request, context, message: response });
      refusals.delete(key);
    }
  };

  // As createAgent does after a registered returnDirect tool: the run ends on its tool message
  // when that message is the last one and not an error. Only a catalog with such a tool gets
  // the hook: it is a graph node, run before every model call (about 1–2 ms a step here).
  const endAfterDirectAnswer = {
    canJumpTo: ['end' as const],
    hook: (state: { messages: BaseMessage[] }, runtime: { configurable?: { thread_id?: unknown } }) => {
      const last = state.messages.at(-1);
      if (!ToolMessage.isInstance(last) || last.status === 'error') return undefined;
      const key = pendingKey(runThread(runtime.configurable?.thread_id), last.tool_call_id);
      if (!directAnswers.delete(key)) return undefined;
      return { jumpTo: 'end' as const };
    },
  };

  const endsOnDirectAnswers = search.catalogTools.some(returnsDirect);

  const middleware = createMiddleware({
    name,
    // With `native`, a call binds its own request's meta-tools (search_tools alone in native mode,
    // the engine's pair in the default mode), so none is registered: createAgent refuses a
    // registered tool replaced by another instance, and runs a tool it does not know through
    // this middleware's wrapToolCall, which executes the meta-tools itself.
    tools: searchOptions.native ? [] : search.metaTools,
    ...(endsOnDirectAnswers ? { beforeModel: endAfterDirectAnswer } : {}),
    wrapModelCall: async (request, handler) => {
      const threadId = runThread(request.runtime.configurable?.thread_id);
      const step = await search.prepareStep({
        threadId,
        requestContext: request.runtime.context as TContext | undefined,
        tools: request.tools ?? [],
        messages: request.state.messages,
        model: request.model,
      });
      const response = await handler({
        ...request,
        tools: step.tools,
        ...(step.native ? { messages: step.toModelMessages(request.messages) } : {}),
        ...(step.betas.length > 0 ? { modelSettings: withBetas(request.modelSettings, step.betas) } : {}),
        ...(instructions
          ? { systemMessage: withInstructions(request.systemMessage, step.instructions) }
          : {}),
      });
      // OpenAI's tool_search_call items become search_tools calls, which createAgent then runs.
      const answer = step.native === 'openai' ? withSearchCalls(response) : response;
      rememberCalls(threadId, request.runtime.context, answer, step.request);
      return answer as typeof response;
    },
    wrapToolCall: async (request, handler) => {
      const { toolCall, runtime } = request;
      const threadId = runThread(runtime.configurable?.thread_id);
      const key = toolCall.id ? pendingKey(threadId, toolCall.id) : undefined;
      const messages = (request.state.messages ?? []) as BaseMessage[];
      const madeBy = messageWithCall(messages, toolCall.id)?.id;
      const refused = key === undefined ? undefined : refusals.get(key);
      // Refused for the same AI message: refused again, whatever the context of the run that
      // runs it again (a refusal never lets more run).
      if (
        refused &&
        refused.madeBy === madeBy &&
        (madeBy !== undefined || sameContext(refused.context, runtime.context))
      ) {
        return new ToolMessage({
          content: refused.content,
          tool_call_id: toolCall.id ?? '',
          name: toolCall.name,
          status: 'error',
        });
      }
      // The entry is dropped once the call has an answer: a call that threw past this middleware
      // (arguments the schema refused, an interrupt) keeps it, so that a retry
      // (toolRetryMiddleware before this one) or a resumed run is judged by the same step.
      const found = key === undefined ? undefined : pending.get(key);
      // Planned for this model call only: the same AI message (when both have an id), in a run of
      // the same context (that run, or its resumption). A call of the same id from another run
      // (same thread, another context or AI message) is judged by its own run's plan.
      const plannedBy = found?.message.id;
      const planned =
        found !== undefined &&
        (plannedBy === undefined || madeBy === undefined || plannedBy === madeBy) &&
        sameContext(found.context, runtime.context)
          ? found
          : undefined;
      let engineRequest = planned?.request;
      if (!engineRequest) {
        // The model call ran elsewhere (another process, or before an interrupt): plan its step
        // again from the messages the model had then.
        const registered = request.tool;
        const step = await search.prepareStep({
          modelStep: false,
          threadId,
          requestContext: runtime.context as TContext | undefined,
          tools: registered ? [registered] : [],
          messages: messagesBeforeCall(messages, toolCall.id),
        });
        engineRequest = step.request;
      }
      let executed = false;
      const answer = await search.runToolCall(
        engineRequest,
        toolCall,
        async (tool) => {
          executed = true;
          let result: Awaited<ReturnType<typeof handler>>;
          try {
            result = await handler(tool ? { ...request, tool } : request);
          } catch (error) {
            // As LangChain's tool node answers a tool's exception when no middleware wraps tool
            // calls: the model gets an error message and goes on. What LangChain itself decides
            // goes on to it: arguments the tool's schema refused (it writes their message), an
            // error a middleware after this one threw of its own (fatal there), an interrupt. A
            // middleware before this one sees the answer, not the exception.
            if (
              endsTheRun(error) ||
              ToolInvocationError.isInstance(error) ||
              MiddlewareError.isInstance(error)
            ) {
              throw error;
            }
            return toolErrorMessage(error, toolCall);
          }
          // A tool message, or a Command whose update holds it: the hook ends the run when the
          // step's last message is a successful answer to this call.
          if (endsOnDirectAnswers && key !== undefined && returnsDirect(tool)) {
            remember(directAnswers, key, true);
          }
          return result;
        },
        runtime.signal,
      );
      if (key !== undefined) {
        // Another run's plan for the same id stays for that run's call.
        if (planned !== undefined) pending.delete(key);
        // Not executed and not a meta-tool: the guard refused it.
        if (!executed && !isMetaToolName(toolCall.name) && ToolMessage.isInstance(answer)) {
          remember(refusals, key, { content: answer.content, madeBy, context: runtime.context });
        }
      }
      return answer;
    },
  });

  return Object.assign(middleware, search.controls, { metaTools: search.metaTools });
}
