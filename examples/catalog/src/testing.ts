import { expect } from 'vitest';
import type { PromptTokens } from './prompt-tokens';
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
 * framework recorded it), its messages' counts are those of the messages the model really received
 * (`promptPerModelCall`, counted from what the scripted model recorded), and tool search sent far
 * fewer tokens than the whole catalog, with or without all it added to the conversation.
 */
export function expectDemoTrace(
  trace: RequestTrace,
  request: { readonly text: string; readonly expectedTools: readonly string[] },
  sentPerModelCall: readonly (readonly string[] | undefined)[],
  promptPerModelCall: readonly PromptTokens[],
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

  // All that tool search added, from the messages each model call was given.
  expect(steps.map((step) => step.prompt)).toEqual(promptPerModelCall);
  const prompts = promptPerModelCall;
  expect(prompts[0]!.searchMessages).toBe(0);
  for (const prompt of prompts.slice(1)) expect(prompt.searchMessages).toBeGreaterThan(0);
  // The paragraph is really in the system messages of every call (with what joins it, at least its own tokens).
  for (const prompt of prompts)
    expect(prompt.instructions).toBeGreaterThanOrEqual(tokens.instructionsPerCall);
  const added = tokens.allAdded!;
  expect(added.extraCalls).toBe(tokens.modelCalls - tokens.modelCallsWithoutSearch);
  expect(added.definitions + tokens.modelCalls * tokens.instructionsPerCall).toBe(tokens.withToolSearch);
  expect(added.instructions).toBe(prompts.reduce((total, prompt) => total + prompt.instructions, 0));
  expect(added.searchMessages).toBe(prompts.reduce((total, prompt) => total + prompt.searchMessages, 0));
  const onlySearched = prompts.filter(
    (_, index) =>
      steps[index]!.calls.length === 0 &&
      steps[index]!.answer === undefined &&
      steps[index]!.denied.length === 0,
  );
  expect(added.extraCallMessages).toBe(
    onlySearched.reduce(
      (total, prompt) => total + prompt.messages - prompt.searchMessages - prompt.instructions,
      0,
    ),
  );
  expect(added.total).toBe(
    added.definitions + added.instructions + added.searchMessages + added.extraCallMessages,
  );
  expect(added.total).toBeGreaterThan(tokens.withToolSearch);
  expect(added.total).toBeLessThan(tokens.wholeCatalog / 10);
}
