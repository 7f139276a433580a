import { MASTRA_THREAD_ID_KEY } from '@mastra/core/request-context';
import { DEFAULT_THREAD_ID, normalizeThreadId } from '@tool-search/core';

/** The key under which a Mastra agent puts its memory context (thread, resource) in the request context. */
const MEMORY_CONTEXT_KEY = 'MastraMemory';

/** The part of Mastra's `RequestContext` that thread resolution reads. */
export interface RequestContextLike {
  get(key: string): unknown;
}

function read(requestContext: unknown, key: string): unknown {
  if (typeof requestContext !== 'object' || requestContext === null) return undefined;
  const get = (requestContext as Partial<RequestContextLike>).get;
  if (typeof get !== 'function') return undefined;
  try {
    return get.call(requestContext, key);
  } catch {
    return undefined;
  }
}

/**
 * A thread id: a non-empty string, or a finite number or bigint as its string (an app keying
 * threads by a database integer; Mastra's processor keeps such threads apart too), as the core normalises them.
 */
function threadIdOf(value: unknown): string | undefined {
  const threadId = normalizeThreadId(value);
  // The core keys what is no thread as the default one: here it is "none", to look further.
  return threadId !== DEFAULT_THREAD_ID || value === DEFAULT_THREAD_ID ? threadId : undefined;
}

/**
 * The thread of a request, as Mastra's own processor finds it: the reserved
 * `mastra__threadId` key first, then the memory context the agent sets after
 * resolving its thread (`MastraMemory.thread.id`). A numeric id is its string.
 * Anything malformed (a memory context that is not an object, a thread id that is
 * neither a string nor a finite number, a context whose `get` throws) counts as
 * "no thread" instead of failing the step.
 */
export function resolveThreadId(requestContext: unknown): string | undefined {
  const reserved = threadIdOf(read(requestContext, MASTRA_THREAD_ID_KEY));
  if (reserved) return reserved;
  const memory = read(requestContext, MEMORY_CONTEXT_KEY);
  if (typeof memory !== 'object' || memory === null) return undefined;
  try {
    const thread = (memory as { thread?: unknown }).thread;
    if (typeof thread !== 'object' || thread === null) return undefined;
    return threadIdOf((thread as { id?: unknown }).id);
  } catch {
    return undefined;
  }
}
