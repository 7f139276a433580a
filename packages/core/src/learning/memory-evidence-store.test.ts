import { describe, expect, it } from 'vitest';
import { describeEvidenceStoreContract } from '../testing/evidence-store-contract';
import { createMemoryEvidenceStore } from './memory-evidence-store';

describeEvidenceStoreContract({ name: 'memory', createStore: () => createMemoryEvidenceStore() });
describeEvidenceStoreContract({
  name: 'memory, 5 uses',
  createStore: () => createMemoryEvidenceStore({ maxUses: 5 }),
  maxUses: 5,
});

describe('createMemoryEvidenceStore', () => {
  it('refuses a misspelt option', () => {
    expect(() => createMemoryEvidenceStore({ maxUse: 3 } as never)).toThrow(/maxUses/);
  });

  it('keeps at most maxCatalogs catalogs, forgetting the one written least recently', () => {
    const store = createMemoryEvidenceStore({ maxCatalogs: 2 });
    const use = (id: string) => ({ id, query: 'q', toolName: 't', time: 0 });
    store.add('a', [use('1')]);
    store.add('b', [use('2')]);
    store.add('a', [use('3')]);
    store.add('c', [use('4')]);
    expect(store.list('b')).toEqual([]);
    expect(store.list('a')).toHaveLength(2);
    expect(store.list('c')).toHaveLength(1);
  });
});
