import type { SystemId } from '../systems';

/** One color per system, the same in every chart. */
export const SYSTEM_COLORS: Record<SystemId, string> = {
  ours: '#2563eb',
  'ours-hybrid': '#7c3aed',
  mastra: '#ea580c',
  'ai-sdk': '#059669',
  bm25: '#9ca3af',
};
