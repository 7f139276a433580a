import { AIMessage, type BaseMessage, type ToolCall, ToolMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { optionsObject, ToolSearchError } from '@tool-search/core';
import { type BindableTool, createLangChainToolSearch } from './langchain-tool-search';
import type { LangChainTool, ToolSearchOptions, ToolSearchStateControls } from './options';
import { isClientTool } from './to-catalog-entries';

// biome-ignore lint/suspicious/noExplicitAny: bindTools' parameter types differ per chat model class.
type BindToolsFunction = (tools: any[], kwargs?: any) => unknown;

/** Any LangChain chat model that can bind tools (every `BaseChatModel` with tool calling). */
export interface ToolBindingModel {
  bindTools?: BindToolsFunction;
}

export interface ToolSearchBinderOptions<TContext = unknown> extends ToolSearchOptions<TContext> {
  /** Your loop's own tools: sent on every step after the meta-tools (unless `bind()` is given `tools`). */
  readonly alwaysOn?: readonly BindableTool[];
}

export interface BindInput<TModel extends ToolBindingModel, TContext = unknown> {
  /** The chat model; it is not changed: `bind()` returns a new bound model. */
  readonly model: TModel;
  /** The conversation's thread; missing ids share the 'default' thread. */
  readonly threadId?: string | null;
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
  /** True when the load state could not be read: only meta-tools and own tools are bound. */
  readonly degraded: boolean;
  /** May this tool run in this step? */
  guard(toolName: string): Promise<{ allowed: boolean; message?: string }>;
  /**
   * Runs one tool call of this step's response and answers with its tool message: meta-tools run
   * through the engine; a tool not visible in this step is not run (an error tool message says
   * how to recover); errors a tool throws are thrown.
   */
  runToolCall(toolCall: ToolCall, config?: RunnableConfig): Promise<ToolMessage>;
  /** Runs every tool call of an AI message (in parallel, as LangChain's tool node does); results in call order. */
  runToolCalls(message: AIMessage, config?: RunnableConfig): Promise<ToolMessage[]>;
}

export interface ToolSearchBinder<TContext = unknown> extends ToolSearchStateControls {
  /** The meta-tools as LangChain tools. */
  readonly metaTools: readonly LangChainTool[];
  bind<TModel extends ToolBindingModel>(input: BindInput<TModel, TContext>): Promise<BoundStep<TModel>>;
}

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
 * Tool search for hand-written loops: each step, `bind()` returns the model bound with
 * `bindTools` to the tools visible in that step, and executors for the calls it makes.
 */
export function createToolSearchBinder<TContext = unknown>(
  options: ToolSearchBinderOptions<TContext>,
): ToolSearchBinder<TContext> {
  const { alwaysOn = [], ...searchOptions } = optionsObject(options, 'createToolSearchBinder');
  const search = createLangChainToolSearch<TContext>(searchOptions);

  return {
    ...search.controls,
    metaTools: search.metaTools,
    async bind<TModel extends ToolBindingModel>(
      input: BindInput<TModel, TContext>,
    ): Promise<BoundStep<TModel>> {
      const { model } = input;
      if (typeof model?.bindTools !== 'function') {
        throw new ToolSearchError('INVALID_OPTIONS', 'bind() needs a chat model with a `bindTools` method.');
      }
      const own = input.tools ?? alwaysOn;
      const step = await search.prepareStep({
        threadId: input.threadId,
        requestContext: input.requestContext,
        tools: own,
        messages: input.messages ?? [],
      });
      const ownByName = new Map(own.filter(isClientTool).map((tool) => [tool.name, tool]));

      const runToolCall = async (call: ToolCall, config?: RunnableConfig) =>
        (await search.runToolCall(
          step.request,
          call,
          async (resolved) => {
            const tool = resolved ?? ownByName.get(call.name);
            if (!tool) {
              // The engine allowed a name this binder cannot execute: say so rather than guess.
              return new ToolMessage({
                content: `Tool "${call.name}" cannot be executed here.`,
                tool_call_id: call.id ?? '',
                name: call.name,
                status: 'error',
              });
            }
            const output = await tool.invoke({ ...call, type: 'tool_call' }, config);
            return toToolMessage(output, call, tool);
          },
          config?.signal,
        )) as ToolMessage;

      return {
        model: model.bindTools(step.tools, input.bindOptions) as ReturnType<NonNullable<TModel['bindTools']>>,
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
          return Promise.all((message.tool_calls ?? []).map((call) => runToolCall(call, config)));
        },
      };
    },
  };
}
