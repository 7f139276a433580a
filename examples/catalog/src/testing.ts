import { expect } from 'vitest';
import { demoRequests } from './requests';
import type { RequestTrace } from './trace';

/** The demo requests every example agent's test runs (one single-tool, one multi-tool). */
export const testedDemoRequests = demoRequests.filter((request) =>
  ['restaurant', 'trip'].includes(request.id),
);

/**
 * The checks each example agent's test makes of the trace of a demo request run with the offline
 * planner: it searched the request, loaded and called exactly the expected tools without an
 * error, the trace's "sent" lists are what the model was really given (`sentPerModelCall`, as the
 * framework recorded it), and tool search sent far fewer tokens than the whole catalog.
 */
export function expectDemoTrace(
  trace: RequestTrace,
  request: { readonly text: string; readonly expectedTools: readonly string[] },
  sentPerModelCall: readonly (readonly string[] | undefined)[],
): void {
  const { text, expectedTools } = request;
  const steps = trace.steps;
  expect(steps[0]!.sent).toEqual(['search_tools', 'load_tool']);
  expect(steps[0]!.searches[0]!.query).toBe(text);
  expect(steps[0]!.searches[0]!.results.map((result) => result.name)).toEqual(
    expect.arrayContaining([...expectedTools]),
  );
  expect(steps.flatMap((step) => step.loads.flatMap((load) => load.loaded))).toEqual(expectedTools);
  expect(trace.toolsCalled).toEqual(expectedTools);
  expect(steps.flatMap((step) => step.calls).every((call) => call.error === undefined)).toBe(true);
  expect(trace.answer).toMatch(/^\[offline planner\]/);
  // The trace tells what the model was really sent, step by step.
  expect(sentPerModelCall).toEqual(steps.map((step) => step.sent));

  const { tokens } = trace;
  expect(tokens.modelCalls).toBe(steps.length);
  expect(tokens.wholeCatalogPerCall).toBeGreaterThan(10_000);
  expect(tokens.withToolSearch).toBeGreaterThan(0);
  expect(tokens.withToolSearch).toBeLessThan(tokens.wholeCatalog);
  expect(tokens.withToolSearch).toBeLessThan(tokens.wholeCatalogPerCall);
}
