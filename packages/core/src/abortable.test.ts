import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { abortable } from './abortable';

describe('abortable', () => {
  it('answers a work that throws at once with a rejection, with or without a signal, and keeps no listener', async () => {
    const boom = new Error('boom');
    const work = () => {
      throw boom;
    };
    await expect(abortable(undefined, work)).rejects.toBe(boom);
    const controller = new AbortController();
    await expect(abortable(controller.signal, work)).rejects.toBe(boom);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('ends the wait when the signal aborts, and the work gets the signal', async () => {
    const controller = new AbortController();
    let given: AbortSignal | undefined;
    const waiting = abortable(controller.signal, (signal) => {
      given = signal;
      return new Promise<never>(() => {});
    });
    const reason = new Error('gone');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(given).toBe(controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
