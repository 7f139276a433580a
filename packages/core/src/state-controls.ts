import type { StoreStats, ToolSearchEngine } from './types';

/**
 * An engine's state methods, each answering with a promise whatever the store: what the AI SDK
 * and LangChain adapters hand their users (each adds `getLoadedToolNames` over its own message
 * type).
 */
export interface StateControls {
  /** Forgets what one thread loaded (no thread id: the shared 'default' thread; a number or bigint: the thread of its string). */
  clearState(threadId?: string | number | bigint | null): Promise<void>;
  /** Forgets every thread. */
  clearAllState(): Promise<void>;
  getStateStats(): Promise<StoreStats>;
  /** Removes expired threads now; resolves to how many were removed. */
  cleanupNow(): Promise<number>;
  /** Stops the in-memory sweeper and releases the store; safe to call twice. */
  dispose(): Promise<void>;
}

/** The {@link StateControls} of an engine. */
export function createStateControls(
  engine: Pick<ToolSearchEngine, 'clearState' | 'clearAllState' | 'getStateStats' | 'cleanupNow' | 'dispose'>,
): StateControls {
  return {
    clearState: async (threadId) => {
      await engine.clearState(threadId);
    },
    clearAllState: async () => {
      await engine.clearAllState();
    },
    getStateStats: async () => engine.getStateStats(),
    cleanupNow: async () => engine.cleanupNow(),
    dispose: async () => {
      await engine.dispose();
    },
  };
}
