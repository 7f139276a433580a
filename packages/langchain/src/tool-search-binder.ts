import {
  AIMessage,
  type BaseMessage,
  isBaseMessage,
  type ToolCall,
  ToolMessage,
} from '@langchain/core/messages';
import { type Runnable, type RunnableConfig, RunnableLambda } from '@langchain/core/runnables';
import { ToolInputParsingException } from '@langchain/core/tools';
import {
  abortable,
  checkOptionNames,
  type OptionNamesOf,
  optionsObject,
  ToolSearchError,
} from '@tool-search/core';
import {
  type BindableTool,
  createLangChainToolSearch,
  type PreparedStep,
  threadOf,
} from './langchain-tool-search';
import { type NativeProvider, withBetas, withSearchCalls } from './native-mode';
import {
  type LangChainTool,
  TOOL_SEARCH_OPTION_NAMES,
  type ToolSearchOptions,
  type ToolSearchStateControls,
} from './options';
import { endsTheRun, toolErrorMessage } from './tool-error-message';

// biome-ignore lint/suspicious/noExplicitAny: bindTools' parameter types differ per chat model class.
type BindToolsFunction = (tools: any[], kwargs?: any) => unknown;

/** Any LangChain chat model that can bind tools (every `BaseChatModel` with tool calling). */
export interface ToolBindingModel {
  bindTools?: BindToolsFunction;
}

export interface ToolSearchBinderOptions<TContext = unknown> extends ToolSearchOptions<TContext> {
  /**
   * Your loop's own tools: sent on every step after the meta-tools (unless `bind()` is given
   * `tools`). Read once, when the binder is created: changing the array later changes nothing
   * (pass `bind({ tools })` for tools that change per step).
   */
  readonly alwaysOn?: readonly BindableTool[];
}

export interface BindInput<TModel extends ToolBindingModel, TContext = unknown> {
  /** The chat model; it is not changed: `bind()` returns a new bound model. */
  readonly model: TModel;
  /**
   * The conversation's thread; missing ids share the 'default' thread. A number or bigint is the
   * thread of its string; any other type is refused (`INVALID_OPTIONS`).
   */
  readonly threadId?: string | number | bigint | null;
  /** The conversation so far (read with 'context' storage). */
  readonly messages?: readonly BaseMessage[];
  /** Handed to the filter as `requestContext`. */
  readonly requestContext?: TContext;
  /** This step's own tools, replacing the binder's `alwaysOn` (with includeResolvedTools: searchable, hidden until loaded). */
  readonly tools?: readonly BindableTool[];
  /** Passed to `bindTools` as its second argument (e.g. `{ tool_choice: 'auto' }`). */
  readonly bindOptions?: Parameters<NonNullable<TModel['bindTools']>>[1];
}

/** One step of a hand-written loop: the bound model and the executors for its tool calls. */
export interface BoundStep<TModel extends ToolBindingModel> {
  /** The model bound to exactly the tools visible in this step. */
  readonly model: ReturnType<NonNullable<TModel['bindTools']>>;
  /** The tools bound, in order: meta-tools, own tools, provider tools, loaded tools. */
  readonly tools: readonly BindableTool[];
  /** Their names, as the engine planned them. */
  readonly visible: readonly string[];
  /** The provider whose deferred loading this step uses (`native` option), or undefined in the default mode. */
  readonly native: NativeProvider | undefined;
  /** True when the load state could not be read: only meta-tools and own tools are bound. */
  readonly degraded: boolean;
  /**
   * May this tool run in this step? The engine's check as a call is about to run (what
   * `runToolCall` asks): an allowed call of a loaded tool counts as a use for `maxLoadedTools`,
   * and a refusal emits a `deny` event. Ask it for a call you are about to run.
   */
  guard(toolName: string): Promise<{ allowed: boolean; message?: string }>;
  /**
   * Runs one tool call of this step's response and answers with its tool message: meta-tools run
   * through the engine; a tool not visible in this step is not run (an error tool message says
   * how to recover); arguments that do not match the tool's schema are not run either (an error
   * tool message says what is wrong, as LangChain's tool node writes it); errors a tool throws
   * are thrown, as a tool's own `invoke(toolCall)` throws them (`runToolCalls` answers them).
   */
  runToolCall(toolCall: ToolCall, config?: RunnableConfig): Promise<ToolMessage>;
  /**
   * Runs every tool call of an AI message and answers each, in call order, as LangChain's tool
   * node does: in parallel, and a tool's exception is answered with an error tool message (the
   * error, then "Please fix your mistakes."), so the loop goes on. What ends a tool node's run, a
   * LangGraph interrupt, is thrown once every call has settled; an aborted `signal` rejects at
   * once with its reason. To handle your tools' errors yourself, run each call with `runToolCall`.
   */
  runToolCalls(message: AIMessage, config?: RunnableConfig): Promise<ToolMessage[]>;
}

export interface ToolSearchBinder<TContext = unknown> extends ToolSearchStateControls {
  /** The meta-tools as LangChain tools. */
  readonly metaTools: readonly LangChainTool[];
  bind<TModel extends ToolBindingModel>(input: BindInput<TModel, TContext>): Promise<BoundStep<TModel>>;
}

const BINDER_OPTION_NAMES = {
  ...TOOL_SEARCH_OPTION_NAMES,
  alwaysOn: true,
} as const satisfies OptionNamesOf<ToolSearchBinderOptions>;
const BIND_OPTION_NAMES = {
  model: true,
  threadId: true,
  messages: true,
  requestContext: true,
  tools: true,
  bindOptions: true,
} as const satisfies OptionNamesOf<BindInput<ToolBindingModel>>;

/** What a LangChain tool gives back, as the tool message LangChain's tool node would write. */
function toToolMessage(output: unknown, call: ToolCall, tool: LangChainTool): ToolMessage {
  if (ToolMessage.isInstance(output)) return output;
  return new ToolMessage({
    content: typeof output === 'string' ? output : JSON.stringify(output),
    tool_call_id: call.id ?? '',
    name: tool.name,
  });
}

/**
 * The tool message for a call whose arguments the tool's schema refused (LangChain's
 * `ToolInputParsingException`, thrown before the tool runs): what LangChain's tool node writes
 * for it (its `ToolInvocationError`), up to the stack trace, which is left out (it tells the model
 * nothing and shows it file paths), so the model can correct the call.
 */
function invalidArgumentsMessage(call: ToolCall, error: ToolInputParsingException): ToolMessage {
  return new ToolMessage({
    content: `Error invoking tool '${call.name}' with kwargs ${JSON.stringify(call.args)} with error: ${String(error)}\n Please fix the error and try again.`,
    tool_call_id: call.id ?? '',
    name: call.name,
    status: 'error',
  });
}

/**
 * The model bound to the step's tools. In native mode, a runnable that hands the bound model the
 * conversation as its provider package must see it (the references translated, the earlier loads
 * announced: the step's `toModelMessages`), with the provider's beta flags bound; it invokes and
 * streams like the bound model.
 */
function boundModel(model: ToolBindingModel, step: PreparedStep, bindOptions: unknown): unknown {
  const bindTools = model.bindTools as BindToolsFunction;
  if (!step.native) return bindTools.call(model, step.tools, bindOptions);
  const options = step.betas.length > 0 ? withBetas(bindOptions, step.betas) : bindOptions;
  const bound = bindTools.call(model, step.tools, options) as Runnable;
  const translated = RunnableLambda.from((input: unknown) =>
    Array.isArray(input) && input.every(isBaseMessage) ? step.toModelMessages(input) : input,
  ).pipe(bound);
  // OpenAI's tool_search_call items come back as search_tools calls, which runToolCalls runs.
  return step.native === 'openai' ? translated.pipe(RunnableLambda.from(withSearchCalls)) : translated;
}

/**
 * Tool search for hand-written loops: each step, `bind()` returns the model bound with
 * `bindTools` to the tools visible in that step, and executors for the calls it makes.
 */
export function createToolSearchBinder<TContext = unknown>(
  options: ToolSearchBinderOptions<TContext>,
): ToolSearchBinder<TContext> {
  const given = optionsObject(options, 'createToolSearchBinder');
  checkOptionNames(given, BINDER_OPTION_NAMES, 'createToolSearchBinder');
  const { alwaysOn: givenAlwaysOn, ...searchOptions } = given;
  if (givenAlwaysOn !== undefined && givenAlwaysOn !== null && !Array.isArray(givenAlwaysOn)) {
    throw new ToolSearchError('INVALID_OPTIONS', '`alwaysOn` must be an array of LangChain tools.');
  }
  // A copy: the binder's own tools are those given at creation, whatever later becomes of the array.
  const alwaysOn: readonly BindableTool[] = [...(givenAlwaysOn ?? [])];
  const search = createLangChainToolSearch<TContext>(searchOptions);

  return {
    ...search.controls,
    metaTools: search.metaTools,
    async bind<TModel extends ToolBindingModel>(
      input: BindInput<TModel, TContext>,
    ): Promise<BoundStep<TModel>> {
      if (typeof input === 'object' && input !== null) checkOptionNames(input, BIND_OPTION_NAMES, 'bind');
      const { model } = input;
      if (typeof model?.bindTools !== 'function') {
        throw new ToolSearchError('INVALID_OPTIONS', 'bind() needs a chat model with a `bindTools` method.');
      }
      const step = await search.prepareStep({
        threadId: threadOf(input.threadId, "bind()'s threadId"),
        requestContext: input.requestContext,
        tools: input.tools ?? alwaysOn,
        messages: input.messages ?? [],
        model,
      });

      const runToolCall = async (call: ToolCall, config?: RunnableConfig) =>
        (await search.runToolCall(
          step.request,
          call,
          async (resolved) => {
            // The step's own tools as they were planned: the caller's array may have changed since.
            const tool = resolved ?? step.ownByName.get(call.name);
            if (!tool) {
              // The engine allowed a name this binder cannot execute: say so rather than guess.
              return new ToolMessage({
                content: `Tool "${call.name}" cannot be executed here.`,
                tool_call_id: call.id ?? '',
                name: call.name,
                status: 'error',
              });
            }
            let output: unknown;
            try {
              output = await tool.invoke({ ...call, type: 'tool_call' }, config);
            } catch (error) {
              // The model's arguments did not match the tool's schema: a mistake the model can
              // fix, answered as LangChain's tool node answers it. `instanceof`, as LangChain
              // itself checks it (the class has no brand), holds with the single @langchain/core
              // a peer dependency gives. Anything else the tool throws reaches the caller.
              if (error instanceof ToolInputParsingException) return invalidArgumentsMessage(call, error);
              throw error;
            }
            return toToolMessage(output, call, tool);
          },
          config?.signal,
        )) as ToolMessage;

      return {
        model: boundModel(model, step, input.bindOptions) as ReturnType<NonNullable<TModel['bindTools']>>,
        native: step.native,
        tools: step.tools,
        visible: step.plan.visible,
        degraded: step.plan.degraded,
        guard: (toolName) => step.request.guard(toolName),
        runToolCall,
        runToolCalls: async (message, config) => {
          if (!AIMessage.isInstance(message)) {
            throw new ToolSearchError(
              'INVALID_INPUT',
              'runToolCalls() needs the AI message the bound model returned.',
            );
          }
          // As LangChain's tool node: a tool's exception is answered with an error message and
          // the other calls' results are kept; what ends its run (an interrupt) is thrown once
          // every call has settled, so no call is still running when the caller sees it, and it
          // is the first call's, not the fastest one's. An aborted run's signal ends the wait at
          // once.
          const calls = message.tool_calls ?? [];
          const outcomes = await abortable(config?.signal, () =>
            Promise.allSettled(calls.map((call) => runToolCall(call, config))),
          );
          const failed = outcomes.find(
            (outcome) => outcome.status === 'rejected' && endsTheRun(outcome.reason),
          );
          if (failed) throw (failed as PromiseRejectedResult).reason;
          return outcomes.map((outcome, index) =>
            outcome.status === 'fulfilled' ? outcome.value : toolErrorMessage(outcome.reason, calls[index]!),
          );
        },
      };
    },
  };
}
