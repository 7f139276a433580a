import { describe, expect, it } from 'vitest';
import { reportingSuccess } from './call-success';

describe('reportingSuccess', () => {
  it('without learning, runs execute as Mastra calls it: its own result, its context untouched', () => {
    const suspend = () => 'suspended';
    const context = { agent: { suspend } };
    const promise = Promise.resolve({ ok: true });
    let seen: unknown;
    const execute = function (this: unknown, _input: unknown, given: typeof context) {
      seen = given.agent.suspend;
      return promise;
    };
    const run = reportingSuccess(execute, undefined);
    expect(run(undefined, [{}, context])).toBe(promise);
    expect(seen).toBe(suspend);
  });

  it('with learning, tells a success once the promise resolves, and puts suspend back', async () => {
    const suspend = () => 'suspended';
    const context = { agent: { suspend } };
    let told = 0;
    let seen: unknown;
    const run = reportingSuccess(
      async (_input: unknown, given: typeof context) => {
        seen = given.agent.suspend;
        return { ok: true };
      },
      () => told++,
    );
    const answer = run(undefined, [{}, context]);
    expect(told).toBe(0);
    expect(await answer).toEqual({ ok: true });
    expect(told).toBe(1);
    expect(seen).not.toBe(suspend); // watched while the tool ran
    expect(context.agent.suspend).toBe(suspend);
  });
});
