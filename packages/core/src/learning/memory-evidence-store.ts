// Owns the in-memory evidence store: per catalog id, the uses by id in the order added, bounded
// (the oldest added go first), and a bounded number of catalogs.
import { sizeOption, ToolSearchError } from '../errors';
import { checkOptionNames, type OptionNamesOf } from '../option-names';
import type { EvidenceStore, StoredToolUse } from './evidence';

export interface MemoryEvidenceStoreOptions {
  /** Uses kept per catalog (default 10,000); past it the oldest added go first. */
  readonly maxUses?: number;
  /** Catalogs kept (default 100); past it the catalog written least recently goes. */
  readonly maxCatalogs?: number;
}

export const DEFAULT_MAX_STORED_USES = 10_000;
const DEFAULT_MAX_CATALOGS = 100;

const OPTION_NAMES = {
  maxUses: true,
  maxCatalogs: true,
} as const satisfies OptionNamesOf<MemoryEvidenceStoreOptions>;

/** The default evidence store: in this process only (export it, or use a persistent store, to keep it). */
export function createMemoryEvidenceStore(options: MemoryEvidenceStoreOptions = {}): EvidenceStore {
  if (typeof options !== 'object' || options === null) {
    throw new ToolSearchError('INVALID_OPTIONS', 'createMemoryEvidenceStore: options must be an object');
  }
  checkOptionNames(options, OPTION_NAMES, 'createMemoryEvidenceStore');
  const maxUses = Math.max(1, sizeOption(options.maxUses, 'maxUses', DEFAULT_MAX_STORED_USES));
  const maxCatalogs = Math.max(1, sizeOption(options.maxCatalogs, 'maxCatalogs', DEFAULT_MAX_CATALOGS));
  const catalogs = new Map<string, Map<string, StoredToolUse>>();

  const checkId = (catalogId: unknown): string => {
    if (typeof catalogId !== 'string') {
      throw new ToolSearchError('INVALID_INPUT', `catalogId must be a string, got ${typeof catalogId}`);
    }
    return catalogId;
  };

  return {
    add(catalogId, uses) {
      const id = checkId(catalogId);
      let kept = catalogs.get(id);
      if (kept === undefined) kept = new Map();
      catalogs.delete(id); // re-inserted last: the most recently written
      catalogs.set(id, kept);
      for (const use of uses) {
        if (kept.has(use.id)) continue;
        kept.set(use.id, use);
        if (kept.size > maxUses) kept.delete(kept.keys().next().value!);
      }
      if (catalogs.size > maxCatalogs) catalogs.delete(catalogs.keys().next().value!);
    },
    list(catalogId) {
      return [...(catalogs.get(checkId(catalogId))?.values() ?? [])];
    },
    clear(catalogId) {
      catalogs.delete(checkId(catalogId));
    },
    dispose() {
      catalogs.clear();
    },
  };
}
