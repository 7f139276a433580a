import { RequestContext } from '@mastra/core/request-context';
import { describe, expect, it } from 'vitest';
import { resolveThreadId } from './thread-id';

const context = (entries: Record<string, unknown>) => {
  const requestContext = new RequestContext();
  for (const [key, value] of Object.entries(entries)) requestContext.set(key, value);
  return requestContext;
};

describe('resolveThreadId', () => {
  it('reads mastra__threadId first, then the memory context', () => {
    expect(
      resolveThreadId(context({ mastra__threadId: 'reserved', MastraMemory: { thread: { id: 'memory' } } })),
    ).toBe('reserved');
    expect(resolveThreadId(context({ MastraMemory: { thread: { id: 'memory' }, resourceId: 'user' } }))).toBe(
      'memory',
    );
  });

  it('answers undefined (the default thread) for anything missing or malformed, never throwing', () => {
    expect(resolveThreadId(undefined)).toBeUndefined();
    expect(resolveThreadId({})).toBeUndefined();
    expect(resolveThreadId(context({}))).toBeUndefined();
    expect(resolveThreadId(context({ mastra__threadId: '' }))).toBeUndefined();
    expect(resolveThreadId(context({ mastra__threadId: Number.NaN }))).toBeUndefined();
    expect(resolveThreadId(context({ mastra__threadId: { id: 'x' } }))).toBeUndefined();
    expect(resolveThreadId(context({ MastraMemory: 'garbage' }))).toBeUndefined();
    expect(resolveThreadId(context({ MastraMemory: { thread: 'garbage' } }))).toBeUndefined();
    expect(resolveThreadId(context({ MastraMemory: { thread: { id: true } } }))).toBeUndefined();
    const hostile = {
      get: () => {
        throw new Error('boom');
      },
    };
    expect(resolveThreadId(hostile)).toBeUndefined();
    const trap = context({});
    trap.set('MastraMemory', {
      get thread() {
        throw new Error('getter');
      },
    });
    expect(resolveThreadId(trap)).toBeUndefined();
  });

  it('takes a numeric or bigint id as its string, as the core does (not the shared default thread)', () => {
    expect(resolveThreadId(context({ mastra__threadId: 42 }))).toBe('42');
    expect(resolveThreadId(context({ mastra__threadId: 0 }))).toBe('0');
    expect(resolveThreadId(context({ MastraMemory: { thread: { id: 7 } } }))).toBe('7');
    // A bigint (a database id as Prisma gives it) too.
    expect(resolveThreadId(context({ mastra__threadId: 42n }))).toBe('42');
  });

  it('keeps odd but valid ids as they are', () => {
    expect(resolveThreadId(context({ mastra__threadId: '__proto__' }))).toBe('__proto__');
    expect(resolveThreadId(context({ mastra__threadId: 'fil 🧵 ü' }))).toBe('fil 🧵 ü');
  });
});
