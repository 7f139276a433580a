import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFakeClock } from './clock';
import { ToolSearchError } from './errors';
import { createMemoryStore, type MemoryStoreEvictReason, sweepInterval } from './memory-store';
import { describeStoreContract } from './testing/store-contract';

describeStoreContract({
  name: 'memory',
  createStore: ({ ttl, clock }) => createMemoryStore({ ttl, clock }),
});

describe('createMemoryStore', () => {
  it('sweeps expired threads on its own timer, on the injected clock', () => {
    const clock = createFakeClock();
    const evicted: [string, readonly string[], MemoryStoreEvictReason][] = [];
    const store = createMemoryStore({ ttl: 10_000, clock, onEvict: (...args) => evicted.push(args) });
    store.add('a', ['x']);
    clock.advance(4_000);
    store.add('b', ['y']);
    expect(sweepInterval(10_000)).toBe(5_000);
    clock.advance(6_000); // sweep at 10s: 'a' idle 10s goes, 'b' idle 6s stays
    expect(evicted).toEqual([['a', ['x'], 'ttl']]);
    expect(store.stats().threadCount).toBe(1);
    clock.advance(5_000); // sweep at 15s: 'b' idle 11s goes
    expect(evicted).toEqual([
      ['a', ['x'], 'ttl'],
      ['b', ['y'], 'ttl'],
    ]);
    expect(store.stats()).toEqual({ threadCount: 0, oldestAccessTime: null });
    store.dispose();
  });

  it('removes names from a very long thread without losing the rest', () => {
    const store = createMemoryStore({ clock: createFakeClock() });
    const names = Array.from({ length: 200_000 }, (_, index) => `tool_${index}`);
    store.add('t', names);
    expect(store.remove('t', ['tool_0'])).toHaveLength(199_999);
    expect(store.get('t')).toHaveLength(199_999);
    expect(store.add('t', ['tool_0'])).toHaveLength(200_000);
    store.dispose();
  });

  it('sweep() returns how many threads it removed', () => {
    const clock = createFakeClock();
    const store = createMemoryStore({ ttl: 1_000, clock });
    store.add('a', ['x']);
    store.add('b', ['x']);
    clock.advance(500);
    store.add('c', ['x']);
    store.dispose(); // no timer: only the explicit sweep removes
    clock.advance(600);
    expect(store.stats().threadCount).toBe(1);
    expect(store.sweep()).toBe(2);
    expect(store.sweep()).toBe(0);
    expect(store.get('c')).toEqual(['x']);
  });

  it('ttl 0 disables expiry and schedules no timer', () => {
    const clock = createFakeClock();
    const store = createMemoryStore({ ttl: 0, clock });
    expect(clock.pendingTimers()).toBe(0);
    store.add('a', ['x']);
    clock.advance(365 * 24 * 3_600_000);
    expect(store.get('a')).toEqual(['x']);
    expect(store.sweep()).toBe(0);
  });

  it('evicts the least recently used thread past maxThreads', () => {
    const clock = createFakeClock();
    const evicted: string[] = [];
    const store = createMemoryStore({
      maxThreads: 2,
      clock,
      onEvict: (id, _names, reason) => evicted.push(`${id}:${reason}`),
    });
    store.add('a', ['x']);
    clock.advance(1);
    store.add('b', ['x']);
    clock.advance(1);
    store.get('a'); // 'b' is now the least recently used
    store.add('c', ['x']);
    expect(evicted).toEqual(['b:max-threads']);
    expect(store.get('b')).toEqual([]);
    expect(store.get('a')).toEqual(['x']);
    expect(store.stats().threadCount).toBe(2);
  });

  it('reports deletes and clears as cleared, and a throwing onEvict changes nothing', () => {
    const reasons: string[] = [];
    const store = createMemoryStore({
      clock: createFakeClock(),
      onEvict: (id, _names, reason) => {
        reasons.push(`${id}:${reason}`);
        throw new Error('listener bug');
      },
    });
    store.add('a', ['x']);
    store.add('b', ['y']);
    store.delete('a');
    store.clear();
    expect(reasons).toEqual(['a:cleared', 'b:cleared']);
    expect(store.stats().threadCount).toBe(0);
  });

  it('dispose cancels the sweep timer and is safe twice', () => {
    const clock = createFakeClock();
    const store = createMemoryStore({ clock });
    expect(clock.pendingTimers()).toBe(1);
    store.dispose();
    store.dispose();
    expect(clock.pendingTimers()).toBe(0);
  });

  it('rejects bad options with a typed error', () => {
    for (const options of [
      { ttl: -1 },
      { ttl: Number.NaN },
      { ttl: Number.POSITIVE_INFINITY },
      { maxThreads: 0 },
      { maxThreads: 1.5 },
    ]) {
      try {
        createMemoryStore(options);
        expect.unreachable();
      } catch (error) {
        expect(ToolSearchError.isInstance(error) && error.code).toBe('INVALID_OPTIONS');
      }
    }
    for (const clock of ['x', {}, { now: () => 0 }]) {
      expect(() => createMemoryStore({ clock: clock as never })).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTIONS' }),
      );
    }
    expect(() => createMemoryStore(42 as never)).toThrow(/takes an options object, got number/);
    // An array has none of the option keys: it was taken as no options.
    expect(() => createMemoryStore([] as never)).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTIONS',
        message: 'createMemoryStore takes an options object, got an array',
      }),
    );
    // A logger passed as onEvict failed every eviction report silently; refused before any timer starts.
    const clock = createFakeClock();
    for (const onEvict of [console, 'log']) {
      expect(() => createMemoryStore({ clock, onEvict: onEvict as never })).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTIONS' }),
      );
    }
    expect(clock.pendingTimers()).toBe(0);
    const store = createMemoryStore(null); // no options: the defaults
    expect(store.get('a')).toEqual([]);
    store.dispose();
  });

  it('rejects names that are not an array with INVALID_INPUT: a string is not split into letters', () => {
    const store = createMemoryStore({ ttl: 0 });
    store.add('t', ['a', 'b', 'c']);
    for (const names of ['abc', 'ab', null, 5, { 0: 'a', length: 1 }]) {
      expect(() => store.add('t', names as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
      expect(() => store.remove('t', names as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
    }
    expect(store.get('t')).toEqual(['a', 'b', 'c']);
    expect(store.stats().threadCount).toBe(1);
  });

  it('rejects a keep that is not an integer >= 0 with INVALID_INPUT, removing nothing', () => {
    const store = createMemoryStore({ ttl: 0 });
    store.add('t', ['a', 'b', 'c']);
    for (const keep of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '2', null, 2n]) {
      expect(() => store.remove('t', ['a'], { keep } as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('keep') }),
      );
    }
    for (const options of ['keep', 3, [2]]) {
      expect(() => store.remove('t', ['a'], options as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
    }
    expect(store.get('t')).toEqual(['a', 'b', 'c']);
    expect(store.remove('t', ['a'], null as never)).toEqual(['b', 'c']);
  });

  it('behaves like a list-of-sets model under any sequence of operations (property)', () => {
    const threadId = fc.constantFrom('a', 'b', '__proto__', 'constructor', '');
    const names = fc.array(fc.constantFrom<string>('x', 'y', 'z', '__proto__', 'toString', 'ñ'), {
      maxLength: 4,
    });
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), threadId, names }),
      fc.record({ kind: fc.constant('get' as const), threadId }),
      fc.record({ kind: fc.constant('delete' as const), threadId }),
      fc.record({
        kind: fc.constant('remove' as const),
        threadId,
        names,
        keep: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
      }),
      fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 1_500 }) }),
      fc.record({ kind: fc.constant('sweep' as const) }),
    );
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 60 }),
        fc.integer({ min: 1, max: 4 }),
        (operations, maxThreads) => {
          const ttl = 1_000;
          const clock = createFakeClock(0);
          const store = createMemoryStore({ ttl, maxThreads, clock });
          // The model: thread → { names, last access }, in access order.
          const model = new Map<string, { names: string[]; at: number }>();
          const live = (id: string) => {
            const state = model.get(id);
            if (state && clock.now() - state.at >= ttl) model.delete(id);
            return model.get(id);
          };
          const touch = (id: string) => {
            const state = live(id);
            if (!state) return undefined;
            model.delete(id);
            state.at = clock.now();
            model.set(id, state);
            return state;
          };
          for (const op of operations) {
            switch (op.kind) {
              case 'add': {
                let state = touch(op.threadId);
                if (!state && op.names.length > 0) {
                  state = { names: [], at: clock.now() };
                  model.set(op.threadId, state);
                  while (model.size > maxThreads) model.delete(model.keys().next().value!);
                }
                for (const name of op.names) if (state && !state.names.includes(name)) state.names.push(name);
                expect(store.add(op.threadId, op.names)).toEqual(state?.names ?? []);
                break;
              }
              case 'get':
                expect(store.get(op.threadId)).toEqual(touch(op.threadId)?.names ?? []);
                break;
              case 'delete':
                store.delete(op.threadId);
                model.delete(op.threadId);
                break;
              case 'remove': {
                const state = touch(op.threadId);
                // In the order given, until the thread holds `keep` names or fewer.
                for (const name of op.names) {
                  if (!state || (op.keep !== undefined && state.names.length <= op.keep)) break;
                  state.names = state.names.filter((held) => held !== name);
                }
                const options = op.keep === undefined ? undefined : { keep: op.keep };
                expect(store.remove(op.threadId, op.names, options)).toEqual(state?.names ?? []);
                break;
              }
              case 'advance':
                clock.advance(op.ms);
                for (const id of [...model.keys()]) live(id);
                break;
              case 'sweep':
                store.sweep();
                for (const id of [...model.keys()]) live(id);
                break;
            }
            for (const id of [...model.keys()]) live(id);
            const stats = store.stats();
            expect(stats.threadCount).toBe(model.size);
            expect(stats.threadCount).toBeLessThanOrEqual(maxThreads);
          }
          store.dispose();
        },
      ),
      { numRuns: 300 },
    );
  });
});
